"""The native scan of a body (``line_scan``, ``scanner``): every line it reads gives the event
the exact reader gives, and a body read with it gives what msgspec's path and the line by line
reading give, whatever the bytes (the compiled build scans, the pure one does not: both are
run here on the scan; tests/test_compiled.py compares the builds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cabo_log.log.decode import DecodedLog, decode_log
from cabo_log.log.fastdecode import fast_body
from cabo_log.log.line_scan import scan_body
from cabo_log.log.logfile import parse_line
from cabo_log.play.simulate import write_games
from engine.events import Event

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
SAMPLE_LOGS = sorted(SAMPLES.rglob("*.jsonl"))
PLAYERS = ("ana", "bo", "b")


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two games of every ruleset, with moves made automatically (``auto``) and, online,
    forfeits."""
    folder = tmp_path_factory.mktemp("scan")
    for ruleset, players, forfeits in (("edition1", 3, 0.0), ("edition2", 4, 0.0),
                                       ("golf", 3, 0.0), ("online", 4, 0.05)):
        write_games(folder / ruleset, ruleset, games=2, players=players, options=None,
                    forfeit_rate=forfeits, auto_rate=0.05, seed=3)
    return sorted(folder.rglob("*.jsonl"))


def summary(log: DecodedLog) -> tuple[Any, ...]:
    """What a decoding decided: the events, the header, the error and where, the lines."""
    error = None if log.error is None else (log.error.code, log.error.message)
    return (log.header, log.events, log.line_of(len(log.events) - 1) if log.events else 0,
            log.stamps, error, log.error_line, log.lines)


def test_simulated_logs_are_read_by_the_scan_as_by_the_exact_reader(
        simulated: list[Path]) -> None:
    lines = holes = 0
    for path in simulated:
        data = path.read_bytes()
        head, _, body = data.partition(b"\n")
        header = parse_line(head)
        scanned = scan_body(data, len(head) + 1, header.players)  # type: ignore[attr-defined]
        assert scanned is not None
        exact = [parse_line(raw) for raw in body.split(b"\n") if raw]
        assert [e for e in scanned.events if e is not None] == \
            [e for e, s in zip(exact, scanned.events, strict=True) if s is not None]
        assert fast_body(data, len(head) + 1, header.players, scan=True) == (exact, [])
        lines += len(exact)
        holes += len(scanned.holes)
        assert summary(decode_log(data, scan=True)) == summary(decode_log(data, line_by_line=True))
    # every kind but the header is scanned: only a forfeit with a reason is left to msgspec
    assert lines > 1000 and holes < lines / 200


def test_every_kind_of_line_of_the_samples_is_scanned() -> None:
    kinds: set[str] = set()
    for path in SAMPLE_LOGS:
        data = path.read_bytes()
        head, _, _ = data.partition(b"\n")
        try:
            header = parse_line(head)
        except Exception:
            continue
        players = getattr(header, "players", ())
        scanned = scan_body(data, len(head) + 1, players)
        if scanned is not None:
            kinds |= {e.TYPE for e in scanned.events if isinstance(e, Event)}
    assert kinds >= {"draw", "discard", "replace", "power", "skip", "cabo", "snap", "deal",
                     "peek", "round_end", "game_end"}


@pytest.mark.parametrize("path", SAMPLE_LOGS, ids=lambda p: p.name)
def test_the_scan_gives_the_line_by_line_reading_on_every_sample(path: Path) -> None:
    data = path.read_bytes()
    assert summary(decode_log(data, scan=True)) == summary(decode_log(data, line_by_line=True))
    assert summary(decode_log(data, scan=True)) == summary(decode_log(data, scan=False))


def body_of(*lines: bytes) -> bytes:
    return b"\n".join(lines) + b"\n"


