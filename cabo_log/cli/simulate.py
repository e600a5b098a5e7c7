"""``simulate``: bots play complete matches, written as ordinary cabo-log/1 files (one per game)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cabo_log.cli.errors import failed, json_object, usage
from cabo_log.play.bots import BOTS
from cabo_log.play.simulate import SimulationError, check_run, write_games
from engine import BUILTINS
from engine.rulesets import BuiltinRuleset


class SeatNaming(StrEnum):
    """``--seat-names``: ``cabo_log.play.simulate.SeatNames``."""

    BOTS = "bots"
    PEOPLE = "people"


def _complete_bots(incomplete: str) -> list[str]:
    """Bot names after the last comma of ``--bot greedy,ra<TAB>``."""
    head, _, last = incomplete.rpartition(",")
    prefix = f"{head}," if head else ""
    return [prefix + name for name in BOTS if name.startswith(last)]


# the options, declared once here so that the command's signature reads as a list
Rules = Annotated[Optional[BuiltinRuleset], typer.Option(  # noqa: UP045 - typer needs Optional
    "--ruleset", "-r", metavar="RULESET", show_default=False,
    help=f"The rules the bots play by: {', '.join(BUILTINS)} (required).")]
Options = Annotated[Optional[str], typer.Option(  # noqa: UP045
    "--options", metavar="JSON", help="Ruleset options as a JSON object, e.g. '{\"target\": 50}'.")]
Players = Annotated[int, typer.Option("--players", "-n", help="Seats at the table.")]
Games = Annotated[int, typer.Option("--games", "-g", help="How many matches.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")]
Bots = Annotated[str, typer.Option(
    "--bot", "--bots", metavar="BOT[,BOT...]", autocompletion=_complete_bots,
    help=f"{', '.join(BOTS)}; a comma list seats a mixed table (expert,greedy), repeated "
         "round the table.")]
Out = Annotated[Path, typer.Option("--out", "-o", help="Folder for the .jsonl files (created).")]
ForfeitRate = Annotated[float, typer.Option(
    "--forfeit-rate", help="online: chance per decision that a player leaves.")]
AutoRate = Annotated[float, typer.Option(
    "--auto-rate", help="Chance per move that the server plays it on a timeout "
                        "(\"auto\": true).")]
Timestamps = Annotated[bool, typer.Option(
    "--timestamps", help="Add simulated 't' times and the real 'started_at' (the files then "
                         "differ from run to run).")]
Force = Annotated[bool, typer.Option(
    "--force", help="Overwrite logs of an earlier run in --out (same names: ruleset, seed and "
                    "game number).")]
ShowProgress = Annotated[Optional[bool], typer.Option(  # noqa: UP045
    "--progress/--no-progress", help="Progress bar on stderr (default: on a terminal).")]
SeatNamesOpt = Annotated[SeatNaming, typer.Option(
    "--seat-names", help="Name the seats after their bot and seat number (bots: expert-1, "
                         "greedy-2), so that a corpus compares bots; or as people (people: "
                         "ana, bruno and so on).")]
Jobs = Annotated[Optional[int], typer.Option(  # noqa: UP045
    "--jobs", "-j", min=1, show_default=False, help="Worker processes (default: one per core; "
    "capped at the cores and at the games). The files are the same for any number.")]


def simulate_command(ruleset: Rules = None, options: Options = None, players: Players = 3,
                     games: Games = 1, seed: Seed = 0, bot: Bots = "greedy",
                     out: Out = Path("simulated"), forfeit_rate: ForfeitRate = 0.0,
                     auto_rate: AutoRate = 0.0, timestamps: Timestamps = False,
                     force: Force = False, progress: ShowProgress = None,
                     jobs: Jobs = None, seat_names: SeatNamesOpt = SeatNaming.BOTS) -> None:
    """Let bots play complete matches and write one log per game into a folder.

    The same arguments give byte-identical files on any machine. Ctrl-C or SIGTERM stops it
    within a second or two (exit 130 or 143); every file written is whole.
    """
    from cabo_log.stop import interruption, stop_signals

    if ruleset is None:
        raise usage(f"--ruleset is required (one of {', '.join(BUILTINS)})")
    name = ruleset.value  # the engine reads a plain str, as it does from a log header
    opts = json_object(options, "--options") if options else {}
    table: dict[str, Any] = {"players": players, "seed": seed, "options": opts, "bots": bot,
                             "forfeit_rate": forfeit_rate, "auto_rate": auto_rate,
                             "seat_names": seat_names.value}
    try:
        check_run(out, name, games=games, force=force, **table)
    except ValueError as exc:
        raise usage(str(exc)) from None
    show = sys.stderr.isatty() if progress is None else progress
    try:
        with stop_signals():
            summary = write_games(out, name, games=games, timestamps=timestamps, progress=show,
                                  jobs=jobs, **table)
    except KeyboardInterrupt as exc:
        stop = interruption(exc)
        assert stop is not None
        raise failed(f"{stop.verb}; the files written are whole", stop.exit_code) from None
    except SimulationError as exc:  # a bug, not a usage error: say so plainly
        raise failed(f"simulation failed: {exc}") from None
    except OSError as exc:
        raise usage(f"cannot write to {out}: {exc.strerror or exc}") from None
    typer.echo(f"simulated {summary}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("simulate")(simulate_command)
