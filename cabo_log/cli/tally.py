"""``cabo-log tally``: keep the score of a game played with real cards, in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cabo_log.cli.errors import json_object, log_error, unwritable, usage
from cabo_log.cli.write import interrupted
from cabo_log.log.gamelog import GameLog
from cabo_log.log.scoresheet import open_sheet, start_sheet
from cabo_log.play.tally import Stop, keep_score, stopped
from engine import CaboLogError, RulesetError


def tally_command(
    file: Annotated[Path, typer.Argument(help="The score sheet to write (a new file), or "
                                              "to carry on with --resume.")],
    ruleset: Annotated[Optional[str], typer.Option(  # noqa: UP045 - typer needs Optional
        "--ruleset", "-r", metavar="RULESET",
        help="A built-in ruleset, or house rules as a JSON object "
                                "(a new sheet).")] = None,
    players: Annotated[Optional[str], typer.Option(  # noqa: UP045
        "--players", "-p", metavar="NAME,NAME...",
        help="The players in seat order, e.g. ana,bruno,carla.")] = None,
    options: Annotated[Optional[str], typer.Option(  # noqa: UP045
        "--options", metavar="JSON",
        help="Ruleset options as JSON, e.g. '{\"target\": 50}'.")] = None,
    game_id: Annotated[Optional[str], typer.Option(  # noqa: UP045
        "--game-id", metavar="ID",
        help="The game's id (default: the file's name and a random tail).")]
    = None,
    resume: Annotated[bool, typer.Option("--resume", help="Carry on with an existing "
                                                          "score sheet.")] = False,
) -> None:
    """Keep score: each round, who called and every player's cards as they read them off;
    shows the round's points and the totals, and appends each round to a chained score sheet
    (checked by the rules first). Ctrl-C or q stops without losing a round; --resume goes on."""
    log = _open(file, ruleset, players, options, game_id, resume)
    with log:
        try:
            keep_score(log, input, typer.echo)
        except (Stop, EOFError):
            typer.echo(stopped(log), err=True)
        except KeyboardInterrupt as exc:   # Ctrl-C, or SIGTERM (``stop.install``)
            raise interrupted(exc, stopped(log)) from None


def _open(file: Path, ruleset: str | None, players: str | None, options: str | None,
          game_id: str | None, resume: bool) -> GameLog:
    try:
        if resume:
            if ruleset is not None or players is not None or options is not None:
                raise usage("--resume takes the ruleset and players from the sheet; leave "
                            "out --ruleset, --players and --options")
            if not file.is_file():
                raise usage(f"no such file: {file}")
            return open_sheet(file)
        if ruleset is None or players is None:
            raise usage("a new score sheet needs --ruleset and --players (or --resume to "
                        "carry on with one)")
        if file.exists():
            raise usage(f"{file} exists: --resume carries on with it, or choose another name")
        names = [p.strip() for p in players.split(",") if p.strip()]
        opts = json_object(options, "--options") if options else {}
        rules: str | dict[str, object] = ruleset
        if ruleset.lstrip().startswith("{"):
            rules = json_object(ruleset, "--ruleset", "a ruleset name or a JSON object")
        return start_sheet(file, rules, names, options=opts, game_id=game_id)
    except RulesetError as exc:
        raise usage(exc.message) from None
    except CaboLogError as exc:
        raise log_error(exc) from None
    except OSError as exc:
        raise unwritable(file, "the score sheet", exc) from None


def register(app: typer.Typer) -> None:
    app.command("tally")(tally_command)
