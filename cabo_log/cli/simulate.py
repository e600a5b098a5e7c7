"""``simulate``: bots play complete matches, written as ordinary cabo-log/1 files (one per game)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cabo_log.cli.errors import failed, json_object, usage
from cabo_log.play.bots import BOTS
from cabo_log.play.simulate import SimulationError, existing_logs, table, write_games
from engine import BUILTINS
from engine.rulesets import BuiltinRuleset


def _complete_bots(incomplete: str) -> list[str]:
    """Bot names after the last comma of ``--bot greedy,ra<TAB>``."""
    head, _, last = incomplete.rpartition(",")
    prefix = f"{head}," if head else ""
    return [prefix + name for name in BOTS if name.startswith(last)]


def simulate_command(
    ruleset: Annotated[Optional[BuiltinRuleset], typer.Option(  # noqa: UP045
        "--ruleset", "-r", metavar="RULESET", show_default=False,
        help=f"The rules the bots play by: {', '.join(BUILTINS)} (required).")] = None,
    options: Annotated[Optional[str], typer.Option(  # noqa: UP045 - typer needs Optional
        "--options", metavar="JSON",
        help="Ruleset options as a JSON object, e.g. '{\"target\": 50}'.")] = None,
    players: Annotated[int, typer.Option("--players", "-n", help="Seats at the table.")] = 3,
    games: Annotated[int, typer.Option("--games", "-g", help="How many matches.")] = 1,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")] = 0,
    bot: Annotated[str, typer.Option(
        "--bot", "--bots", metavar="BOT[,BOT...]", autocompletion=_complete_bots,
        help=f"{', '.join(BOTS)}; a comma list seats a mixed table "
             "(expert,greedy), repeated round the table.")] = "greedy",
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Folder for the .jsonl files (created).")] = Path("simulated"),
    forfeit_rate: Annotated[float, typer.Option(
        "--forfeit-rate", help="online: chance per decision that a player leaves.")] = 0.0,
    auto_rate: Annotated[float, typer.Option(
        "--auto-rate", help="Chance per move that the server plays it on a timeout "
                            "(\"auto\": true).")] = 0.0,
    timestamps: Annotated[bool, typer.Option(
        "--timestamps", help="Add simulated 't' times and the real 'started_at' (the files "
                             "then differ from run to run).")] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite logs of an earlier run in --out (same names: ruleset, "
                        "seed and game number).")] = False,
    progress: Annotated[Optional[bool], typer.Option(  # noqa: UP045
        "--progress/--no-progress", help="Progress bar on stderr (default: on a terminal)."
    )] = None,
    jobs: Annotated[Optional[int], typer.Option(  # noqa: UP045
        "--jobs", "-j", min=1, help="Worker processes (default: one per core; capped at the "
        "cores and at the games). The files are the same for any number.",
        show_default=False)] = None,
) -> None:
    """Let bots play complete matches and write one log per game into a folder.

    The same arguments give byte-identical files on any machine. Ctrl-C or SIGTERM stops it
    within a second or two (exit 130 or 143); every file written is whole.
    """
    from cabo_log.stop import interruption, stop_signals

    name, opts = _check_table(ruleset, options, players, games, bot, forfeit_rate, auto_rate)
    _check_out(out, name, seed, games, force)
    show = sys.stderr.isatty() if progress is None else progress
    try:
        with stop_signals():
            summary = write_games(out, name, games=games, players=players, seed=seed,
                                  options=opts, bots=bot, forfeit_rate=forfeit_rate,
                                  auto_rate=auto_rate, timestamps=timestamps, progress=show,
                                  jobs=jobs)
    except KeyboardInterrupt as exc:
        stop = interruption(exc)
        assert stop is not None
        raise failed(f"{stop.verb}; the files written are whole", stop.exit_code) from None
    except SimulationError as exc:  # a bug, not a usage error: say so plainly
        raise failed(f"simulation failed: {exc}") from None
    except OSError as exc:
        raise usage(f"cannot write to {out}: {exc.strerror or exc}") from None
    typer.echo(f"simulated {summary}")


def _check_table(ruleset: BuiltinRuleset | None, options: str | None, players: int,
                 games: int, bot: str, forfeit_rate: float, auto_rate: float
                 ) -> tuple[str, dict[str, Any]]:
    """The ruleset's name and options, once the table they describe can be seated."""
    if ruleset is None:
        raise usage(f"--ruleset is required (one of {', '.join(BUILTINS)})")
    name = ruleset.value  # the engine reads a plain str, as it does from a log header
    opts = json_object(options, "--options") if options else {}
    if games < 1:
        raise usage(f"--games must be at least 1, not {games}")
    try:
        table(name, players=players, options=opts, bots=bot, forfeit_rate=forfeit_rate,
              auto_rate=auto_rate)
    except ValueError as exc:
        raise usage(getattr(exc, "message", None) or str(exc)) from None
    return name, opts


def _check_out(out: Path, name: str, seed: int, games: int, force: bool) -> None:
    """``--out`` is a folder (or nothing yet) without this run's logs, unless ``--force``."""
    if out.exists() and not out.is_dir():
        raise usage(f"--out {out} is a file, not a folder")
    taken = existing_logs(out, name, seed=seed, games=games)
    if taken and not force:
        raise usage(f"{out} already holds {len(taken)} of these logs ({taken[0].name}"
                    f"{', ...' if len(taken) > 1 else ''}); --force overwrites them, or "
                    "choose another --out or --seed")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("simulate")(simulate_command)
