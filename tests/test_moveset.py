"""The simulator's fast paths give exactly what the engine's general ones give: the lazy
``Placements`` is ``legal_moves`` item for item, ``stamp`` writes ``to_dict``'s lines and
``line_bytes`` their bytes."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from cabo_log.log.logfile import iter_events, iter_lines
from cabo_log.log.replay import ReplayVisitor, replay_bytes
from cabo_log.play.counting import known_to_fail
from cabo_log.play.lines import line_bytes, plan, stamp
from engine import Event, GameState, Outcome
from engine.events import Replace, to_dict
from engine.knowledge import observe
from engine.moves import legal_moves
from engine.moveset import Placements
from engine.vocabulary import DRAWN

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"


class _Drawn(ReplayVisitor[None]):
    """Every state with a drawn card in hand along a replay, checked on the spot."""

    def __init__(self) -> None:
        self.checked = 0

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        if state.phase != DRAWN:
            return
        lazy, listed = state.legal_moves(), legal_moves(state)
        assert isinstance(lazy, Placements)
        assert list(lazy) == listed and len(lazy) == len(listed) and bool(lazy)
        assert [lazy[i] for i in range(len(listed))] == listed
        assert lazy[-1] == listed[-1] and lazy[1:4] == listed[1:4]
        grouped = [m for group in lazy.kinds().values() for m in group]
        assert grouped == listed
        for seat in range(len(state.players)):   # as each player would see that row
            row = observe(state, state.players[seat]).rows.get(state.players[state.to_act()])
            if row is None:
                continue
            values = state.rules.values()
            safe = lazy.kinds(row, values).get("multi", [])
            expected = [m for m in listed if isinstance(m, Replace) and len(m.positions) > 1
                        and not known_to_fail(row, m.positions, values)]
            assert list(safe) == expected and len(safe) == len(expected)
        self.checked += 1


# the samples that record every move (a score sheet has no turns, so no drawn card)
FULL = [p for p in sorted(SAMPLES.glob("*.jsonl"))
        if b'"record":"tally"' not in p.read_bytes().split(b"\n")[0]]


@pytest.mark.parametrize("path", FULL, ids=lambda p: p.stem)
def test_placements_are_the_engines_list(path: Path) -> None:
    visitor = _Drawn()
    replay_bytes(path.read_bytes(), visitor=visitor)
    assert visitor.checked > 0


def test_unranking_covers_long_rows() -> None:
    from itertools import combinations

    from engine.moveset import Combos

    combos = Combos("ana", 9, 2, 4)
    expected = [c for k in (2, 3, 4) for c in combinations(range(9), k)]
    assert len(combos) == len(expected) == 36 + 84 + 126
    assert [combos[i].positions for i in range(len(combos))] == expected  # type: ignore[attr-defined]
    with pytest.raises(IndexError):
        combos[len(expected)]


def test_stamp_writes_the_lines_to_dict_writes() -> None:
    count = written = 0
    for path in sorted(SAMPLES.glob("*.jsonl")):
        events = [e for _, e in iter_events(iter_lines(path.read_bytes()))][1:]
        for seq, event in enumerate(events, start=1):
            stamped, line = stamp(event, seq, event.auto)
            assert stamped.seq == seq and type(stamped) is type(event)
            assert list(line.items()) == list(to_dict(stamped).items())
            kind = type(event)
            raw = line_bytes(kind, seq, event.auto, plan(kind)[1](event))
            assert raw is None or raw == orjson.dumps(line), (raw, line)
            written += raw is not None
            count += 1
    assert count > 500 and written > 400
