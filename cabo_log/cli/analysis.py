"""``analyse`` and ``whatif``: which decisions cost points, and what else could have happened."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cabo_log.analysis.analyse import analyse_bytes
from cabo_log.analysis.decisions import NeedsFullRecord
from cabo_log.analysis.evaluate import DEFAULT_ROLLOUTS, MIN_ROLLOUTS, Settings
from cabo_log.analysis.rollout import DEFAULT_POLICY, policy_names
from cabo_log.analysis.whatif import DEFAULT_PLAYOUTS, whatif_bytes
from cabo_log.cli.errors import failed, json_object, usage
from cabo_log.stop import interruption, stop_signals
from engine import CaboLogError


def _read(file: Path) -> bytes:
    if not file.is_file():
        raise usage(f"no such file: {file}")
    try:
        return file.read_bytes()
    except OSError as exc:
        raise usage(f"cannot read {file}: {exc.strerror or exc}") from None


def _check(rollouts: int, bot: str, least: int = 1) -> None:
    if rollouts < least:
        raise usage(f"--rollouts must be at least {least}, not {rollouts}")
    if bot not in policy_names():
        raise usage(f"unknown bot {bot!r} (known: {', '.join(policy_names())})")


BotOption = Annotated[str, typer.Option(
    "--bot", metavar="BOT",
    help="The bots that play the positions on (the rollout policy): auto is the expert "
         "after a Cabo call, when only the final turns are left, and greedy elsewhere and on "
         "whatif's real table; or any bot: expert (stronger, about 11x the time per event), "
         "greedy, cautious, random.")]
SeedOption = Annotated[int, typer.Option("--seed", "-s", help="Seed of the rollouts.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def analyse_command(
    file: Annotated[Path, typer.Argument(help="A game log (.jsonl).")],
    rollouts: Annotated[int, typer.Option(
        "--rollouts", "-r", help="Sampled worlds every option is played in first (at least "
                                 "2); the chosen move and the options that could still be "
                                 "best get twice as many, up to 8x, while the mark is "
                                 "undecided (more where rollouts are short). A last turn "
                                 "is exact.")] = DEFAULT_ROLLOUTS,
    seed: SeedOption = 0,
    jobs: Annotated[Optional[int], typer.Option(  # noqa: UP045 - typer needs Optional
        "--jobs", "-j", help="Worker processes (default: one per core).")] = None,
    player: Annotated[Optional[str], typer.Option(  # noqa: UP045
        "--player", "-p", metavar="PLAYER", help="Only this player's decisions.")] = None,
    bot: BotOption = DEFAULT_POLICY,
    as_json: JsonOption = False,
    progress: Annotated[Optional[bool], typer.Option(  # noqa: UP045
        "--progress/--no-progress", help="Progress bar on stderr (default: on a terminal)."
    )] = None,
) -> None:
    """Mark each decision by what it gave away from what the player knew (expected round
    points, or near the end of a match its chance to win it): ?? blunder, ? mistake, ?!
    dubious, unclear; and each player's accuracy."""
    data = _read(file)
    _check(rollouts, bot, MIN_ROLLOUTS)
    if jobs is not None and jobs < 1:
        raise usage(f"--jobs must be at least 1, not {jobs}")
    show = sys.stderr.isatty() if progress is None else progress
    try:
        with stop_signals():
            result = analyse_bytes(data, str(file), settings=Settings(rollouts, seed, bot),
                                   player=player, jobs=jobs,
                                   progress=sys.stderr if show else None)
    except CaboLogError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    except NeedsFullRecord as exc:
        raise failed(str(exc)) from None
    except ValueError as exc:
        raise usage(str(exc)) from None
    except KeyboardInterrupt as exc:
        stop = interruption(exc)
        typer.echo(f"\ncabo-log: {stop.verb if stop else 'interrupted'}", err=True)
        raise typer.Exit(stop.exit_code if stop else 130) from None
    typer.echo(json.dumps(result.as_json(), ensure_ascii=False) if as_json else result.text())


def whatif_command(
    file: Annotated[Path, typer.Argument(help="A game log (.jsonl).")],
    at: Annotated[int, typer.Option("--at", metavar="SEQ",
                                    help="The seq of the event to start after.")],
    move: Annotated[Optional[str], typer.Option(  # noqa: UP045
        "--move", metavar="EVENT_JSON",
        help="An event (JSON, as a log line) played at --at instead of the "
                       "logged one, e.g. '{\"type\":\"draw\",\"player\":\"ana\","
                       "\"source\":\"deck\"}'.")] = None,
    rollouts: Annotated[int, typer.Option(
        "--rollouts", "-r", help="Playouts of the real table to the end of the match (per "
                                 "move, with --move).")] = DEFAULT_PLAYOUTS,
    worlds: Annotated[int, typer.Option(
        "--worlds", "-w", help="With --move: sampled worlds per move when judging it from "
                               "the mover's knowledge (analyse's --rollouts; more when the "
                               "verdict needs confirming).")] = DEFAULT_ROLLOUTS,
    seed: SeedOption = 0,
    bot: BotOption = DEFAULT_POLICY,
    as_json: JsonOption = False,
) -> None:
    """From the real table after event --at (or with another move there), let bots play on:
    each player's chance to win the round and the match, and expected round points. With
    --move, also the logged move played on, and both judged from the mover's knowledge as
    analyse judges them (the same worlds for the same --seed and --bot)."""
    data = _read(file)
    _check(rollouts, bot)
    if worlds < MIN_ROLLOUTS:
        raise usage(f"--worlds must be at least {MIN_ROLLOUTS}, not {worlds}")
    event: dict[str, Any] | None = None
    if move is not None:
        event = json_object(move, "--move", "a JSON object (one event)")
    try:
        with stop_signals():
            result = whatif_bytes(data, str(file), seq=at, move=event, playouts=rollouts,
                                  seed=seed, policy=bot, worlds=worlds)
    except CaboLogError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    except NeedsFullRecord as exc:
        raise failed(str(exc)) from None
    except ValueError as exc:
        raise usage(str(exc)) from None
    except KeyboardInterrupt as exc:
        stop = interruption(exc)
        typer.echo(f"\ncabo-log: {stop.verb if stop else 'interrupted'}", err=True)
        raise typer.Exit(stop.exit_code if stop else 130) from None
    typer.echo(json.dumps(result.as_json(), ensure_ascii=False) if as_json else result.text())


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("analyse")(analyse_command)
    app.command("whatif")(whatif_command)
