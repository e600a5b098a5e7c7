"""Reading the bytes (FORMAT.md): byte-order mark, duplicate keys, the type of ``t``, and the
msgspec fast path agreeing with the exact reader on every line it accepts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cabo_log.log.builder import LogBuilder
from cabo_log.log.fastdecode import canonical_size, fast_body, fast_event, fast_events
from cabo_log.log.logfile import decode_line, iter_events, parse_line
from cabo_log.log.replay import ReplayResult, replay_bytes
from engine import CaboLogError, LogSyntaxError

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
_START = LogBuilder("edition1", ["ana", "bruno"], seq=False).deal(
    {"ana": ["1", "2", "3", "4"], "bruno": ["5", "5", "6", "6"]}, "10", ["7"], first="ana")
HEADER, DEAL = _START.to_bytes().rstrip(b"\n").split(b"\n")


def error_of(data: bytes) -> CaboLogError:
    result = replay_bytes(data, "g.jsonl")
    assert result.error is not None, "the log was accepted"
    return result.error


def test_a_leading_byte_order_mark_is_skipped() -> None:
    data = (SAMPLES / "edition1-match.jsonl").read_bytes()
    plain, marked = replay_bytes(data), replay_bytes(b"\xef\xbb\xbf" + data)
    assert marked.error is None and plain.error is None
    assert marked.report() == plain.report()
    assert [n for n, _ in iter_events([(1, (b"\xef\xbb\xbf" + data).split(b"\n")[0][3:])])] == [1]


def test_a_byte_order_mark_elsewhere_is_still_bad_json() -> None:
    err = error_of(HEADER + b"\n\xef\xbb\xbf" + DEAL + b"\n")
    assert (err.code, err.line) == ("bad_json", 2)


def test_crlf_line_ends_are_read_as_lf() -> None:
    data = (SAMPLES / "golf-snaps.jsonl").read_bytes()
    crlf = replay_bytes(data.replace(b"\n", b"\r\n"))
    assert crlf.error is None and crlf.report() == replay_bytes(data).report()


DUPLICATES = [
    (b'{"type":"draw","player":"ana","source":"deck","card":"7","card":"9"}', "card"),
    (b'{"type":"draw","player":"ana","player":"ana","source":"deck"}', "player"),
    (b'{"type":"draw","type":"draw","player":"ana","source":"deck"}', "type"),
    (b'{"type":"draw","player":"ana","source":"deck","c\\u0061rd":"7","card":"9"}', "card"),
    (b'{"type":"draw", "player" : "ana","source":"deck" ,"player":"bruno"}', "player"),
    (b'{"type":"draw","player":"ana","source":"deck","x":{"a":1,"a":2}}', "a"),
]


@pytest.mark.parametrize(("line", "key"), DUPLICATES)
def test_a_key_twice_is_duplicate_key(line: bytes, key: str) -> None:
    err = error_of(HEADER + b"\n" + DEAL + b"\n" + line + b"\n")
    assert (type(err), err.code, err.line) == (LogSyntaxError, "duplicate_key", 3)
    assert str(err) == f"g.jsonl:3: duplicate_key: the key {key!r} appears twice in one object"


def test_a_player_twice_in_the_hands_is_duplicate_key() -> None:
    deal = DEAL.replace(b'"bruno":', b'"ana":')
    assert deal != DEAL
    err = error_of(HEADER + b"\n" + deal + b"\n")
    assert (err.code, err.line, err.message) == (
        "duplicate_key", 2, "the key 'ana' appears twice in one object")


@pytest.mark.parametrize("header", [
    HEADER.replace(b'"ruleset":', b'"game_id":"x","ruleset":'),
    HEADER.replace(b'"ruleset":', b'"game_id" :"x","ruleset":'),
    HEADER.replace(b'"ruleset":', b'"game_\\u0069d":"x","ruleset":'),
    HEADER[:-1] + b',"bots":{"ana":"random","ana":"greedy"}}',
])
def test_a_key_twice_in_the_header_is_duplicate_key(header: bytes) -> None:
    assert header != HEADER
    err = error_of(header + b"\n" + DEAL + b"\n")
    assert (err.code, err.line) == ("duplicate_key", 1)


OBJECT_KEYS = st.sampled_from(["a", "b", "t", "a:b", '":', "a b"])
JSON_TEXT = st.recursive(
    st.one_of(st.integers(-5, 5).map(str),
              st.sampled_from(['"x"', '"12:00"', '" : "', "null", "true"])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(lambda items: "[" + ",".join(items) + "]"),
        st.lists(st.tuples(OBJECT_KEYS, st.sampled_from([":", " :", ": "]), inner),
                 max_size=4).map(lambda pairs: "{" + ",".join(
                     orjson.dumps(k).decode() + colon + v for k, colon, v in pairs) + "}")),
    max_leaves=10)


def has_repeated_key(value: Any, text: str) -> bool:
    """Whether any object written in ``text`` repeats a key (read back by the standard
    library with every pair kept)."""
    import json

    found = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found
        found = found or len({k for k, _ in pairs}) != len(pairs)
        return dict(pairs)

    json.loads(text, object_pairs_hook=pairs_hook)
    return found


@settings(max_examples=300, deadline=None)
@given(inner=JSON_TEXT)
def test_a_repeated_key_is_found_at_any_depth_however_the_line_is_spaced(inner: str) -> None:
    """``decode_line`` proves most lines free of repeated keys by counting (no second parse):
    whatever the spacing, nesting and strings with colons or quotes, it agrees with a parse
    that keeps every pair."""
    text = '{"type":"x","v":' + inner + "}"
    raw = text.encode()
    repeated = has_repeated_key(orjson.loads(raw), text)
    if repeated:
        with pytest.raises(LogSyntaxError) as caught:
            decode_line(raw)
        assert caught.value.code == "duplicate_key"
    else:
        assert decode_line(raw) == orjson.loads(raw)


@pytest.mark.parametrize(("t", "shown"), [(b"{}", "dict"), (b"[1]", "list"),
                                          (b"true", "True")])
def test_t_of_a_wrong_type_is_bad_field(t: bytes, shown: str) -> None:
    line = b'{"type":"draw","player":"ana","source":"deck","t":' + t + b"}"
    err = error_of(HEADER + b"\n" + DEAL + b"\n" + line + b"\n")
    assert (err.code, err.line) == ("bad_field", 3)
    assert err.message == (f"draw: field 't' must be a number (ms) or a string (ISO-8601), "
                           f"not {shown}")


@pytest.mark.parametrize("t", [b"12", b"1.5", b'"2026-11-29T20:00:01Z"', b"null"])
def test_t_as_a_number_or_a_string_is_accepted(t: bytes) -> None:
    line = b'{"type":"draw","player":"ana","source":"deck","t":' + t + b"}"
    assert replay_bytes(HEADER + b"\n" + DEAL + b"\n" + line + b"\n").error is None


def exact(raw: bytes) -> Any:
    """The exact reader's verdict: the event, or the (code, message) of its error."""
    try:
        return parse_line(raw)
    except CaboLogError as exc:
        return (exc.code, exc.message)


