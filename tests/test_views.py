"""What a player is shown to know: nothing of their row at the deal, the cards of their peek
from their ``peek`` event on (``replay --as``, observations, timeline steps), and hand totals
labelled as points, not counts of cards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cabo_log.log.replay import replay_file
from cabo_log.pages.timeline import build_timeline
from engine.knowledge import observe

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"
MOON = SAMPLES / "online-moon.jsonl"      # seq 1 deal, 2-4 the peeks of ana, bruno, carla


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def replay_as(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "cabo_log", "replay", str(MOON), *args],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return out.stdout


def row_shown(text: str, player: str) -> list[str]:
    line = next(t for t in text.splitlines() if t.split()[:1] == [player])
    return line.split()[1:]


def test_replay_as_a_player_knows_nothing_at_the_deal() -> None:
    deal = next(e for e in lines(MOON) if e["type"] == "deal")
    bruno = deal["hands"]["bruno"]                   # type: ignore[index]
    for until in ("1", "2"):                         # the deal, then ana's peek
        assert row_shown(replay_as("--as", "bruno", "--until", until), "bruno") == ["??"] * 4
    after = replay_as("--as", "bruno", "--until", "3")   # bruno's own peek of 0 and 1
    assert row_shown(after, "bruno") == [bruno[0], bruno[1], "??", "??"]
    assert row_shown(after, "ana") == ["??"] * 4
    view = json.loads(replay_as("--as", "bruno", "--until", "1", "--json"))["view"]
    assert view["rows"] == {p: [None] * 4 for p in ("ana", "bruno", "carla")}


DEALT = sorted(p.name for p in SAMPLES.glob("*.jsonl") if '"type":"deal"' in p.read_text())


@pytest.mark.parametrize("log", DEALT)   # every sample but the score sheets (no deals)
def test_every_deal_is_unknown_until_its_peeks(log: str) -> None:
    """In every sample, each round: at its deal nobody knows a card of their own row; after
    a player's ``peek`` they know (at least) its positions."""
    events = lines(SAMPLES / log)
    deals = 0
    for index, event in enumerate(events):
        seq = int(event.get("seq", index))                # type: ignore[call-overload]
        if event["type"] not in ("deal", "peek"):
            continue
        g = replay_file(SAMPLES / log, until=seq).state
        assert g is not None
        if event["type"] == "deal":
            deals += 1
            for player in event["hands"]:                 # type: ignore[attr-defined]
                assert observe(g, player).rows[player] == (None,) * 4, (log, seq, player)
        else:
            player = str(event["player"])
            row = observe(g, player).rows[player]
            positions = event["positions"]
            assert all(row[i] is not None for i in positions), (log, seq)  # type: ignore[attr-defined]
    assert deals


def test_timeline_as_a_player_shows_the_deal_face_down() -> None:
    tl = build_timeline(MOON, "bruno")
    deal = next(s for s in tl.steps if s.type == "deal")
    assert all(label is None for _, row in deal.rows for label, _, _ in row)
    assert deal.hand_totals["bruno"] == (0, 4)
    peek = next(s for s in tl.steps if s.type == "peek" and s.actor == "bruno")
    bruno = dict(peek.rows)["bruno"]
    assert [label is not None for label, _, _ in bruno] == [True, True, False, False]
