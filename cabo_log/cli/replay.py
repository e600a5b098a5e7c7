"""``replay``, ``validate``, ``rules`` and ``schema``: reading and checking logs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cabo_log.cli.errors import failed, json_object, usage
from cabo_log.log.logfile import find_logs
from cabo_log.log.render import describe
from cabo_log.log.replay import ReplayResult, replay_file
from cabo_log.log.schemas import schema_text
from engine import BUILTINS, CaboLogError, resolve
from engine.knowledge import observe
from engine.rulesets import BuiltinRuleset


def _view(result: ReplayResult, as_player: str) -> dict[str, Any]:
    assert result.state is not None
    obs = observe(result.state, as_player)
    return {
        "player": as_player, "round": obs.round, "phase": obs.phase, "to_play": obs.to_play,
        "rows": {p: list(r) for p, r in obs.rows.items()}, "discard": list(obs.discard),
        "deck_size": obs.deck_size, "drawn": obs.drawn, "pending_power": obs.pending_power,
        "caller": obs.caller, "turn": obs.turn,
    }


def replay_command(
    file: Annotated[Path, typer.Argument(help="A game log (.jsonl).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the replay as JSON.")] = False,
    as_player: Annotated[Optional[str], typer.Option(  # noqa: UP045 - typer needs Optional
        "--as", metavar="PLAYER", help="Show the table as this player knew it.")] = None,
    until: Annotated[Optional[int], typer.Option(  # noqa: UP045
        "--until", min=0, metavar="SEQ",
        help="Stop after the event with this seq (0 = header).")] = None,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Print events as they are "
                                         "appended, until the match ends or Ctrl-C.")] = False,
) -> None:
    """Replay a log by the rules and give an account: rounds, calls, hands, points, winners."""
    if file.is_dir():
        raise usage(f"{file} is a folder; replay reads one log, e.g. cabo-log replay "
                     f"{file / 'GAME.jsonl'} (for a whole folder: cabo-log validate {file})")
    if not os.path.lexists(file):   # anything else there is read, or said unreadable
        raise usage(f"no such file: {file}")
    if follow:
        from cabo_log.cli.write import follow_log

        return follow_log(file, as_player)
    result = replay_file(file, until=until)
    if as_player is not None and result.state is not None \
            and as_player not in result.state.players:
        raise usage(f"{as_player!r} is not a player of {file} "
                     f"(its players: {', '.join(result.state.players)})")
    if as_json:
        report = result.report()
        if as_player is not None and result.state is not None:
            report.setdefault("view", _view(result, as_player))
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        text = describe(result, as_player)
        if result.error is not None:
            body, _, last = text.rpartition("\n")
            if body:
                typer.echo(body)
            typer.echo(last, err=True)
        else:
            typer.echo(text)
    if result.error is not None:
        raise typer.Exit(1)


def validate_command(
    paths: Annotated[list[Path], typer.Argument(help="Log files or folders (searched for "
                                                     "*.jsonl).")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary.")] = False,
) -> None:
    """Check logs against the rules: one line per bad file, a summary, exit 1 if any is bad."""
    missing = [str(p) for p in paths if not os.path.lexists(p)]
    if missing:
        raise usage(f"no such file or folder: {', '.join(missing)}")
    files = find_logs(paths)
    if not files:
        raise failed(f"no logs found (no *.jsonl under {', '.join(map(str, paths))})")
    bad = 0
    for path in files:
        result = replay_file(path)
        if result.error is not None:
            bad += 1
            if not quiet:
                typer.echo(str(result.error))
        elif result.head is not None and not quiet:
            typer.echo(f"{path}: chained, head {result.head}")
    typer.echo(f"{len(files)} log{'s' if len(files) != 1 else ''} checked: "
               f"{len(files) - bad} valid, {bad} invalid")
    if bad:
        raise typer.Exit(1)


def rules_command(
    name: Annotated[Optional[BuiltinRuleset], typer.Argument(  # noqa: UP045
        help="A built-in ruleset; omit to list them.", show_default=False)] = None,
    options: Annotated[Optional[str], typer.Option(  # noqa: UP045
        "--options", metavar="JSON",
        help="Options as a JSON object, e.g. '{\"kamikaze\": true}'.")] = None,
) -> None:
    """List the built-in rulesets, or print one's parameters (the vocabulary of house rules)."""
    if name is None:
        for rules in BUILTINS.values():
            typer.echo(f"{rules.name:<9} {rules.description}")
        return
    opts = json_object(options, "--options") if options else {}
    try:
        rules = resolve(name.value, opts)
    except CaboLogError as exc:
        raise usage(exc.message) from None
    typer.echo(json.dumps(rules.parameters(), indent=2))


def schema_command() -> None:
    """Print the JSON Schema of one line of format cabo-log/1."""
    sys.stdout.write(schema_text())


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
    app.command("validate")(validate_command)
    app.command("rules")(rules_command)
    app.command("schema")(schema_command)