def test_the_fast_path_agrees_with_the_exact_reader_on_every_sample_line() -> None:
    fast_count = 0
    for path in sorted(SAMPLES.rglob("*.jsonl")):
        for raw in path.read_bytes().split(b"\n"):
            if not raw.strip():
                continue
            event = fast_event(raw)
            if event is not None:
                fast_count += 1
                assert event == exact(raw), raw
    assert fast_count > 500  # the samples mostly take the fast path


TRICKY = [
    b'{"type":"replace","player":"ana","positions":[0,1],"into":null,"end":null}',
    b'{"type":"replace","player":"ana","positions":[],"into":1}',
    b'{"type":"replace","player":"ana","positions":[0],"end":"middle"}',
    b'{"type":"power","player":"ana","power":"peek","target":["ana",0],"cards":5}',
    b'{"type":"power","player":"ana","power":"swap","cards":[["ana",0],["bruno",1]]}',
    b'{"type":"power","player":"ana","power":"swap","cards":[["ana",0]]}',
    b'{"type":"power","player":"ana","power":"spy","target":null}',
    b'{"type":"power","player":"ana","power":"swap","target":["ana",0],'
    b'"cards":[["ana",0],["bruno",1]]}',
    b'{"type":"power","player":"ana","power":"peek","target":["ana",0],'
    b'"cards":[["ana",0],["bruno",1]]}',
    b'{"type":"power","player":"ana","power":"spy"}',
    b'{"type":"draw","player":"a:b","source":"deck"}',
    b'{"type":"draw","player":"ana","source":"deck","seq":-1}',
    b'{"type":"draw","player":"ana","source":"deck","seq":1.0}',
    b'{"type":"draw","player":"ana","source":"deck","auto":null}',
    b'{"type":"draw","player":"ana","source":"deck","auto":1}',
    b'{"type":"snap","player":"ana","position":99999999999999999999}',
    b'{"type":"snap","player":"ana","position":true}',
    b'{"type":"forfeit","player":"ana","reason":"left: timeout"}',
    b'{"type":"forfeit","player":"ana","reason":null}',
    b'{"type":"round_end","round":1,"points":{"ana":3,"bruno":0}}',
    b'{"type":"round_end","round":1,"points":{"ana":3,"ana":0}}',
    b'{"type":"game_end","winners":["ana"],"scores":{"ana":3,"bruno":9}}',
    b'{"type":"cabo","player":"ana","note":"extra: field"}',
    b'{"type":"peek","player":"ana","positions":[1,0],"t":"20:00:01"}',
    b'{"type":"reshuffle","deck":["1","2"]}',
    b'{"type":"deal","round":1,"first":"ana","hands":{},"discard":"1","deck":[]}',
]


