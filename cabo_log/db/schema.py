"""The tables of a game, as Arrow schemas: the one declaration of their columns.

The row stage's builders are written from these schemas (tools/gen_rows.py: a builder per
column, by its Arrow type), ``database`` derives its DDL from them, and docs/schema.md
documents them; nothing else lists columns.
"""

from __future__ import annotations

import pyarrow as pa

I16, I32, I64 = pa.int16(), pa.int32(), pa.int64()
STR, BOOL, F64 = pa.string(), pa.bool_(), pa.float64()
STRS, I16S = pa.list_(STR), pa.list_(I16)
GAME_KEY = pa.dictionary(I32, STR)   # game_id and ruleset: one value per game, repeated


def _schema(*cols: tuple[str, pa.DataType]) -> pa.Schema:
    return pa.schema([pa.field(name, kind) for name, kind in cols])


KEY = (("game_id", STR), ("ruleset", STR))

SCHEMAS: dict[str, pa.Schema] = {
    "games": _schema(
        *KEY, ("ruleset_spec", STR), ("options", STR), ("players", STRS), ("n_players", I16),
        ("rounds", I32), ("complete", BOOL), ("winners", STRS), ("forfeited", STRS),
        ("events", I32), ("started_at", STR), ("source_file", STR), ("file_hash", STR),
        ("record", STR)),
    "game_players": _schema(
        *KEY, ("player", STR), ("seat", I16), ("name", STR), ("final_score", I64),
        ("rank", I16), ("won", BOOL), ("forfeited", BOOL), ("rounds_played", I32),
        ("calls", I32), ("kind", STR)),
    "rounds": _schema(
        *KEY, ("round", I32), ("n_players", I16), ("first_player", STR), ("caller", STR),
        ("cabo_success", BOOL), ("end_reason", STR), ("turns", I32), ("reshuffles", I32),
        ("tiebreak", BOOL), ("special_holders", STRS), ("resets", STRS)),
    "round_scores": _schema(
        *KEY, ("round", I32), ("player", STR), ("seat", I16), ("order_in_round", I16),
        ("dealt", STRS), ("dealt_total", I16), ("hand", STRS), ("hand_cards", I16),
        ("total", I32), ("points", I64), ("cumulative", I64), ("called", BOOL),
        ("lowest_total", BOOL), ("special_hand", BOOL), ("reset", BOOL)),
    "events": _schema(
        *KEY, ("seq", I32), ("line", I64), ("round", I32), ("turn", I32), ("player", STR),
        ("type", STR), ("auto", BOOL), ("t_ms", F64), ("t_iso", STR),
        # the event's own fields, flattened
        ("first_player", STR), ("source", STR), ("positions", I16S), ("position", I16),
        ("into", I16), ("end_side", STR), ("power", STR), ("target_player", STR),
        ("target_position", I16), ("swap_player_a", STR), ("swap_position_a", I16),
        ("swap_player_b", STR), ("swap_position_b", I16), ("reason", STR), ("claim", STR),
        # derived by the replay
        ("card", STR), ("value", I16), ("success", BOOL), ("penalty", STR),
        ("discarded", STRS), ("earned", STR), ("given", STR), ("received", STR),
        ("row_delta", I16), ("known_chosen", I16), ("deck_left", I16),
        ("implicit_skip", BOOL), ("round_ended", BOOL)),
    "powers": _schema(
        *KEY, ("round", I32), ("turn", I32), ("seq", I32), ("player", STR), ("card", STR),
        ("card_value", I16), ("power", STR), ("outcome", STR), ("used", BOOL),
        ("use_seq", I32), ("target_player", STR), ("target_position", I16), ("seen", STR),
        ("seen_value", I16), ("swap_player_a", STR), ("swap_position_a", I16),
        ("swap_player_b", STR), ("swap_position_b", I16), ("user_involved", BOOL),
        ("given", STR), ("given_value", I16), ("received", STR), ("received_value", I16),
        ("knew_given", BOOL), ("knew_received", BOOL), ("gain", I16)),
    "cabo_calls": _schema(
        *KEY, ("round", I32), ("seq", I32), ("turn", I32), ("caller_turn", I32),
        ("caller", STR), ("n_players", I16), ("hand_cards", I16), ("total_at_call", I16),
        ("known_cards", I16), ("known_total", I16), ("unknown_cards", I16),
        ("lowest_other_at_call", I16), ("total_at_end", I16), ("lowest_other_at_end", I16),
        ("success", BOOL), ("points", I64), ("special_round", BOOL),
        ("caller_forfeited", BOOL)),
}

GAME_TABLES: tuple[str, ...] = tuple(SCHEMAS)
# the ``events`` columns that no event writes: the chunk fills its kind and its line's time
CHUNK_FILLED: tuple[str, ...] = ("type", "t_ms", "t_iso")
# the columns of each table after its key (game_id, ruleset): the order of a row's tuple
COLUMNS: dict[str, tuple[str, ...]] = {
    name: tuple(schema.names[2:]) for name, schema in SCHEMAS.items()}

# What crosses from a worker to the writer: game_id and ruleset dictionary-encoded.
WIRE: dict[str, pa.Schema] = {
    name: pa.schema([pa.field(f.name, GAME_KEY) if f.name in ("game_id", "ruleset") else f
                     for f in schema])
    for name, schema in SCHEMAS.items()}
