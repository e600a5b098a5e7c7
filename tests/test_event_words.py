"""How each kind of event is told in words comes from one table (``log.told.TOLD``), keyed by
the spec's kinds: every kind of ``engine.spec.EVENTS`` is told exactly once, a second sentence
for a kind is refused, and the sample logs, which hold every kind, are told event by event
with each kind's own sentence."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from cabo_log.log.replay import visit_bytes, visit_file
from cabo_log.log.told import TOLD, tells
from cabo_log.log.words import Narrator
from engine.events import Draw
from engine.spec import EVENT_TYPES, EVENTS

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"

# The first words of each kind's sentence ("{player}" stands for the event's player).
OPENINGS = {
    "game": "Game ", "deal": "Round ", "peek": "{player} looked at their cards ",
    "draw": "{player} ", "discard": "{player} discarded ", "replace": "{player} ",
    "power": "{player} ", "skip": "{player} skipped the ", "cabo": "{player} called Cabo",
    "snap": "{player} snapped their card ", "reshuffle": "The discard pile is shuffled",
    "forfeit": "{player} forfeited", "round_end": "The log's claim of round ",
    "game_end": "The log's claim of the result", "tally": "Round ",
}


def test_every_kind_of_the_spec_is_told_exactly_once() -> None:
    assert sorted(TOLD) == sorted(EVENT_TYPES)
    assert len(TOLD) == len(EVENTS)
    assert set(OPENINGS) == set(EVENT_TYPES)


def test_a_second_sentence_for_a_kind_is_refused() -> None:
    before = dict(TOLD)
    with pytest.raises(ValueError, match="'draw' event is already told"):
        tells(Draw)(lambda w, e, g, b: "again")
    assert TOLD == before


def test_the_samples_tell_every_kind_with_its_own_sentence() -> None:
    seen: set[str] = set()
    for path in sorted(SAMPLES.glob("*.jsonl")):
        objs = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
        narrator = Narrator()
        texts = visit_file(path, narrator)
        assert narrator.text.startswith(f"Game {objs[0]['game_id']}: ") or len(texts) > 0
        assert len(texts) == len(objs) - 1, path.name
        for obj, text in zip(objs[1:], texts, strict=True):
            opening = OPENINGS[obj["type"]].format(player=obj.get("player"))
            text = text.split(" lapsed) ", 1)[-1]   # a lapsed power is said first
            assert text.startswith(opening), (path.name, obj, text)
            seen.add(obj["type"])
    assert seen == set(EVENT_TYPES) - {"game"}


def test_the_header_is_told_as_the_match_begins() -> None:
    head = (SAMPLES / "golf-snaps.jsonl").read_bytes().split(b"\n", 1)[0] + b"\n"
    narrator = Narrator()
    assert visit_bytes(head, narrator) == []
    game = orjson.loads(head)
    assert narrator.text == (f"Game {game['game_id']}: golf, players "
                             f"{', '.join(game['players'])}")
