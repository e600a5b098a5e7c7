"""What a timeline page and a folder's index tell a first-time reader: forfeits and special
hands by name, only the cards that moved highlighted, invalid logs apart, final scores."""

from __future__ import annotations

from pathlib import Path

from cabo_log.pages.timeline import CHANGED, build_timeline
from cabo_log.pages.timeline_files import write_folder
from cabo_log.pages.timeline_html import render_page

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"


def changed(path: Path, number: int) -> dict[str, list[int]]:
    """Positions flagged as touched, per row, at step ``number``."""
    step = build_timeline(path).steps[number - 1]
    return {p: [i for i, c in enumerate(cards) if c[2] & CHANGED] for p, cards in step.rows}


def test_a_snap_highlights_only_what_moved() -> None:
    snaps = SAMPLES / "golf-snaps.jsonl"
    steps = build_timeline(snaps).steps
    assert steps[4].text.startswith("bruno snapped their card 0 (a 5\u2660)")
    # bruno's card 0 went to the pile: his other cards shifted left but did not move
    assert changed(snaps, 5) == {"ana": [], "bruno": [], "carla": []}
    assert steps[8].text.startswith("carla snapped their card 1 (a K\u2660)")
    # a failed snap: that card turns face up and a penalty card joins the row at the end
    assert changed(snaps, 9) == {"ana": [], "bruno": [], "carla": [1, 4]}


def test_page_names_forfeits_and_the_special_hand() -> None:
    forfeit = build_timeline(SAMPLES / "online-forfeit.jsonl")
    assert forfeit.forfeited == ("bruno", "carla")
    left = [s.text for s in forfeit.steps if s.type == "forfeit"]
    assert left == ["carla forfeited: left the match (disconnected); the card they held (a JK) "
                    "is discarded",
                    "bruno forfeited: left the match (left). Round 2 ends by a forfeit, "
                    "unscored; points: ana 0; bruno forfeited. The match is over: ana wins"]
    ends = [s.text for s in forfeit.steps if s.round_end is not None]
    assert ends[0].endswith("points: ana 17, bruno 0; carla forfeited")
    assert "points: ana 0; bruno forfeited. The match is over: ana wins" in ends[1]
    page = render_page(forfeit, plotly="plotly.min.js")
    assert "winner <b>ana</b> \u00b7 forfeited: bruno, carla" in page
    assert page.count('<td class="num left">left</td>') == 2
    moon = build_timeline(SAMPLES / "online-moon.jsonl")
    first = next(s.text for s in moon.steps if s.round_end is not None)
    assert "; carla called Cabo; points: ana 50, bruno 50, carla 0; Shoot the moon: carla 0, " \
           "others +50" in first
    page = render_page(moon, plotly="plotly.min.js")
    assert '<span class="special">Shoot the moon: carla 0, others +50</span>' in page
    assert "plotly.js is read from plotly.min.js" in page
    assert "embeds plotly.js" in render_page(moon)


def test_index_lists_invalid_logs_apart_with_final_scores(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    for name in ("online-forfeit.jsonl", "edition1-kamikaze.jsonl"):
        (games / name).write_bytes((SAMPLES / name).read_bytes())
    bad = SAMPLES / "invalid" / "illegal-not-your-turn.jsonl"
    (games / "bad.jsonl").write_bytes(bad.read_bytes())
    result = write_folder(games, tmp_path / "site", cdn=True)
    index = result.index.read_text(encoding="utf-8")
    games_part, invalid_part = index.split("<h2>Invalid logs</h2>")
    assert "2 games, 1 invalid log" in games_part
    assert '<td class="id">sample-online-forfeit</td>' in games_part
    assert "ana 17, bruno 0 (left), carla 0 (left)" in games_part
    assert "bad.jsonl" not in games_part
    assert '<a href="bad.html">bad.jsonl</a></td><td>' in invalid_part
    assert "not_your_turn" in invalid_part
