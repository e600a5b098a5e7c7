"""No valid log overflows a column: a round of more than 32,767 turns loads whole, the bounds
on house-rule numbers keep every derived value in its column, and docs/schema.md states the
types the database really has."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cabo_log.db.database import ALL_SCHEMAS, duck_type
from cabo_log.db.load import load_paths
from cabo_log.log.logfile import dumps_event
from engine import CaboLogError, resolve

TURNS = 32_800          # quiet turns before the Cabo call: past a SMALLINT's 32,767


def long_round(turns: int) -> tuple[bytes, int]:
    """An edition1 round of ``turns`` draw-and-discard turns, with every reshuffle it needs,
    then a Cabo call and the last turn: the log's bytes and its number of reshuffles. Written
    line by line (the discard pile followed here) so that building it takes no replay."""
    cards = resolve("edition1", {}).deck_codes()
    players = ("ana", "bob")
    deck, pile = cards[9:], [cards[8]]
    lines: list[dict[str, Any]] = [
        {"type": "game", "format": "cabo-log/1", "game_id": "long", "ruleset": "edition1",
         "options": {}, "players": list(players)},
        {"type": "deal", "round": 1, "first": "ana",
         "hands": {"ana": cards[0:4], "bob": cards[4:8]}, "discard": cards[8], "deck": deck}]
    deck = list(deck)
    reshuffles = 0

    def turn(player: str) -> None:
        nonlocal deck, pile, reshuffles
        if not deck:
            deck, pile = pile[:-1], pile[-1:]
            lines.append({"type": "reshuffle", "deck": list(deck)})
            reshuffles += 1
        pile.append(deck.pop(0))
        lines.append({"type": "draw", "player": player, "source": "deck"})
        lines.append({"type": "discard", "player": player})

    for i in range(turns):
        turn(players[i % 2])
    lines.append({"type": "cabo", "player": players[turns % 2]})
    turn(players[(turns + 1) % 2])
    return b"".join(dumps_event(line) for line in lines), reshuffles


def query(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_a_round_of_more_than_32767_turns_loads(tmp_path: Path) -> None:
    data, reshuffles = long_round(TURNS)
    log = tmp_path / "long.jsonl"
    log.write_bytes(data)
    db = tmp_path / "cabo.duckdb"
    summary = load_paths([log], db, jobs=1)
    assert (summary.loaded, summary.rejected) == (1, [])     # valid, and loaded whole
    lines = data.count(b"\n")
    assert query(db, "SELECT events, rounds FROM games") == [(lines, 1)]
    assert query(db, "SELECT turns, reshuffles, caller FROM rounds") == \
        [(TURNS + 2, reshuffles, ["ana", "bob"][TURNS % 2])]
    assert query(db, "SELECT count(*), max(turn), max(line) FROM events") == \
        [(lines, TURNS + 2, lines)]
    assert query(db, "SELECT turn, caller_turn FROM cabo_calls") == \
        [(TURNS + 1, TURNS // 2 + 1)]


@pytest.mark.parametrize("spec", [
    {"red_king_value": 101}, {"red_king_value": -101}, {"target": 10**9 + 1},
    {"caller_penalty": 10**9 + 1}, {"special_penalty": -(10**9) - 1},
])
def test_house_rule_numbers_beyond_the_columns_are_refused(spec: dict[str, Any]) -> None:
    with pytest.raises(CaboLogError) as info:
        resolve(spec, {})
    assert info.value.code == "bad_ruleset"
    resolve({key: value // abs(value) * 100 for key, value in spec.items()}, {})  # in bounds


def test_schema_doc_states_each_columns_type() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "schema.md").read_text()
    documented: dict[str, dict[str, str]] = {}
    table = ""
    for line in doc.splitlines():
        heading = re.match(r"### `(\w+)`", line)
        if heading:
            table = heading.group(1)
        row = re.match(r"\| ((?:`\w+`(?:, )?)+) \| ([A-Z\[\], ]+?)(?: \(JSON\))? \|", line)
        if row and table:
            names = re.findall(r"`(\w+)`", row.group(1))
            types = [t.strip() for t in row.group(2).split(",")]
            for i, name in enumerate(names):
                documented.setdefault(table, {})[name] = types[i % len(types)]
    for name, schema in ALL_SCHEMAS.items():
        for field in schema:
            assert documented[name][field.name] == duck_type(field.type), (name, field.name)