@pytest.mark.parametrize("raw", TRICKY)
def test_the_fast_path_never_disagrees_on_tricky_lines(raw: bytes) -> None:
    event = fast_event(raw)
    assert event is None or event == exact(raw)


VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(
    ["ana", "deck", "discard", "swap", "spy", "peek", "left", "7", "a:b", ""]),
    st.lists(st.integers(-1, 4), max_size=3),
    st.lists(st.sampled_from(["ana", 0, 1, "bruno"]), max_size=2),
    st.dictionaries(st.sampled_from(["ana", "bruno"]), st.integers(0, 9), max_size=2))
KEYS = st.sampled_from(["player", "source", "card", "positions", "into", "end", "power",
                        "target", "cards", "position", "deck", "reason", "seq", "auto", "t",
                        "round", "points", "x"])
TYPES = st.sampled_from(["draw", "discard", "replace", "power", "peek", "skip", "cabo",
                         "snap", "reshuffle", "forfeit", "round_end", "game_end", "bogus"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=TYPES, pairs=st.lists(st.tuples(KEYS, VALUES), max_size=6))
def test_the_fast_path_agrees_on_random_lines(kind: str, pairs: list[tuple[str, Any]]) -> None:
    """Random lines, duplicate keys included (written by hand: a dict cannot hold them)."""
    parts = [b'"type":' + orjson.dumps(kind)]
    parts += [orjson.dumps(k) + b":" + orjson.dumps(v) for k, v in pairs]
    raw = b"{" + b",".join(parts) + b"}"
    event = fast_event(raw)
    if event is not None:
        assert event == exact(raw), raw


@pytest.mark.parametrize("depth", [10, 1000])
def test_duplicate_keys_are_found_deep_down(depth: int) -> None:
    deep = b'{"a":' * depth + b'{"k":1,"k":2}' + b"}" * depth
    line = b'{"type":"draw","player":"ana","source":"deck","x":' + deep + b"}"
    err = error_of(HEADER + b"\n" + DEAL + b"\n" + line + b"\n")
    assert (err.code, err.line, err.message) == (
        "duplicate_key", 3, "the key 'k' appears twice in one object")
    fine = line.replace(b'"k":2', b'"j":2')
    assert replay_bytes(HEADER + b"\n" + DEAL + b"\n" + fine + b"\n").error is None


# --- the whole-body path (``fast_body``) against the line-by-line one ----------------------

SAMPLE_LOGS = sorted(SAMPLES.rglob("*.jsonl"))


def outcome_of(result: ReplayResult) -> tuple[Any, int, str | None]:
    return result.report(), result.last_line, result.head


@pytest.mark.parametrize("path", SAMPLE_LOGS, ids=lambda p: p.name)
def test_the_whole_body_path_gives_the_line_by_line_result(path: Path) -> None:
    data = path.read_bytes()
    whole, lines = replay_bytes(data, path.name), replay_bytes(data, path.name, line_by_line=True)
    assert outcome_of(whole) == outcome_of(lines)


@pytest.mark.parametrize("ending", [b"", b"\n"])
def test_the_whole_body_path_counts_the_lines_as_read_one_by_one(ending: bytes) -> None:
    """The last line's number (what ``finish`` errors and reports carry) with and without a
    final newline, and for a header alone."""
    data = (SAMPLES / "golf-snaps.jsonl").read_bytes().rstrip(b"\n") + ending
    for log in (data, HEADER + ending):
        whole = replay_bytes(log, "g.jsonl")
        assert outcome_of(whole) == outcome_of(replay_bytes(log, "g.jsonl", line_by_line=True))
    assert replay_bytes(data).last_line == data.count(b"\n") + 1


def test_the_valid_samples_take_the_whole_body_path() -> None:
    # the score sheets declare their chain: each line's link is checked, line by line
    full = [p for p in SAMPLE_LOGS if p.parent == SAMPLES
            and b'"chain"' not in p.read_bytes().split(b"\n")[0]]
    taken = [p.name for p in full if fast_body(p.read_bytes().partition(b"\n")[2]) is not None]
    assert len(taken) == len(full) == len([p for p in SAMPLE_LOGS if p.parent == SAMPLES]) - 4
    events = fast_events((SAMPLES / "golf-snaps.jsonl").read_bytes().partition(b"\n")[2])
    assert events is not None
    assert events == [parse_line(raw) for raw in
                      (SAMPLES / "golf-snaps.jsonl").read_bytes().split(b"\n")[1:] if raw]


BODIES = [
    b"",                                   # a header alone
    b"{}\n",                                # not an event
    b'{"type":"cabo","player":"ana"}{"type":"cabo","player":"ana"}\n\n',  # two on one line
    b'{"type":"cabo",\n"player":"ana"}\n{"type":"cabo","player":"ana"}{"type":"skip",'
    b'"player":"ana"}\n',                   # one split over two lines, two on another
    b'{"type":"cabo","player":"ana"}\n\n{"type":"cabo","player":"ana"}\n',  # a blank line
    b'{"type":"cabo","player":"ana"} \n',   # trailing space
    b'{"type":"cabo","player":"ana"}\r\n',  # CRLF
    b'{"type":"cabo","player":"ana","player":"bo"}\n',  # a key twice
    b'{"type":"cabo","player":"ana","x":1}\n',  # an unknown key (kept and ignored)
    b'{"type":"cabo","player":"a\\u006ea"}\n',  # an escape
    b'{"type":"cabo","player" :"ana"}\n',  # a space before a colon
    b'{"type":"cabo","player":"ana","player" :"bo"}\n',  # a key twice, one spaced
    b'{"type":"cabo",\t"player":"ana"}\n',  # a tab
    b'{"type":"cabo","player":"ana","seq":null}\n',  # a default spelled out
    b'{"type":"cabo","player":"ana","auto":false}\n',  # the other default
    b'{"type":"cabo","player":"ana","h":"00"}\n',  # a chained line (checked line by line)
    b'{"type":"round_end","round":1,"points":{"ana":1,"ana":2}}\n',  # a key twice, nested
    b'{"type":"cabo","player":"ana","x":{"k":1,"k":2}}\n',  # nested in an unknown key
    b'{"type":"power","player":"ana","power":"swap","target":["ana",0],'
    b'"cards":[["ana",0],["bo",1]]}\n',   # a swap with a target too (fastlines.power_fits)
    b'{"type":"power","player":"ana","power":"peek","target":["ana",0],'
    b'"cards":[["ana",0],["bo",1]]}\n',   # a peek with cards too
    b'{"type":"power","player":"ana","power":"spy"}\n',  # a spy with no target
    b'{"type":"power","player":"ana","power":"swap","target":["ana",0]}\n',  # a swap, no cards
    # as many bytes as canonical lines with one newline each, the newline elsewhere
    # (``events_of``'s ``aligned``): two on one line, the second split over two
    b'{"type":"cabo","player":"ana"}{"type":"cabo",\n"player":"ana"}',
    b'{"type":"cabo","player":"ana"}{"type":"cabo","player":"ana"}\n\n',
    b'{"type":"cabo","player":"ana"}\n\n{"type":"cabo","player":"ana"}{"type":"cabo",'
    b'"player":"ana"}',                     # a blank line, then two on one
]


@pytest.mark.parametrize("body", BODIES)
def test_fast_body_vouches_only_for_whole_clean_lines(body: bytes) -> None:
    events = fast_events(body)
    if body == b"":
        assert events == []
    else:
        assert events is None


@pytest.mark.parametrize("body", [
    b'{"type":"cabo","player":"ana","t":"2026-11-30T12:00:00Z"}\n',  # colons in a string
    b'{"type":"cabo","player":"a :b"}\n{"type":"skip","player":"b","auto":true}',
    b'{"type":"round_end","round":1,"points":{"ana":1,"bo":2},"seq":4}\n',
    b'{"type":"cabo","player":":ana"}\n',  # a string that starts with a colon
    b'{"type":"cabo","player":"Jos\xc3\xa9"}\n',  # not ASCII: the proof by colons
    b'{"type":"cabo", "player":"ana"}\n',  # a space, not before a colon: the same
])
def test_fast_body_vouches_for_colons_and_spaces_inside_strings(body: bytes) -> None:
    """A string may hold ``:`` or `` :``; a line that is not written canonically (a space, a
    character of two bytes) is still proven by its colons."""
    events = fast_events(body)
    assert events == [parse_line(raw) for raw in body.split(b"\n") if raw]


@pytest.mark.parametrize("body", [
    b'{"type":"cabo","player":"ana"}\n',
    b'{"type":"draw","seq":12,"player":"bo","source":"deck","card":"10","auto":true}\n'
    b'{"type":"replace","seq":3,"player":"bo","positions":[0,12],"into":-1,"end":"left"}\n'
    b'{"type":"power","player":"bo","power":"swap","cards":[["a",0],["bo",10]]}\n'
    b'{"type":"deal","round":1,"first":"a","hands":{"a":["1","2"],"bo":[]},"discard":"3",'
    b'"deck":[]}\n{"type":"round_end","round":12345,"points":{}}\n'
    b'{"type":"game_end","winners":[],"scores":{"a":-100000}}\n'
    b'{"type":"forfeit","player":"a","reason":"x"}\n{"type":"snap","player":"a","position":7}',
])
def test_the_size_of_a_canonical_line_is_its_length(body: bytes) -> None:
    """``events_of`` works out each line's size from its decoded values (fast_body's proof by
    size): exactly the bytes of a line written canonically."""
    lines = body.rstrip(b"\n").split(b"\n")
    for raw in lines:
        assert canonical_size(raw) == len(raw)
        longer = raw[:-1] + b',"x":1}'   # a key of no field: the size stays, the bytes grow
        assert canonical_size(longer) == len(raw) < len(longer)


MUTATIONS = st.sampled_from(["drop", "copy", "blank", "join", "split", "space", "crlf",
                             "dup_key", "extra", "escape", "garble", "swap"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from([p for p in SAMPLE_LOGS if p.parent == SAMPLES]),
       edits=st.lists(st.tuples(MUTATIONS, st.integers(0, 10**6), st.integers(0, 10**6)),
                      max_size=3))
def test_both_paths_agree_on_edited_logs(path: Path, edits: list[tuple[str, int, int]]) -> None:
    """Logs edited at random lines (lines lost, doubled, joined, split, keys doubled, bytes
    garbled...): whatever the whole-body path decides, the result is the line-by-line one."""
    rows = path.read_bytes().rstrip(b"\n").split(b"\n")
    for kind, at, other in edits:
        rows = _edit(rows, kind, at % len(rows), other)
    data = b"\n".join(rows) + b"\n"
    whole, lines = replay_bytes(data, "g.jsonl"), replay_bytes(data, "g.jsonl", line_by_line=True)
    assert outcome_of(whole) == outcome_of(lines)


def _edit(rows: list[bytes], kind: str, i: int, other: int) -> list[bytes]:
    row = rows[i]
    cut = other % (len(row) + 1)
    changed = {
        "drop": [], "copy": [row, row], "blank": [row, b""], "space": [row + b" "],
        "crlf": [row + b"\r"], "split": [row[:cut], row[cut:]],
        "join": [row + (rows[i + 1] if i + 1 < len(rows) else row)],
        "dup_key": [row[:-1] + b',"player":"ana"}'], "extra": [row[:-1] + b',"x":[1]}'],
        "escape": [row.replace(b'"ana"', b'"\\u0061na"')],
        "garble": [row[:cut] + b"]" + row[cut + 1:]],
        "swap": [rows[(i + other) % len(rows)]],
    }[kind]
    end = i + 2 if kind == "join" else i + 1
    return rows[:i] + changed + rows[end:]


def test_fast_body_lists_the_t_of_every_line_only_when_a_line_has_one() -> None:
    """``t`` is rare: without one the stamps are an empty list (nothing built per line); with
    one, every line has its place, the lines without a ``t`` holding None."""
    skip = b'{"type":"skip","player":"ana"}\n'
    assert fast_body(skip * 3) == ([parse_line(skip)] * 3, [])
    stamped = b'{"type":"skip","player":"ana","t":"12:00"}\n'
    decoded = fast_body(skip + stamped + skip + skip)
    assert decoded is not None
    assert decoded[1] == [None, "12:00", None, None]
    decoded = fast_body(skip + skip + stamped.replace(b'"12:00"', b"7"))
    assert decoded is not None and decoded[1] == [None, None, 7]


@pytest.mark.parametrize("body", [
    *BODIES,
    b'{"type":"cabo","player":"ana"}\n{"type":"skip","player":"ana"}\n',
    b'{"type":"cabo","player":"a :b"}\n{"type":"skip","player":"b","auto":true}',
    b'{"type":"cabo","player":"ana","t":"2026-11-30T12:00:00Z"}\n',
    *(path.read_bytes().partition(b"\n")[2] for path in SAMPLE_LOGS[:3]),
])
def test_fast_body_reads_a_body_where_it_lies_in_the_log(body: bytes) -> None:
    """A replay hands ``fast_body`` the whole log and where its body starts (no copy): the
    answer is the body's own, whatever the bytes before it hold (a backslash, a ``}`` and a
    newline that would pass for the end of a line)."""
    for before in (b'{"type":"game","note":"a\\\\b"}\n', b"}\n", b"x"):
        assert fast_body(before + body, len(before)) == fast_body(body)
