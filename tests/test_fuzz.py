"""Fuzzing the reader and the engine with broken versions of the sample games.

Whatever the bytes, ``replay_bytes`` must come back with either a valid replay or a clean
``CaboLogError`` in ``result.error`` (a code, a kind and a line number) - never an uncaught
exception - and the command line must exit with 0 or 1 without a traceback.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cabo_log import cli
from cabo_log.log.render import describe
from cabo_log.log.replay import replay_bytes
from engine import CaboLogError

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {p.stem: p.read_bytes() for p in sorted((ROOT / "sample_games").glob("*.jsonl"))}
# Short logs make the mutations land everywhere; the long ones reach late rounds and ends.
SHORT = {name: data[:20_000] for name, data in SOURCES.items()}
KINDS = {"syntax", "illegal", "inconsistent", "ruleset"}
CODE = re.compile(r"^[a-z][a-z0-9_]*$")

PLAYERS = ["ana", "bruno", "carla", "dora", "zoe", ""]
CARDS = ["0", "12", "13", "14", "-1", "KH", "KS", "10D", "JK", "1X", ""]
FIELDS = ["type", "seq", "player", "players", "positions", "position", "into", "end", "source",
          "card", "target", "cards", "power", "round", "first", "hands", "discard", "deck",
          "points", "winners", "scores", "ruleset", "options", "format", "game_id", "auto",
          "names", "caller_penalty", "special_row", "target_score", "base", "decks"]

SETTINGS = settings(max_examples=1000, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def nested(depth: int) -> Any:
    value: Any = 0
    for k in range(depth):
        value = [value] if k % 2 else {"a": value}
    return value


# JSON values a broken recorder might write: wrong types, huge numbers, garbage structures.
scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(-5, 60), st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([2**63, -(2**63) - 1, 10**30, 1e300, -0.0, 1.5]),
    st.sampled_from(PLAYERS), st.sampled_from(CARDS),
    st.sampled_from(["deck", "discard", "left", "right", "peek", "spy", "swap", "edition1",
                     "golf", "online", "cabo-log/1", "game", "deal", "draw", "round_end"]),
    st.text(max_size=8),
)
garbage = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.sampled_from(FIELDS + PLAYERS), inner,
                                            max_size=4)),
    max_leaves=12,
) | st.builds(nested, st.sampled_from([20, 200]))
# Nesting deeper than the JSON reader accepts (orjson stops at 1024) is written as raw bytes.
DEEP = st.sampled_from([1025, 1100, 5000]).map(lambda n: b"[" * n + b"]" * n)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key/index path inside a decoded line."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:8]):
            found += paths(item, (*prefix, index))
    return found


def edit(obj: Any, path: tuple[Any, ...], action: str, new: Any) -> None:
    parent = obj
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if action == "delete":
        del parent[last]
    else:
        parent[last] = new


@st.composite
def mutate_field(draw: st.DrawFn, lines: list[bytes]) -> list[bytes]:
    """Decode one line, change, delete or add one (possibly nested) field, encode it again."""
    index = draw(st.integers(0, len(lines) - 1))
    try:
        obj = orjson.loads(lines[index])
    except orjson.JSONDecodeError:
        return lines
    action = draw(st.sampled_from(["set", "set", "delete", "add"]))
    if action == "add" or not isinstance(obj, dict):
        if isinstance(obj, dict):
            targets = [()] + [p for p in paths(obj) if isinstance(_at(obj, p), dict)]
            where = draw(st.sampled_from(targets))
            key = draw(st.sampled_from(FIELDS))
            _at(obj, where)[key] = draw(garbage)
        else:
            obj = draw(garbage)
    else:
        spots = paths(obj)
        if not spots:
            return lines
        path = draw(st.sampled_from(spots))
        edit(obj, path, action, draw(garbage) if action == "set" else None)
    out = list(lines)
    out[index] = json.dumps(obj).encode()
    return out


def _at(obj: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        obj = obj[step]
    return obj


@st.composite
def mutated_log(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(sorted(SOURCES)))
    data = SOURCES[name] if draw(st.booleans()) else SHORT[name]
    lines = data.split(b"\n")
    if not lines[-1]:
        lines.pop()
    for _ in range(draw(st.integers(1, 3))):
        size = len(lines)
        if size == 0:
            break
        i = draw(st.integers(0, size - 1))
        j = draw(st.integers(0, size - 1))
        op = draw(st.sampled_from(["drop", "duplicate", "swap", "field", "field", "field",
                                   "cut", "insert_bytes", "garbage_line", "deep"]))
        if op == "drop":
            del lines[i]
        elif op == "duplicate":
            lines.insert(j, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "field":
            lines = draw(mutate_field(lines))
        elif op == "cut":
            lines[i] = lines[i][:len(lines[i]) - draw(st.integers(1, max(1, len(lines[i]))))]
        elif op == "insert_bytes":
            junk = draw(st.one_of(st.binary(min_size=1, max_size=6),
                                  st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00",
                                                   b"\xef\xbb\xbf", b"\n", b"\r\n", b"\\"])))
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + junk + lines[i][at:]
        elif op == "garbage_line":
            lines.insert(j, json.dumps(draw(garbage)).encode())
        else:
            key = draw(st.sampled_from([b'"player"', b'"names"', b'"positions"', b'"x"']))
            lines[i] = lines[i][:1] + key + b": " + draw(DEEP) + b", " + lines[i][1:]
    # Renumbering (or dropping) seq lets dropped, repeated and swapped lines reach the rules
    # instead of stopping at the seq check.
    seq = draw(st.sampled_from(["keep", "renumber", "renumber", "strip"]))
    if seq != "keep":
        lines = [_reseq(line, k, seq == "renumber") for k, line in enumerate(lines)]
    blob = b"\n".join(lines)
    if draw(st.booleans()):
        blob += b"\n"
    if draw(st.integers(0, 9)) == 0:
        blob = blob[:len(blob) - draw(st.integers(1, 300))]
    return blob


def _reseq(line: bytes, k: int, renumber: bool) -> bytes:
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return line
    if not isinstance(obj, dict):
        return line
    obj.pop("seq", None)
    if renumber:
        obj["seq"] = k
    try:
        return orjson.dumps(obj)
    except orjson.JSONEncodeError:   # nested deeper than orjson writes: keep the line as is
        return line


def check_clean(data: bytes) -> None:
    """The replay of any bytes is a valid game or one located, coded error."""
    result = replay_bytes(data, "fuzz.jsonl")
    report = result.report()
    json.dumps(report)
    describe(result)
    error = result.error
    if error is None:
        assert result.state is not None
        assert report["complete"] in (True, False)
        return
    assert isinstance(error, CaboLogError)
    assert error.kind in KINDS, error.kind
    assert CODE.match(error.code), error.code
    assert isinstance(error.line, int) and error.line >= 1, error.line
    assert error.file == "fuzz.jsonl"
    assert error.message and "Traceback" not in error.message
    assert str(error).startswith(f"fuzz.jsonl:{error.line}: {error.code}: ")
    assert report["error"]["line"] == error.line


@SETTINGS
@given(mutated_log())
def test_mutated_logs_replay_or_fail_cleanly(data: bytes) -> None:
    check_clean(data)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.binary(max_size=400))
def test_random_bytes_fail_cleanly(data: bytes) -> None:
    check_clean(data)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_prefix_of_a_sample_is_clean(name: str) -> None:
    """A log cut after any line is a game in progress (or a clean error): never a crash."""
    lines = SOURCES[name].split(b"\n")
    step = max(1, len(lines) // 40)
    for end in range(0, len(lines), step):
        check_clean(b"\n".join(lines[:end]))


def test_deep_nesting_and_huge_numbers() -> None:
    header = SOURCES["golf-tiebreak"].split(b"\n")[0]
    for line in (b'{"type": "draw", "seq": 1, "player": ' + b"[" * 5000 + b"]" * 5000 + b"}",
                 b'{"type": "deal", "seq": 1, "round": 1' + b"0" * 400 + b"}",
                 b'{"type": "deal", "seq": 1, "round": 1e999}',
                 b'{"type": "snap", "seq": 1, "player": "ana", "position": 99999999999999999}',
                 b'{"type": "cabo", "seq": 1, "player": "ana", "auto": "\\ud800"}'):
        check_clean(header + b"\n" + line + b"\n")


def _invoke(args: list[str]) -> Any:
    if not cli.app.registered_commands:
        cli.register_all()
    return CliRunner().invoke(cli.app, args)


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_log())
def test_cli_on_mutated_logs(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutated.jsonl"
        path.write_bytes(data)
        for args in (["replay", str(path)], ["replay", str(path), "--json"],
                     ["replay", str(path), "--as", "ana", "--until", "7"],
                     ["validate", str(path)]):
            out = _invoke(args)
            assert out.exception is None or isinstance(out.exception, SystemExit), (
                args, out.exception)
            usage = "--as" in args and out.exit_code == 2  # ana may no longer be a player
            assert out.exit_code in (0, 1) or usage, (args, out.exit_code, out.output)
            assert "Traceback" not in out.output
            if args[-1] == "--json":
                report = json.loads(out.stdout)
                assert ("error" in report) == (out.exit_code == 1)


# --- crashes once found by fuzzing, kept as regression tests

def test_house_rule_special_row_of_mixed_types_fails_cleanly() -> None:
    from cabo_log.log.builder import LogBuilder

    b = LogBuilder({"base": "edition1", "special_row": [12, "x"]}, ["ana", "bruno"],
                   strict=False)
    hands = {"ana": ["1", "2", "3", "4"], "bruno": ["5", "6", "7", "8"]}
    rest = LogBuilder("edition1", ["ana", "bruno"]).remaining(hands, "9", ["5"])
    b.deal(hands, "9", deck=["5", *rest], first="ana")
    b.cabo("ana").draw("bruno").discard("bruno")
    check_clean(b.to_bytes())


def test_deeply_nested_names_do_not_crash_json_output() -> None:
    header = (b'{"type":"game","format":"cabo-log/1","game_id":"g","ruleset":"edition1",'
              b'"options":{},"players":["ana","bruno"],"names":{"ana":'
              + b"[" * 1000 + b"]" * 1000 + b"}}\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deep.jsonl"
        path.write_bytes(header)
        out = _invoke(["replay", str(path), "--json"])
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
