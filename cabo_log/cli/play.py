"""``cabo-log play``: play a match against bots in the terminal, every move appended live."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from cabo_log.cli.errors import json_object, log_error, usage
from cabo_log.log.gamelog import GameLog
from cabo_log.play.interactive import Match, Quit, new_match
from cabo_log.stop import stopped_by
from engine import CaboLogError, RulesetError


def _ask(prompt: str) -> str:
    return input(prompt)


def play_command(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", metavar="RULESET",
                                         help="A built-in ruleset: edition1, edition2, golf "
                                              "or online.")]
    = "edition1",
    players: Annotated[int, typer.Option("--players", "-n", help="Players, you included.")] = 3,
    bot: Annotated[str, typer.Option("--bot", metavar="BOT[,BOT...]",
                                     help="Bots for the other seats, e.g. "
                                                   "greedy,random (the list repeats).")]
    = "greedy",
    seat: Annotated[str, typer.Option("--seat", metavar="NAME",
                                      help="Your name at the table.")] = "you",
    seed: Annotated[Optional[int], typer.Option(  # noqa: UP045 - typer needs Optional
        "--seed", help="Seed of the shuffles and the bots (default: a random one, kept in "
                       "the log's header).")] = None,
    options: Annotated[Optional[str], typer.Option(  # noqa: UP045
        "--options", metavar="JSON",
        help="Ruleset options as JSON, e.g. '{\"target\": 50}'.")] = None,
    out: Annotated[Optional[Path], typer.Option(  # noqa: UP045
        "--out", "-o", help="The log to write (default: cabo-RULESET-SEED.jsonl).")] = None,
    resume: Annotated[Optional[Path], typer.Option(  # noqa: UP045
        "--resume", help="Continue the match in this log.")] = None,
) -> None:
    """Play a match against bots in the terminal, every move saved to the log as it is made.

    You see only what you know. Pick a move by its number, a card by its player and position
    (bruno 2); each round ends with every hand turned over and why each player scores what
    they score. Ctrl-C or q stops, --resume goes on."""
    try:
        if resume is not None:
            if not resume.is_file():
                raise usage(f"no such file: {resume}")
            log = GameLog.open(resume)
        else:
            opts = json_object(options, "--options") if options else {}
            if seed is None:
                seed = random.SystemRandom().randrange(10**6)
            target = out if out is not None else Path(f"cabo-{ruleset}-{seed}.jsonl")
            log = new_match(target, ruleset, players, bot, seat=seat, seed=seed, options=opts)
    except RulesetError as exc:
        raise usage(exc.message) from None
    except CaboLogError as exc:
        raise log_error(exc) from None
    except (ValueError, KeyError) as exc:
        raise usage(str(exc)) from None
    with log:
        try:
            match = Match(log, _ask, typer.echo)
        except ValueError as exc:
            raise usage(str(exc)) from None
        try:
            typer.echo(f"Playing {log.path} as {match.me}; every move is saved as it is made.")
            match.play()
        except Quit:
            typer.echo(f"\nsaved: {log.path} ({log.lines} lines); continue with "
                       f"cabo-log play --resume {log.path}")
            return
        except KeyboardInterrupt as exc:   # Ctrl-C, or SIGTERM (``stop.install``)
            stop = stopped_by(exc)
            typer.echo(f"\n{stop.verb}: {log.path} holds the match so far ({log.lines} "
                       f"lines); continue with cabo-log play --resume {log.path}", err=True)
            raise typer.Exit(stop.exit_code) from None
    typer.echo(f"The log is {log.path}.")


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
