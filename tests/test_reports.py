"""Every report's numbers on a simulated corpus equal an independent computation in Python.

The expected numbers come from the replays themselves, never from the database: the final
``GameState`` of ``replay_file`` (rounds, totals, points, scores), and a second, deliberately
different walk through each log with the engine that looks at the table *before* each event
(what the caller knew before calling, what a swapper knew before swapping), where the loader's
``RowCollector`` looks after it.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from statistics import mean
from typing import Any

import duckdb
import pytest

from cabo_log.db import reports
from cabo_log.db.load import load_paths
from cabo_log.log.logfile import dumps_event, iter_events, iter_lines, read_bytes
from cabo_log.log.replay import replay_file
from cabo_log.play.simulate import simulate_game
from engine import GameState, apply, finish, new_game
from engine.events import Cabo, Power, Replace, Skip
from engine.knowledge import known_total
from engine.results import END_FORFEIT
from engine.vocabulary import POWER

# (ruleset, players, options, bots, forfeit_rate, games)
CORPUS = [
    ("edition1", 3, None, "greedy", 0.0, 3),
    ("edition1", 5, None, "random,greedy", 0.0, 2),
    ("edition2", 4, None, "greedy", 0.0, 3),
    ("edition2", 2, None, "random", 0.0, 1),
    ("golf", 3, None, "greedy", 0.0, 2),
    ("golf", 4, {"kamikaze": True, "jokers": True}, "greedy,random", 0.0, 2),
    ("online", 4, None, "greedy", 0.02, 3),
    ("online", 3, {"target": 50}, "random,greedy", 0.0, 2),
]


def write_corpus(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for ruleset, players, options, bots, forfeits, games in CORPUS:
        for i in range(games):
            game_id = f"{ruleset}-{players}p-{i}"
            events = simulate_game(ruleset, players=players, seed=100 + i, options=options,
                                   bots=bots, game_id=game_id, forfeit_rate=forfeits,
                                   timestamps=ruleset == "online")
            path = folder / f"{game_id}.jsonl"
            path.write_bytes(b"".join(dumps_event(e) for e in events))
            paths.append(path)
    # a game in progress: the first 60% of an edition2 log
    events = simulate_game("edition2", players=3, seed=7, game_id="live-edition2")
    cut = events[: len(events) * 6 // 10]
    live = folder / "live-edition2.jsonl"
    live.write_bytes(b"".join(dumps_event(e) for e in cut))
    paths.append(live)
    return paths


# --- the independent walk -------------------------------------------------------------------

class Walk:
    """One game, seen event by event with the table as it was before each event."""

    def __init__(self, path: Path) -> None:
        result = replay_file(path)
        assert result.ok and result.state is not None, result.error
        self.state: GameState = result.state
        self.ruleset = self.state.rules.name
        self.calls: list[dict[str, Any]] = []
        self.powers: list[dict[str, Any]] = []
        self.replaces: list[dict[str, Any]] = []
        g: GameState | None = None
        pending: dict[str, Any] | None = None
        for _line, event in iter_events(iter_lines(read_bytes(path))):
            if g is None:
                g = new_game(event)  # type: ignore[arg-type]
                continue
            before_phase = g.phase
            if isinstance(event, Cabo):
                seat = g.seat[event.player]
                known, known_sum = known_total(g, seat)
                self.calls.append({"round": g.round_no(), "turn": g.turn() + 1,
                                   "hand": g.row_size(seat), "known": known,
                                   "known_total": known_sum, "caller": event.player})
            if isinstance(event, Replace):
                seat = g.seat[event.player]
                row = g.row_ids(seat)
                before_total = g.row_total(seat)
                knew = all(g.sees(seat, row[p]) for p in event.positions)
            if isinstance(event, Power) and event.cards is not None and pending is not None:
                user = g.seat[event.player]
                sides = [(g.seat[name], pos) for name, pos in event.cards]
                own = [s for s in sides if s[0] == user]
                if own:
                    mine = own[0]
                    other = sides[1] if sides[0] == mine else sides[0]
                    given = g.card_id(mine)
                    got = g.card_id(other)
                    pending.update(involved=True, given=g.value(given), received=g.value(got),
                                   knew_given=g.sees(user, given),
                                   knew_received=g.sees(user, got))
            done = apply(g, event)
            if isinstance(event, Replace):
                self.replaces.append({"cards": len(event.positions), "knew": knew,
                                      "success": done.success,
                                      "delta": g.row_total(seat) - before_total,
                                      "penalty": done.penalty is not None})
            # the fate of a power earned before this event
            if pending is not None and before_phase == POWER:
                if isinstance(event, Power) and g.seat[event.player] == pending["seat"]:
                    pending["outcome"] = "used"
                    if event.target is not None:
                        pending["seen"] = g.value_of(done.card) if done.card else None
                elif isinstance(event, Skip):
                    pending["outcome"] = "skipped"
                elif done.lapsed is not None:
                    pending["outcome"] = "passed"
                if "outcome" in pending:
                    self.powers.append(pending)
                    pending = None
            if g.phase == POWER and pending is None:
                pending = {"power": g.pending_power(), "seat": g.to_act()}
        assert g is not None
        finish(g)
        if pending is not None:
            pending["outcome"] = "lapsed"
            self.powers.append(pending)
        for call in self.calls:   # the outcome of each call, from the final state
            rounds = [r for r in self.state.rounds if r.round == call["round"]]
            call["result"] = rounds[0] if rounds else None


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Walk]]:
    folder = tmp_path_factory.mktemp("corpus")
    paths = write_corpus(folder / "logs")
    db = folder / "cabo.duckdb"
    summary = load_paths([folder / "logs"], db, jobs=1)
    assert not summary.rejected
    return db, [Walk(p) for p in paths]


def run_report(db: Path, name: str, **params: str) -> list[dict[str, Any]]:
    report = reports.get(name)
    con = duckdb.connect(str(db), read_only=True)
    try:
        columns, rows = reports.run(con, report, reports.bind(report, params))
    finally:
        con.close()
    return [dict(zip(columns, row, strict=True)) for row in rows]


def same(actual: Any, expected: Any) -> bool:
    if expected is None or actual is None:
        return actual is None and expected is None
    if isinstance(expected, float) or isinstance(actual, float):
        return math.isclose(float(actual), float(expected), rel_tol=1e-9, abs_tol=1e-9)
    return bool(actual == expected)


def check(rows: list[dict[str, Any]], expected: dict[tuple[Any, ...], dict[str, Any]],
          key: Callable[[dict[str, Any]], tuple[Any, ...]]) -> None:
    got = {key(r): r for r in rows}
    assert set(got) == set(expected)
    for k, want in expected.items():
        for column, value in want.items():
            assert same(got[k][column], value), (k, column, got[k][column], value)


def avg(values: list[Any]) -> float | None:
    present = [v for v in values if v is not None]
    return mean(present) if present else None


def rate(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def nearest_rank(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[max(math.ceil(len(ordered) * q) - 1, 0)]


# --- one test per report ---------------------------------------------------------------------

def test_cabo_call_success(corpus: tuple[Path, list[Walk]]) -> None:
    db, walks = corpus
    width = 5
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for w in walks:
        for call in w.calls:
            result = call["result"]
            if result is None or result.cabo_success is None:
                continue
            item = {"success": result.cabo_success, "points": result.points[call["caller"]],
                    "total": result.totals[call["caller"]], "known_total": call["known_total"],
                    "special": bool(result.special)}
            groups[(w.ruleset, "all", "all")].append(item)
            low = (call["turn"] - 1) // width * width + 1
            groups[(w.ruleset, "turn", f"{low}-{low + width - 1}")].append(item)
            groups[(w.ruleset, "known", f"{call['known']}/{call['hand']}")].append(item)
    expected = {k: {"calls": len(v), "successes": sum(i["success"] for i in v),
                    "success_rate": sum(i["success"] for i in v) / len(v),
                    "avg_points": avg([i["points"] for i in v]),
                    "avg_total_at_end": avg([i["total"] for i in v]),
                    "avg_known_total": avg([i["known_total"] for i in v]),
                    "special_hand_calls": sum(i["special"] for i in v)}
                for k, v in groups.items()}
    rows = run_report(db, "cabo_call_success")
    check(rows, expected, lambda r: (r["ruleset"], r["dimension"], r["bucket"]))
    only = run_report(db, "cabo_call_success", ruleset="golf", turn_width="3")
    assert only and {r["ruleset"] for r in only} == {"golf"}


def test_power_usage(corpus: tuple[Path, list[Walk]]) -> None:
    db, walks = corpus
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for w in walks:
        for p in w.powers:
            groups[(w.ruleset, p["power"])].append(p)
    expected = {}
    for k, items in groups.items():
        swaps = [p for p in items if p.get("involved")]
        expected[k] = {
            "earned": len(items),
            **{o: sum(p["outcome"] == o for p in items)
               for o in ("used", "skipped", "passed", "lapsed")},
            "use_rate": sum(p["outcome"] == "used" for p in items) / len(items),
            "avg_value_seen": avg([p.get("seen") for p in items]),
            "own_swaps": len(swaps),
            "avg_given_value": avg([p["given"] for p in swaps]),
            "avg_received_value": avg([p["received"] for p in swaps]),
            "avg_gain": avg([p["given"] - p["received"] for p in swaps]),
            "improved_rate": rate([p["given"] > p["received"] for p in swaps]),
            "knew_given_rate": rate([p["knew_given"] for p in swaps]),
            "knew_received_rate": rate([p["knew_received"] for p in swaps]),
        }
    check(run_report(db, "power_usage"), expected, lambda r: (r["ruleset"], r["power"]))


def test_score_distribution(corpus: tuple[Path, list[Walk]]) -> None:
    db, walks = corpus
    bucket = 4
    data: dict[tuple[str, str], list[int]] = defaultdict(list)
    for w in walks:
        for r in w.state.rounds:
            if r.end == END_FORFEIT:
                continue
            for player, points in r.points.items():
                data[(w.ruleset, "hand_total")].append(r.totals[player])
                data[(w.ruleset, "round_points")].append(points)
        if w.state.complete:
            for seat, score in enumerate(w.state.cumulative):
                if w.state.active[seat]:
                    data[(w.ruleset, "final_score")].append(score)
    expected = {}
    for k, xs in data.items():
        hist: dict[int, int] = defaultdict(int)
        for x in xs:
            hist[x // bucket * bucket] += 1
        expected[k] = {"n": len(xs), "mean": mean(xs), "min": min(xs), "max": max(xs),
                       "p10": nearest_rank(xs, 0.1), "p25": nearest_rank(xs, 0.25),
                       "p50": nearest_rank(xs, 0.5), "p75": nearest_rank(xs, 0.75),
                       "p90": nearest_rank(xs, 0.9), "histogram": dict(hist)}
    rows = run_report(db, "score_distribution", bucket=str(bucket))
    check(rows, expected, lambda r: (r["ruleset"], r["measure"]))


def test_first_player_advantage(corpus: tuple[Path, list[Walk]]) -> None:
    db, walks = corpus
    places: dict[tuple[str, int, int], list[dict[str, Any]]] = defaultdict(list)
    tables: dict[tuple[str, int], list[int]] = defaultdict(list)
    for w in walks:
        for r in w.state.rounds:
            if r.end == END_FORFEIT:
                continue
            order = list(r.players)
            start = order.index(r.first)
            low = min(r.totals.values())
            for player, points in r.points.items():
                place = (order.index(player) - start) % len(order)
                places[(w.ruleset, len(order), place)].append(
                    {"points": points, "lowest": r.totals[player] == low,
                     "called": player == r.caller})
                tables[(w.ruleset, len(order))].append(points)
    expected = {k: {"rounds": len(v), "avg_points": mean(i["points"] for i in v),
                    "vs_table": mean(i["points"] for i in v) - mean(tables[k[:2]]),
                    "lowest_rate": rate([i["lowest"] for i in v]),
                    "fair_share": 1 / k[1], "called_rate": rate([i["called"] for i in v])}
                for k, v in places.items()}
    check(run_report(db, "first_player_advantage"), expected,
          lambda r: (r["ruleset"], r["players"], r["place"]))


def test_multi_replacement_outcomes(corpus: tuple[Path, list[Walk]]) -> None:
    db, walks = corpus
    for min_cards in (2, 1):
        groups: dict[tuple[str, int, bool], list[dict[str, Any]]] = defaultdict(list)
        for w in walks:
            for rep in w.replaces:
                if rep["cards"] >= min_cards:
                    groups[(w.ruleset, rep["cards"], rep["knew"])].append(rep)
        expected = {k: {"attempts": len(v), "successes": sum(i["success"] for i in v),
                        "success_rate": sum(i["success"] for i in v) / len(v),
                        "avg_row_delta": mean(i["delta"] for i in v),
                        "penalties": sum(i["penalty"] for i in v)}
                    for k, v in groups.items()}
        assert expected, "the corpus should hold replacements"
        rows = run_report(db, "multi_replacement_outcomes", min_cards=str(min_cards))
        check(rows, expected, lambda r: (r["ruleset"], r["cards"], r["knew_all"]))


def test_special_hands(corpus: tuple[Path, list[Walk]]) -> None:
    db, walks = corpus
    groups: dict[str, list[Any]] = defaultdict(list)
    for w in walks:
        groups[w.ruleset].extend(r for r in w.state.rounds if r.end != END_FORFEIT)
    expected = {(k,): {
        "rounds": len(v), "special_rounds": sum(bool(r.special) for r in v),
        "special_rate": sum(bool(r.special) for r in v) / len(v),
        "holders": sum(len(r.special) for r in v),
        "holders_who_called": sum(r.caller in r.special for r in v),
        "calls_overridden": sum(bool(r.special) and bool(r.cabo_success)
                                and r.caller not in r.special for r in v)}
        for k, v in groups.items()}
    check(run_report(db, "special_hands"), expected, lambda r: (r["ruleset"],))


def test_round_length(corpus: tuple[Path, list[Walk]]) -> None:
    db, walks = corpus
    groups: dict[tuple[str, int], list[Any]] = defaultdict(list)
    for w in walks:
        for r in w.state.rounds:
            groups[(w.ruleset, len(r.players))].append(r)
    expected = {k: {"rounds": len(v), "avg_turns": mean(r.turns for r in v),
                    "median_turns": nearest_rank([r.turns for r in v], 0.5),
                    "p90_turns": nearest_rank([r.turns for r in v], 0.9),
                    "max_turns": max(r.turns for r in v),
                    "cabo_ends": sum(r.end == "cabo" for r in v),
                    "deck_empty_ends": sum(r.end == "deck_empty" for r in v),
                    "forfeit_ends": sum(r.end == "forfeit" for r in v),
                    "avg_reshuffles": mean(r.reshuffles for r in v)}
                for k, v in groups.items()}
    check(run_report(db, "round_length"), expected, lambda r: (r["ruleset"], r["players"]))


# --- the report machinery --------------------------------------------------------------------

def test_every_report_documents_itself() -> None:
    shipped = reports.available()
    assert {"cabo_call_success", "power_usage", "score_distribution", "first_player_advantage",
            "multi_replacement_outcomes", "special_hands", "round_length"} <= set(shipped)
    repo_queries = Path(__file__).parent.parent / "queries"
    assert {p.stem for p in repo_queries.glob("*.sql")} == set(shipped)
    for report in shipped.values():
        assert report.title and "How to read" in report.doc, report.name
        used = set(re.findall(r"\$(\w+)", report.sql))
        assert used == set(report.params), report.name


def test_parameters_are_bound_not_pasted(corpus: tuple[Path, list[Walk]]) -> None:
    db, _ = corpus
    hostile = "golf' OR 1=1; DROP TABLE games; --"
    assert run_report(db, "round_length", ruleset=hostile) == []
    assert run_report(db, "round_length")   # the table is still there
    report = reports.get("score_distribution")
    with pytest.raises(reports.ReportError, match="whole number"):
        reports.bind(report, ["bucket=five"])
    with pytest.raises(reports.ReportError, match="no parameter"):
        reports.bind(report, ["nope=1"])
    with pytest.raises(reports.ReportError, match="name=value"):
        reports.bind(report, ["bucket"])
    with pytest.raises(reports.ReportError, match="unknown report"):
        reports.get("no_such_report")


def test_formats(corpus: tuple[Path, list[Walk]]) -> None:
    db, _ = corpus
    report = reports.get("score_distribution")
    con = duckdb.connect(str(db), read_only=True)
    columns, rows = reports.run(con, report, reports.bind(report, []))
    con.close()
    table = reports.render(columns, rows, "table", report=report)
    assert table.splitlines()[0].split()[:3] == ["ruleset", "measure", "n"]
    csv_text = reports.render(columns, rows, "csv")
    assert csv_text.splitlines()[0].startswith("ruleset,measure,n,mean")
    assert len(csv_text.splitlines()) == len(rows) + 1
    data = json.loads(reports.render(columns, rows, "json"))
    assert data[0]["ruleset"] == rows[0][0] and isinstance(data[0]["histogram"], dict)
    page = reports.render(columns, rows, "html", report=report)
    assert page.startswith("<!DOCTYPE html>") and '<table class="data">' in page
    assert "<script src=\"http" not in page   # self-contained: no script from elsewhere


def test_cli_report_and_sql(corpus: tuple[Path, list[Walk]], tmp_path: Path) -> None:
    db, walks = corpus
    run = subprocess.run(
        [sys.executable, "-c", "from cabo_log.cli import main; main()", "report", "--list"],
        capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "cabo_call_success" in run.stdout

    def cabo_log(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", "from cabo_log.cli import main; main()",
                               *args], capture_output=True, text=True, check=False)

    out = cabo_log("report", "round_length", "--db", str(db), "--format", "csv")
    assert out.returncode == 0 and out.stdout.startswith("ruleset,players,rounds")
    out = cabo_log("sql", "SELECT count(*) AS n FROM games", "--db", str(db), "-f", "json")
    assert out.returncode == 0 and f'"n": {len(walks)}' in out.stdout
    out = cabo_log("report", "power_usage", "--db", str(db), "-f", "pdf")   # typer's choices
    assert out.returncode == 2 and "'pdf' is not one of 'table', 'csv', 'json', 'html'" in \
        " ".join(out.stderr.replace("\u2502", " ").split())
    for args, code in ((("report", "nope", "--db", str(db)), 2),
                       (("report", "power_usage", "--db", str(db), "-p", "x=1"), 2),
                       (("report", "score_distribution", "--db", str(db), "-p", "bucket=x"), 2),
                       (("report", "power_usage", "--db", str(tmp_path / "none.duckdb")), 1),
                       (("sql", "DROP TABLE games", "--db", str(db)), 1),
                       (("sql", "SELECT * FROM nowhere", "--db", str(db)), 1)):
        out = cabo_log(*args)
        assert out.returncode == code, (args, out.stderr)
        assert out.stderr.startswith("cabo-log: ") and len(out.stderr.splitlines()) == 1, \
            out.stderr
    html_file = tmp_path / "r.html"
    out = cabo_log("report", "power_usage", "--db", str(db), "-f", "html", "-o", str(html_file))
    assert out.returncode == 0 and html_file.read_text().startswith("<!DOCTYPE html>")


def test_every_column_is_explained_under_the_table(corpus: tuple[Path, list[Walk]]) -> None:
    """A reader of the table learns what each column holds (``passed`` and ``lapsed`` of
    power_usage above all); csv and json stay data only."""
    db, _ = corpus
    con = duckdb.connect(str(db), read_only=True)
    try:
        for report in reports.available().values():
            columns, rows = reports.run(con, report, reports.bind(report, []))
            unexplained = [c for c in columns if c != "ruleset" and c not in report.columns]
            assert not unexplained, (report.name, unexplained)
            assert set(report.columns) <= set(columns), report.name   # none left over
            text = reports.render(columns, rows, "table", report=report)
            legend = text.split("\nColumns:\n", 1)[1]
            for column in report.columns:
                assert re.search(rf"^  {column} +\S", legend, re.M), (report.name, column)
            assert "$" not in legend, report.name    # parameters said as their values
            for fmt in ("csv", "json"):
                assert "Columns:" not in reports.render(columns, rows, fmt, report=report)
    finally:
        con.close()
    power = reports.get("power_usage").columns
    assert power["passed"].startswith("of those, left unused: the next turn")
    assert power["lapsed"].startswith("of those, still open when the log ended")
    assert "explicit skip event" in power["skipped"]
    out = subprocess.run([sys.executable, "-m", "cabo_log", "report", "score_distribution",
                          "--db", str(db), "-p", "bucket=10"], capture_output=True, text=True,
                         check=True).stdout
    assert re.search(r"^  histogram +each bucket's lower bound: the number of values in "
                     r"\[bound, bound \+ 10\)$", out, re.M)
