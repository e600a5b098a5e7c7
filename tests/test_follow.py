"""``replay --follow``'s reader (``play.follow.Follower``): a log read while it grows, in
pieces cut anywhere (a line without its newline waits), tells every line as a replay of the
whole file does (the same words, the same line numbers, the same state at the end), and a bad
line is reported on its own line number after the lines before it were applied."""

from __future__ import annotations

from pathlib import Path

import pytest

from cabo_log.log.replay import replay_file, visit_file
from cabo_log.log.words import Narrator
from cabo_log.play.follow import Follower
from engine import CaboLogError

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


def _grow(path: Path, data: bytes, cuts: list[int]) -> list[tuple[int, str]]:
    """Write ``data`` to ``path`` in pieces ending at ``cuts``, polling after each."""
    follower = Follower(path)
    told: list[tuple[int, str]] = []
    path.write_bytes(b"")
    for end in [*cuts, len(data)]:
        path.write_bytes(data[:end])
        told += [(step.line, step.text) for step in follower.poll()]
    whole = replay_file(path).state
    assert follower.state is not None and whole is not None
    assert follower.state.events == whole.events and follower.state.phase == whole.phase
    assert follower.state.cumulative_by_name() == whole.cumulative_by_name()
    return told


@pytest.mark.parametrize("name", ["edition1-match.jsonl", "golf-snaps.jsonl",
                                  "online-forfeit.jsonl", "tally-golf.jsonl",
                                  "edition1-reshuffle.jsonl"])
def test_a_growing_log_is_told_as_the_whole_file_is(tmp_path: Path, name: str) -> None:
    data = (SAMPLES / name).read_bytes()
    narrator = Narrator()
    texts = visit_file(SAMPLES / name, narrator)
    numbers = [n for n, raw in enumerate(data.split(b"\n"), start=1) if raw.strip()]
    cuts = list(range(7, len(data), max(1, len(data) // 23)))   # mid-line, mostly
    told = _grow(tmp_path / name, data, cuts)
    assert [n for n, _ in told] == numbers
    assert told[0][1].startswith("Game ")
    assert [text for _, text in told[1:]] == texts


def test_a_bad_line_is_reported_on_its_line_after_the_lines_before_it(tmp_path: Path) -> None:
    lines = (SAMPLES / "edition1-match.jsonl").read_bytes().split(b"\n")
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"\n".join(lines[:3]) + b"\n")
    follower = Follower(path)
    assert [s.line for s in follower.poll()] == [1, 2, 3]
    # two good lines, then the first good line again: out of turn
    path.write_bytes(b"\n".join(lines[:5] + lines[3:4]) + b"\n")
    with pytest.raises(CaboLogError) as raised:
        follower.poll()
    assert raised.value.line == 6 and raised.value.file == str(path)
    assert follower.state is not None and follower.state.events == 5   # header + 4 events
