"""The timeline: its data (snapshots, totals, words), what ``--as`` hides, the figures, the page's
escaping and the command line.

Expected values are worked out here from the log itself (a small hand-built game whose rows a
few lines of test code can follow), not taken from the code under test.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cabo_log.cli import timeline as cli_timeline
from cabo_log.log.logfile import dumps_event
from cabo_log.pages.assets import script_json
from cabo_log.pages.charts import events_figure, score_figure, totals_figure
from cabo_log.pages.plot import figure_json, white_template, wrap_lines
from cabo_log.pages.timeline import (
    CHANGED,
    FACE_UP,
    OWNER_BLIND,
    NotAPlayer,
    Timeline,
    build_timeline,
    timeline_from_bytes,
)
from cabo_log.pages.timeline_html import render_page
from engine import RoundResult, apply, new_game, parse_event
from engine.cards import cabo_deck
from engine.knowledge import observe

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"

# --- a small hand-built game ------------------------------------------------------------------

EVIL = "<script>alert(1)</script>"
EVIL_ID = "g</script><!--1"
EVIL_NAME = "<img src=x onerror=alert(2)>"
PLAYERS = ["ana", "bruno", EVIL]
HANDS = {"ana": ["3", "12", "7", "0"], "bruno": ["5", "5", "9", "13"], EVIL: ["1", "11", "2", "8"]}
DISCARD = "6"
TOP = ["9", "4", "10", "2", "7", "12"]    # the draw pile's first cards, top first


def tiny_game() -> list[dict[str, Any]]:
    """edition2, one round: a spy, a double replacement, a taken discard, Cabo by the player
    whose id is markup, a peek and a blind swap on the final turns; then round 2 is dealt."""
    used = [c for h in HANDS.values() for c in h] + [DISCARD] + TOP
    rest = Counter(cabo_deck())
    rest.subtract(used)
    deck = TOP + sorted(rest.elements(), key=int)
    round2 = {"ana": ["1", "2", "3", "4"], "bruno": ["5", "6", "7", "8"],
              EVIL: ["9", "10", "11", "12"]}
    rest2 = Counter(cabo_deck())
    rest2.subtract([c for h in round2.values() for c in h] + ["0"])
    return [
        {"type": "game", "format": "cabo-log/1", "game_id": EVIL_ID, "ruleset": "edition2",
         "options": {}, "players": PLAYERS, "names": {"ana": EVIL_NAME}},
        {"type": "deal", "round": 1, "first": "ana", "hands": HANDS, "discard": DISCARD,
         "deck": deck},
        {"type": "peek", "player": "ana", "positions": [0, 1]},
        {"type": "peek", "player": "bruno", "positions": [0, 1]},
        {"type": "draw", "player": "ana", "source": "deck", "card": "9"},
        {"type": "discard", "player": "ana"},
        {"type": "power", "player": "ana", "power": "spy", "target": ["bruno", 2]},
        {"type": "draw", "player": "bruno", "source": "deck"},
        {"type": "replace", "player": "bruno", "positions": [0, 1], "into": 0},
        {"type": "draw", "player": EVIL, "source": "discard"},
        {"type": "replace", "player": EVIL, "positions": [3]},
        {"type": "draw", "player": "ana", "source": "deck"},
        {"type": "replace", "player": "ana", "positions": [1]},
        {"type": "draw", "player": "bruno", "source": "deck"},
        {"type": "discard", "player": "bruno"},
        {"type": "cabo", "player": EVIL},
        {"type": "draw", "player": "ana", "source": "deck"},
        {"type": "discard", "player": "ana"},
        {"type": "power", "player": "ana", "power": "peek", "target": ["ana", 2]},
        {"type": "draw", "player": "bruno", "source": "deck"},
        {"type": "discard", "player": "bruno"},
        {"type": "power", "player": "bruno", "power": "swap",
         "cards": [["bruno", 0], ["ana", 3]]},
        {"type": "deal", "round": 2, "first": EVIL, "hands": round2, "discard": "0",
         "deck": sorted(rest2.elements(), key=int)},
        {"type": "draw", "player": EVIL, "source": "deck"},
    ]


def log_bytes(lines: list[dict[str, Any]]) -> bytes:
    return b"".join(dumps_event(line) for line in lines)


def write_log(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_bytes(log_bytes(lines))
    return path


class Follow:
    """Just enough of the rules to follow this game's rows: draws, successful replacements,
    discards and swaps (the only row changes it has)."""

    def __init__(self, deal: dict[str, Any]) -> None:
        self.rows = {p: list(h) for p, h in deal["hands"].items()}
        self.deck = list(deal["deck"])       # top first
        self.pile = [deal["discard"]]
        self.held: str | None = None

    def apply(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        if kind == "draw":
            self.held = self.deck.pop(0) if e["source"] == "deck" else self.pile.pop()
        elif kind == "discard":
            assert self.held is not None
            self.pile.append(self.held)
        elif kind == "replace":
            row = self.rows[e["player"]]
            into = e.get("into", e["positions"][0])
            assert len({row[p] for p in e["positions"]}) == 1    # this game: all succeed
            self.pile.extend(row[p] for p in e["positions"])
            assert self.held is not None
            self.rows[e["player"]] = [self.held if i == into else c for i, c in enumerate(row)
                                      if i == into or i not in e["positions"]]
        elif kind == "power" and e["power"] == "swap":
            (a, i), (b, j) = e["cards"]
            self.rows[a][i], self.rows[b][j] = self.rows[b][j], self.rows[a][i]

    def totals(self) -> dict[str, int]:
        return {p: sum(int(c) for c in row) for p, row in self.rows.items()}


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    return write_log(tmp_path / "tiny.jsonl", tiny_game())


# --- the data ---------------------------------------------------------------------------------

def test_one_step_per_event_with_its_kind_and_actor(tiny: Path) -> None:
    lines = tiny_game()
    tl = build_timeline(tiny)
    assert tl.ok and not tl.complete
    assert [s.line for s in tl.steps] == list(range(2, len(lines) + 1))
    assert [s.type for s in tl.steps] == [line["type"] for line in lines[1:]]
    assert [s.actor for s in tl.steps] == [line.get("player") for line in lines[1:]]
    assert [s.round for s in tl.steps] == [1] * 21 + [2, 2]


def test_true_hand_totals_turn_by_turn(tiny: Path) -> None:
    lines = tiny_game()
    follow = Follow(lines[1])
    expected = {0: follow.totals()}
    turn = 0
    for e in lines[2:22]:
        follow.apply(e)
        turn += e["type"] in ("draw", "cabo")
        expected[turn] = follow.totals()
    tl = build_timeline(tiny)
    round1 = [t for t in tl.turns if t.round == 1]
    assert [t.turn for t in round1] == list(range(9))
    assert {t.turn: t.totals for t in round1} == expected
    assert all(u == 0 for t in round1 for u in t.unknown.values())
    assert [t.cabo for t in round1] == [None] * 6 + [EVIL] + [None] * 2
    assert round1[-1].revealed and not round1[0].revealed
    # the step view's rows and totals follow the same cards
    last = tl.steps[20]
    assert {p: [c[0] for c in cards] for p, cards in last.rows} == follow.rows
    assert {p: t for p, (t, _) in last.hand_totals.items()} == follow.totals()


def test_words_tell_what_happened(tiny: Path) -> None:
    text = {s.number: s.text for s in build_timeline(tiny).steps}
    assert text[4] == "ana drew a 9 from the deck"
    assert text[5] == "ana discarded a 9; it gives the spy power"
    assert text[6] == "ana spied bruno's card 2: a 9"
    assert text[8] == "bruno replaced their cards 0 and 1 (a 5 and a 5) with the drawn 4"
    assert text[9] == f"{EVIL} took a 5 from the discard pile"
    assert text[15] == f"{EVIL} called Cabo"
    assert text[21].startswith("bruno swapped their card 0 with ana's card 3, unseen "
                               "(their 4, ana's 0). Round 1 ends after the final turns; "
                               f"{EVIL}'s Cabo succeeds; points: ana 24, bruno 22, {EVIL} 0")


def test_as_a_player_hides_what_they_did_not_see(tiny: Path) -> None:
    tl = build_timeline(tiny, "bruno")
    text = {s.number: s.text for s in tl.steps}
    assert text[2] == "ana looked at their cards 0 and 1"          # not which cards
    assert text[4] == "ana drew a card from the deck"              # ana's draw: unseen
    assert text[5] == "ana discarded a 9; it gives the spy power"  # discards are public
    assert text[6] == "ana spied bruno's card 2"                   # bruno never saw his card 2
    assert text[7] == "bruno drew a 4 from the deck"               # his own draw
    assert text[11] == "ana drew a card from the deck"
    assert text[12] == "ana replaced their card 1 (a 12) with the drawn card"
    assert text[18] == "ana peeked at their card 2"
    # the swap ends the round (every hand is then shown), yet its words name only the card
    # bruno had seen before: his own 4, not ana's 0
    assert text[21].startswith("bruno swapped their card 0 with ana's card 3, unseen "
                               "(their 4). Round 1 ends")
    # the rows: after the taken discard, bruno knows his 4 and the 5 everybody saw taken
    rows = {p: [c[0] for c in cards] for p, cards in tl.steps[9].rows}
    assert rows == {"ana": [None] * 4, "bruno": ["4", None, None], EVIL: [None] * 3 + ["5"]}
    # what bruno saw of each row after the deal: his peeked 5 + 5, nothing of the others
    first = tl.turns[0]
    assert first.totals == {"ana": 0, "bruno": 10, EVIL: 0}
    assert first.unknown == {"ana": 4, "bruno": 2, EVIL: 4}
    # and ana, who spied bruno's 9: after her first turn she knows 3 + 12 and the 9
    ana = build_timeline(tiny, "ana")
    assert ana.turns[1].totals == {"ana": 15, "bruno": 9, EVIL: 0}
    assert ana.turns[1].unknown == {"ana": 2, "bruno": 3, EVIL: 4}
    assert ana.steps[5].text == "ana spied bruno's card 2: a 9"


def test_nothing_unseen_reaches_the_page_data(tiny: Path) -> None:
    data = json.dumps(render_data(build_timeline(tiny, "bruno")))
    for leak in ("spied bruno's card 2: a 9", "ana drew a 9", "ana drew a 10",
                 "ana drew a 7", "card 2: a 7"):
        assert leak not in data


def render_data(tl: Timeline) -> dict[str, Any]:
    from cabo_log.pages.timeline_html import page_data

    return page_data(tl)


def test_card_flags(tiny: Path) -> None:
    tl = build_timeline(tiny)
    # after the deal: the omniscient view marks every card its owner does not know
    deal = dict(tl.steps[0].rows)
    assert all(flags == OWNER_BLIND for _, _, flags in deal["ana"])
    peeked = dict(tl.steps[1].rows)["ana"]
    assert [f & OWNER_BLIND for _, _, f in peeked] == [0, 0, OWNER_BLIND, OWNER_BLIND]
    assert [bool(f & CHANGED) for _, _, f in peeked] == [True, True, False, False]
    swap = dict(tl.steps[20].rows)
    assert swap["bruno"][0][2] & CHANGED and swap["ana"][3][2] & CHANGED
    # edition2: the 5 taken from the discard pile lies face up; no other card does
    assert [(p, i) for p, row in swap.items() for i, (_, _, f) in enumerate(row)
            if f & FACE_UP] == [(EVIL, 3)]


def test_steps_agree_with_the_engine_observation(tiny: Path) -> None:
    """Every snapshot, for every viewer, shows exactly the cards ``observe`` says they know."""
    lines = tiny_game()
    for viewer in PLAYERS:
        tl = timeline_from_bytes(log_bytes(lines), "tiny", viewer)
        check_against_engine(lines, tl, viewer)


def check_against_engine(lines: list[dict[str, Any]], tl: Timeline, viewer: str) -> None:
    g = new_game(parse_event(lines[0]))   # type: ignore[arg-type]
    for line, step in zip(lines[1:], tl.steps, strict=True):
        apply(g, parse_event(line))
        if not step.rows:
            continue
        seen = observe(g, viewer).rows
        for player, cards in step.rows:
            assert [c is not None for c, _, _ in cards] == [c is not None for c in seen[player]]


def test_unknown_viewer(tiny: Path) -> None:
    with pytest.raises(NotAPlayer):
        build_timeline(tiny, "zed")


def test_invalid_log_keeps_the_valid_part(tmp_path: Path) -> None:
    lines = tiny_game()[:6] + [{"type": "draw", "player": "ana", "source": "deck"}]
    tl = build_timeline(write_log(tmp_path / "bad.jsonl", lines))
    assert tl.error is not None and tl.error.line == 7 and tl.error.code == "not_your_turn"
    assert len(tl.steps) == 5


# --- the figures ------------------------------------------------------------------------------

def test_events_figure_has_a_marker_per_event(tiny: Path) -> None:
    tl = build_timeline(tiny)
    fig = events_figure(tl)
    traces = {t["name"]: t for t in fig["data"]}
    markers = sum(len(t["x"]) for name, t in traces.items() if name != "round end")
    assert markers == len(tiny_game()) - 1
    assert traces["cabo"]["x"] == [15]
    assert traces["round end"]["x"] == [21]
    # lanes: the table on top, then the players in seat order
    assert traces["deal"]["y"] == [3, 3] and traces["cabo"]["y"] == [0]
    assert traces["power"]["y"] == [2, 2, 1]
    draws = dict(zip(traces["draw"]["x"], traces["draw"]["hovertext"], strict=True))
    assert draws[4].endswith("ana drew a 9 from the deck")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; took a 5" in draws[9]
    assert EVIL not in json.dumps(figure_json(fig))   # markup never reaches plotly as is
    hidden = {t["name"]: t for t in events_figure(build_timeline(tiny, "bruno"))["data"]}
    assert dict(zip(hidden["draw"]["x"], hidden["draw"]["hovertext"], strict=True))[4].endswith(
        "ana drew a card from the deck")


def test_score_figure(tiny: Path) -> None:
    fig = score_figure(build_timeline(tiny))
    lines = {t["name"]: t["y"] for t in fig["data"] if t["mode"] == "lines+markers"}
    follow = Follow(tiny_game()[1])
    for e in tiny_game()[2:22]:
        follow.apply(e)
    totals = follow.totals()
    assert totals[EVIL] < min(totals["ana"], totals["bruno"])   # so the Cabo succeeds: 0
    assert lines == {"ana": [0, totals["ana"]], "bruno": [0, totals["bruno"]],
                     "&lt;script&gt;alert(1)&lt;/script&gt;": [0, 0]}
    calls = next(t for t in fig["data"] if t["name"] == "Cabo call: success")
    assert calls["x"] == [1] and calls["y"] == [0]
    assert "success" in calls["hovertext"][0]
    assert [t["name"] for t in fig["data"] if t["name"].startswith("Cabo call")] == [
        "Cabo call: success"]
    assert fig["layout"]["shapes"][0]["y0"] == 100    # the target line


def test_score_figure_marks_resets() -> None:
    tl = Timeline(file=None, players=("ana", "bruno"), target=100)
    tl.rounds = [
        RoundResult(1, "ana", ("ana", "bruno"), "bruno", False, "cabo", {}, {}, {},
                    {"ana": 60, "bruno": 70}, 10, 0),
        RoundResult(2, "bruno", ("ana", "bruno"), None, None, "cabo", {},
                    {"ana": 40, "bruno": 9}, {"ana": 40, "bruno": 9},
                    {"ana": 50, "bruno": 79}, 12, 0, resets=("ana",)),
    ]
    tl.rounds[0].points.update({"ana": 60, "bruno": 70})
    tl.rounds[0].totals.update({"ana": 60, "bruno": 60})
    fig = score_figure(tl)
    reset = next(t for t in fig["data"] if t["name"].startswith("reset"))
    assert reset["name"] == "reset 100 \u2192 50"
    assert reset["x"] == [2] and reset["y"] == [50]
    calls = next(t for t in fig["data"] if t["name"] == "Cabo call: failure")
    assert calls["x"] == [1] and "failure" in calls["hovertext"][0]
    assert calls["marker"]["color"] == "#E45756"


def test_totals_figure(tiny: Path) -> None:
    tl = build_timeline(tiny, "bruno")
    fig = totals_figure(tl)
    bruno = next(t for t in fig["data"] if t["name"] == "bruno")
    deck = [int(c) for c in cabo_deck()]
    assert tl.mean_value == sum(deck) / len(deck)
    # 10 in the two cards bruno peeked, two unseen counted at the deck average: an estimate
    assert bruno["y"][:2] == [10 + 2 * tl.mean_value] * 2
    assert "2 cards unseen" in bruno["hovertext"][0] and "(estimate)" in bruno["hovertext"][0]
    ana = next(t for t in fig["data"] if t["name"] == "ana")     # unseen: not drawn flat at 0
    assert ana["y"][0] == 4 * tl.mean_value
    assert "estimate" in fig["layout"]["yaxis"]["title"]["text"]
    call = next(t for t in fig["data"] if t["name"] == "Cabo call")
    assert len(call["x"]) == 1 and "calls Cabo" in call["hovertext"][0]
    omniscient = totals_figure(build_timeline(tiny))
    ana = next(t for t in omniscient["data"] if t["name"] == "ana")
    assert ana["y"][0] == 3 + 12 + 7 + 0


def test_figures_are_plotly_json(tiny: Path) -> None:
    """Built as dicts, the figures are what plotly.js reads: every trace a scatter with as
    many points as hovers, the white template added for the page."""
    tl = build_timeline(tiny, "bruno")
    for build in (events_figure, score_figure, totals_figure):
        fig = figure_json(build(tl))
        assert set(fig) == {"data", "layout"}
        assert fig["layout"]["template"]["layout"]["plot_bgcolor"] == "white"
        for t in fig["data"]:
            assert t["type"] == "scatter" and len(t["x"]) == len(t["y"]) == len(t["hovertext"])
        json.dumps(fig, allow_nan=False)


# --- the page ---------------------------------------------------------------------------------

def test_script_json_cannot_break_out() -> None:
    text = script_json({"a": "</script><!-- & \u2028", "<b>": 1})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- & \u2028", "<b>": 1}


def test_page_escapes_every_string_from_the_log(tiny: Path) -> None:
    page = render_page(build_timeline(tiny), plotly="cdn")
    # the only script elements are the page's own: plotly.js, the data, the page script
    assert len(re.findall(r"<script\b", page)) == 3
    assert page.count("</script>") == 3
    assert "<!--" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page     # shown as text
    assert "g&lt;/script&gt;&lt;!--1" in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page
    data = page.split('id="cabo-timeline-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data)["steps"][8]["actor"] == EVIL


def test_page_embeds_plotly_by_default(tiny: Path) -> None:
    from plotly.offline import get_plotlyjs

    page = render_page(build_timeline(tiny))
    assert get_plotlyjs()[:2000] in page and "<script src=" not in page
    cdn = render_page(build_timeline(tiny), plotly="cdn")
    assert 'src="https://cdn.plot.ly/plotly-' in cdn and len(cdn) < len(page) // 10


# --- the command line -------------------------------------------------------------------------

@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """cabo-log"""

    cli_timeline.register(app)
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    return lambda *args: runner.invoke(app, ["timeline", *map(str, args)])


def test_cli_default_output_in_the_current_directory(tiny: Path, run: Any,
                                                     tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    log = tiny.rename(tmp_path / "logs" / "tiny.jsonl")
    result = run(log)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tiny.html").is_file()
    assert "wrote tiny.html" in result.stdout


def test_cli_output_as_and_cdn(tiny: Path, run: Any, tmp_path: Path) -> None:
    result = run(tiny, "-o", tmp_path / "out" / "b.html", "--as", "bruno", "--cdn")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / "b.html").read_text(encoding="utf-8")
    assert "cdn.plot.ly" in page and "As <b>bruno</b> knew it" in page


def test_cli_bad_usage_exits_2(tiny: Path, run: Any, tmp_path: Path) -> None:
    result = run(tiny, "--as", "zed")
    assert result.exit_code == 2 and "'zed' is not a player" in result.stderr
    assert not (tmp_path / "tiny.html").exists()
    result = run(tmp_path / "missing.jsonl")
    assert result.exit_code == 2 and "no such file" in result.stderr
    assert run(tiny, "--bogus").exit_code == 2


def test_cli_invalid_log(run: Any, tmp_path: Path) -> None:
    lines = tiny_game()[:6] + [{"type": "draw", "player": "ana", "source": "deck"}]
    log = write_log(tmp_path / "bad.jsonl", lines)
    result = run(log)
    assert result.exit_code == 1
    assert f"{log}:7: not_your_turn: " in result.stderr
    page = (tmp_path / "bad.html").read_text(encoding="utf-8")
    assert "This log is invalid." in page and "the 5 events before it" in page
    # a log whose header cannot be read gets no page at all
    (tmp_path / "junk.jsonl").write_text("not json\n", encoding="utf-8")
    result = run(tmp_path / "junk.jsonl")
    assert result.exit_code == 1 and "junk.jsonl:1: bad_json: " in result.stderr
    assert not (tmp_path / "junk.html").exists()
    assert "Traceback" not in result.output


def test_cli_folder(tiny: Path, run: Any, tmp_path: Path) -> None:
    games = tmp_path / "games"
    (games / "sub").mkdir(parents=True)
    tiny.rename(games / "tiny.jsonl")
    lines = tiny_game()[:6] + [{"type": "draw", "player": "ana", "source": "deck"}]
    write_log(games / "sub" / "bad.jsonl", lines)
    result = run(games, "-o", tmp_path / "site")
    assert result.exit_code == 1                      # one log is invalid
    assert "bad.jsonl:7: not_your_turn" in result.stderr
    site = tmp_path / "site"
    assert (site / "tiny.html").is_file() and (site / "sub" / "bad.html").is_file()
    assert (site / "plotly.min.js").is_file()
    assert 'src="../plotly.min.js"' in (site / "sub" / "bad.html").read_text(encoding="utf-8")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="tiny.html">tiny.jsonl</a>' in index
    assert '<a href="sub/bad.html">sub/bad.jsonl</a>' in index
    assert "edition2" in index and "&lt;script&gt;alert(1)&lt;/script&gt;" in index
    assert "<script" not in index


def test_cli_folder_lists_winners(run: Any, tmp_path: Path) -> None:
    simulate = pytest.importorskip("cabo_log.play.simulate")
    games = tmp_path / "games"
    games.mkdir()
    lines = simulate.simulate_game("edition1", players=2, seed=3)
    write_log(games / "one.jsonl", lines)
    result = run(games, "-o", tmp_path / "site", "--cdn")
    assert result.exit_code == 0, result.output
    winners = build_timeline(games / "one.jsonl").winners
    assert winners
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert f"<td>{', '.join(winners)}</td><td>complete</td>" in index
    assert not (tmp_path / "site" / "plotly.min.js").exists()


# --- simulated games: every ruleset, every viewer -----------------------------------------------

@pytest.mark.parametrize("ruleset", ["edition1", "edition2", "golf", "online"])
def test_simulated_games(ruleset: str) -> None:
    simulate = pytest.importorskip("cabo_log.play.simulate")
    options = {"forfeit_rate": 0.02} if ruleset == "online" else {}
    lines = simulate.simulate_game(ruleset, players=3, seed=7, **options)
    data = log_bytes(lines)
    omniscient = timeline_from_bytes(data, "sim")
    assert omniscient.ok and len(omniscient.steps) == len(lines) - 1
    for viewer in lines[0]["players"]:
        tl = timeline_from_bytes(data, "sim", viewer)
        check_against_engine(lines, tl, viewer)
        for line, step in zip(lines[1:], tl.steps, strict=True):
            if line["type"] == "draw" and line["source"] == "deck" and line["player"] != viewer:
                assert step.text.endswith(f"{line['player']} drew a card from the deck")
        render_page(tl, plotly="cdn")


# --- hover texts ------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["a", "ana", "drew", "9", "x" * 30, "y" * 80, "-", "co-op",
                                 " ", "  ", "\t", "\u00a0", "\u2192", "<b>"]), max_size=40),
       st.integers(min_value=8, max_value=80))
def test_wrap_lines_breaks_as_textwrap_does(parts: list[str], width: int) -> None:
    text = " ".join(parts)
    assert wrap_lines(text, width) == textwrap.wrap(text, width)


def test_wrap_lines_on_every_step_of_the_samples() -> None:
    for path in sorted(SAMPLES.glob("*.jsonl")):
        for step in build_timeline(path).steps:
            assert wrap_lines(step.text) == textwrap.wrap(step.text, 72), step.text


def test_the_white_template_is_plotlys() -> None:
    import plotly.io as pio

    assert white_template() == pio.templates["plotly_white"].to_plotly_json()


def test_a_long_match_names_its_rounds_without_overlap(tmp_path: Path) -> None:
    """Forty short rounds: the names over the lanes and the totals' ticks are thinned so
    that no two are closer than 4 % of the axis; the first round is always named."""
    from cabo_log.pages.charts import LABEL_GAP
    from cabo_log.play.simulate import write_games

    write_games(tmp_path, "edition1", games=1, players=2, seed=3,
                options={"target": 400}, jobs=1)
    tl = build_timeline(next(tmp_path.glob("*.jsonl")))
    assert len(tl.rounds) > 25
    notes = events_figure(tl)["layout"]["annotations"]
    xs = [n["x"] for n in notes]
    extent = tl.steps[-1].number - tl.steps[0].number
    assert notes[0]["text"] == "round 1" and 5 < len(notes) < len(tl.rounds)
    assert all(b - a >= LABEL_GAP * extent for a, b in zip(xs, xs[1:], strict=False))
    ticks = totals_figure(tl)["layout"]["xaxis"]["tickvals"]
    assert ticks[0] == 0 and 5 < len(ticks) < len(tl.rounds)
    assert all(b - a >= LABEL_GAP * len(tl.turns) for a, b in zip(ticks, ticks[1:],
                                                                     strict=False))