DRAW = b'{"type":"draw","seq":5,"player":"ana","source":"deck","card":"11"}'
TRICKY = [
    DRAW,
    DRAW.replace(b'"seq":5', b'"seq":05'),                    # a leading zero
    DRAW.replace(b'"seq":5', b'"seq":-5'),                    # a negative seq
    DRAW.replace(b'"seq":5', b'"seq":5.0'),                   # a float
    DRAW.replace(b'"seq":5', b'"seq":1234567890123456789'),   # 19 digits
    DRAW.replace(b'"seq":5', b'"seq":123456789012345678'),    # 18
    DRAW.replace(b'"card":"11"', b'"card":null'),              # a default spelled out
    DRAW.replace(b'"card":"11"', b'"card":"11","card":"12"'),  # a key twice
    DRAW.replace(b'"card":"11"', b'"card":"99"'),              # no such card
    DRAW.replace(b'"card":"11"', b'"card":"JK"'),
    DRAW.replace(b'"card":"11"', b'"card":"10S"'),
    DRAW.replace(b'"card":"11"', b'"card":"1"'),
    DRAW.replace(b'"card":"11"', b'"card":"110"'),
    DRAW.replace(b'"ana"', b'"anna"'),                         # not a player
    DRAW.replace(b'"ana"', b'"an"'),
    DRAW.replace(b'"deck"', b'"decks"'),                       # not a source
    DRAW[:-1] + b',"auto":true}',
    DRAW[:-1] + b',"auto":false}',
    DRAW[:-1] + b',"auto":true,"auto":true}',
    DRAW[:-1] + b',"t":7}',
    DRAW[:-1] + b',"x":1}',
    DRAW[:-1] + b' }',
    DRAW.replace(b',"seq":5', b''),                            # no seq
    DRAW.replace(b'"player":"ana","source":"deck"', b'"source":"deck","player":"ana"'),
    b'{"type":"replace","player":"ana","positions":[0,1],"into":2,"end":"left"}',
    b'{"type":"replace","player":"ana","positions":[0,1],"into":-2}',
    b'{"type":"replace","player":"ana","positions":[0,-0]}',
    b'{"type":"replace","player":"ana","positions":[]}',
    b'{"type":"replace","player":"ana","positions":[0,]}',
    b'{"type":"power","player":"ana","power":"spy","target":["bo",0]}',
    b'{"type":"power","player":"ana","power":"swap","cards":[["bo",0],["ana",3]]}',
    b'{"type":"power","player":"ana","power":"swap","target":["bo",0]}',
    b'{"type":"power","player":"ana","power":"peek","target":["bo",0],"cards":[["bo",0],'
    b'["ana",3]]}',
    b'{"type":"power","player":"ana","power":"spy","target":["zed",0]}',
    b'{"type":"snap","player":"b","position":3}',
    b'{"type":"deal","round":1,"first":"ana","hands":{"ana":["1","2"],"bo":["3","4"]},'
    b'"discard":"5","deck":["6","7"]}',
    b'{"type":"deal","round":1,"first":"ana","hands":{"ana":["1","2"],"ana":["3","4"]},'
    b'"discard":"5","deck":["6","7"]}',
    b'{"type":"deal","round":1,"first":"ana","hands":{},"discard":"5","deck":[],'
    b'"dealer":"bo"}',
    b'{"type":"round_end","round":1,"points":{"ana":3,"bo":-2}}',
    b'{"type":"round_end","round":1,"points":{"ana":3,"ana":-2}}',
    b'{"type":"game_end","winners":["ana"],"scores":{"ana":3,"bo":9}}',
    b'{"type":"forfeit","player":"bo","reason":"left"}',
    b'{"type":"forfeit","player":"bo"}',
    b'{"type":"reshuffle","deck":["1","2"]}',
    b'{"type":"cabo","player":"b"}',
    b'{"type":"skip","player":"b"}',
    b'{"type":"peek","player":"b","positions":[0,1]}',
    b'{"type":"nope","player":"b"}',
    b'{"type":"cabo","player":"\xc3\xa9"}',
    b"",
]


@pytest.mark.parametrize("raw", TRICKY)
def test_the_scan_agrees_with_msgspec_on_tricky_lines(raw: bytes) -> None:
    for body in (body_of(raw), body_of(DRAW, raw, DRAW), raw, body_of(raw, raw)):
        if not body:
            continue
        assert fast_body(body, 0, PLAYERS, scan=True) == fast_body(body, 0, scan=False), body


def test_a_player_named_with_a_quote_is_never_matched() -> None:
    body = body_of(b'{"type":"cabo","player":"a"}')
    scanned = scan_body(body, 0, ('a"', "a\\", "a\n", "a\ud800"))
    assert scanned is not None and scanned.holes == [0]


MUTATIONS = st.sampled_from(["drop", "copy", "blank", "join", "split", "space", "dup_key",
                             "extra", "garble", "digit", "swap"])


def _edit(rows: list[bytes], kind: str, i: int, other: int) -> list[bytes]:
    row = rows[i]
    cut = other % (len(row) + 1)
    changed = {
        "drop": [], "copy": [row, row], "blank": [row, b""], "space": [row + b" "],
        "split": [row[:cut], row[cut:]],
        "join": [row + (rows[i + 1] if i + 1 < len(rows) else row)],
        "dup_key": [row[:-1] + b',"player":"ana"}'], "extra": [row[:-1] + b',"x":[1]}'],
        "garble": [row[:cut] + bytes([other % 128]) + row[cut + 1:]],
        "digit": [row[:cut] + b"0" + row[cut:]],
        "swap": [rows[(i + other) % len(rows)]],
    }[kind]
    end = i + 2 if kind == "join" else i + 1
    return rows[:i] + changed + rows[end:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from([p for p in SAMPLE_LOGS if p.parent == SAMPLES]),
       edits=st.lists(st.tuples(MUTATIONS, st.integers(1, 10**6), st.integers(0, 10**6)),
                      min_size=1, max_size=3))
def test_the_scan_agrees_on_edited_logs(path: Path, edits: list[tuple[str, int, int]]) -> None:
    """Logs edited at random lines after the header (bytes garbled, digits added, keys
    doubled, lines lost, joined, split...): the scan decides what the line-by-line reading
    decides."""
    rows = path.read_bytes().rstrip(b"\n").split(b"\n")
    for kind, at, other in edits:
        if len(rows) > 1:
            rows = _edit(rows, kind, 1 + at % (len(rows) - 1), other)
    data = b"\n".join(rows) + b"\n"
    assert summary(decode_log(data, scan=True)) == summary(decode_log(data, line_by_line=True))
