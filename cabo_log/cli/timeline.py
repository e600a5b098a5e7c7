"""``timeline``: a game (or a folder of games) as HTML pages a person can step through."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from cabo_log.analysis.analyse import GameAnalysis
from cabo_log.cli.errors import failed, usage
from cabo_log.pages.assets import CDN, INLINE
from cabo_log.pages.timeline import NotAPlayer
from cabo_log.pages.timeline_files import default_output, write_folder, write_timeline
from engine import CaboLogError


def timeline_command(
    path: Annotated[Path, typer.Argument(help="A game log (.jsonl), or a folder of logs.")],
    output: Annotated[Optional[Path], typer.Option(  # noqa: UP045 - typer needs Optional
        "--output", "-o",
        help="The page to write (default: the log's name with .html, in the current "
             "directory); for a folder, the folder to write the pages into.")] = None,
    as_player: Annotated[Optional[str], typer.Option(  # noqa: UP045
        "--as", metavar="PLAYER",
        help="Show only what this player knew: unseen cards face down.")] = None,
    cdn: Annotated[bool, typer.Option(
        "--cdn", help="Link plotly.js from its CDN instead of embedding it (smaller pages "
                      "that need to be online).")] = False,
    analyse: Annotated[bool, typer.Option(
        "--analyse", help="Analyse the decisions first (see 'cabo-log analyse'): marks on "
                          "the event lanes and in the step view, and a graph of each "
                          "player's expected round points.")] = False,
    rollouts: Annotated[Optional[int], typer.Option(  # noqa: UP045
        "--rollouts", min=2, help="With --analyse: sampled worlds every option is played "
                                  "in first, more while a mark is undecided (default: 4; "
                                  "as 'cabo-log analyse --rollouts').",
        show_default=False)] = None,
    jobs: Annotated[Optional[int], typer.Option(  # noqa: UP045
        "--jobs", "-j", min=1, help="For a folder: worker processes (default: one per core; "
        "capped at the cores and at the logs).", show_default=False)] = None,
) -> None:
    """Write an HTML timeline of a game: charts of scores and hand totals, every event, and
    the table step by step. A folder gives one page per game plus an index.html (with a
    progress bar on a terminal; Ctrl-C or SIGTERM stops it, exit 130 or 143)."""
    if path.is_dir():
        if analyse:
            raise usage("--analyse takes one log, not a folder")
        _folder(path, output, as_player, cdn, jobs)
        return
    if not path.exists():
        raise usage(f"no such file or folder: {path}")
    analysis = _analysis(path, rollouts) if analyse else None
    out = output if output is not None else default_output(path)
    if out.is_dir():
        out = out / default_output(path)
    try:
        tl = write_timeline(path, out, as_player, CDN if cdn else INLINE, analysis)
    except NotAPlayer as exc:
        raise usage(str(exc)) from None
    except OSError as exc:
        raise failed(f"cannot write {out}: {exc.strerror or exc}") from None
    if tl.players:
        note = " (the valid part, up to the error)" if tl.error is not None else ""
        typer.echo(f"wrote {out}{note}")
    if tl.error is not None:
        typer.echo(str(tl.error), err=True)
        raise typer.Exit(1)


def _analysis(path: Path, rollouts: int | None) -> GameAnalysis | None:
    """The analysis of a log for its page; None for a log that does not replay (the page
    then shows its valid part and the error, as without --analyse)."""
    from cabo_log.analysis.analyse import analyse_bytes
    from cabo_log.analysis.evaluate import DEFAULT_ROLLOUTS, Settings

    try:
        return analyse_bytes(path.read_bytes(), str(path),
                             settings=Settings(rollouts=rollouts or DEFAULT_ROLLOUTS),
                             jobs=None, progress=sys.stderr if sys.stderr.isatty() else None)
    except (CaboLogError, OSError, ValueError):   # ValueError: a score sheet, no moves
        return None


def _folder(folder: Path, output: Path | None, as_player: str | None, cdn: bool,
            jobs: int | None) -> None:
    from cabo_log.log.logfile import find_logs
    from cabo_log.progress import Progress
    from cabo_log.stop import interruption, stop_signals

    outdir = output if output is not None else Path(f"{folder.resolve().name}-timeline")
    if outdir.exists() and not outdir.is_dir():
        raise usage(f"{outdir} is a file; for a folder of logs -o names a folder")
    bar = Progress.on_terminal(unit="pages")
    try:
        with stop_signals():
            bar.start(len(find_logs([folder])))
            result = write_folder(folder, outdir, as_player, cdn, jobs=jobs,
                                  progress=bar.advance)
    except KeyboardInterrupt as exc:
        stop = interruption(exc)
        assert stop is not None
        raise failed(f"{stop.verb}; {outdir / 'index.html'} was not written",
                       stop.exit_code) from None
    except OSError as exc:
        raise failed(f"cannot write into {outdir}: {exc.strerror or exc}") from None
    finally:
        bar.close()      # the terminal's line is left clean whatever happened
    if as_player is not None and not result.games and result.skipped:
        raise usage(f"{as_player!r} plays in none of the logs in {folder}")
    for skipped in result.skipped:
        typer.echo(f"{skipped}: skipped, {as_player} does not play in it", err=True)
    if not result.games and not result.skipped:
        typer.echo(f"cabo-log: no .jsonl logs under {folder}", err=True)
    pages = sum(1 for g in result.games if g.page)
    typer.echo(f"wrote {pages} page{'s' if pages != 1 else ''} and {result.index}")
    for error in result.errors:
        typer.echo(error, err=True)
    if result.errors:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("timeline")(timeline_command)
