"""DuckDB's side of a load in isolation: the same Arrow batches appended into a fresh database,
the way ``writer.Writer`` appends them and in variants, CPU and wall time of each.

The batches are what a load's workers spool (``replay_files.replay_to_spool``), made once from
a corpus and kept in ``--spool`` (Arrow IPC files, memory-mapped like the load maps them).

Usage::

    .venv/bin/python benchmarks/duckdb_append.py build/bench-load/corpus-2000 --repeat 3

Each variant runs in a fresh child process (DuckDB's allocator and caches start cold, as in a
load), best of ``--repeat``; CPU is the process's (DuckDB's threads included), the close (the
checkpoint that folds the write-ahead log in) counted. ``--instructions`` counts the child's
instructions instead (valgrind's callgrind; minutes a variant, unaffected by a busy machine).
Variants of the stored layout (``drop``, ``retype``) change the empty tables before the
append: what a layout would save, before anything of it is built.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cabo_log.db.settings import DEFAULTS

ROOT = Path(__file__).resolve().parent.parent


def make_spool(corpus: Path, spool: Path) -> None:
    """The workers' Arrow files of the whole corpus, in the load's chunks (kept, with
    ``index.json``: where each chunk's tables lie in its file)."""
    import json
    import shutil

    from cabo_log.db.loader import _chunks
    from cabo_log.db.replay_files import Spooled, Task, replay_to_spool
    from cabo_log.workers import Pool

    if (spool / "index.json").exists():
        return
    shutil.rmtree(spool, ignore_errors=True)   # none, or a spool of an older format
    spool.mkdir(parents=True, exist_ok=True)
    tasks = [Task(str(p), p.stat().st_size, None) for p in sorted(corpus.rglob("*.jsonl"))]
    index = []
    with Pool(2, preload=["cabo_log.db.replay_files"]) as pool:
        jobs = (Spooled(str(spool), n, c, DEFAULTS.spool_buffer)
                for n, c in enumerate(_chunks(tasks, DEFAULTS)))
        for _, spooled in pool.imap(replay_to_spool, jobs):
            if spooled is not None:
                index.append([spooled.path, spooled.parts])
    (spool / "index.json").write_text(json.dumps(index))


def chunks_of(spool: Path) -> list[dict[str, list[Any]]]:
    """The spooled batches, chunk by chunk in the load's order, memory-mapped."""
    import json

    import pyarrow as pa

    chunks = []
    for path, parts in json.loads((spool / "index.json").read_text()):
        mapped = pa.memory_map(path).read_buffer()
        chunks.append({table: list(pa.ipc.open_stream(mapped.slice(offset, size)))
                       for table, offset, size in parts})
    return chunks


def child(spool: Path, db: Path, variant: dict[str, Any]) -> dict[str, float]:
    """One append of every chunk into a fresh database, as ``variant`` says."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from cabo_log.db import database
    from cabo_log.db.event_tables import KINDS, STORED, stored
    from cabo_log.db.load_connection import open_for_load

    chunks = chunks_of(spool)
    cast = variant.get("cast")       # column -> "dict" | "view": the events' text columns
    if cast:
        out = []
        games = 0    # "game": the games of the chunks before
        for chunk in chunks:
            new = {}
            for table, batches in chunk.items():
                t = pa.Table.from_batches(batches)
                if table in KINDS and cast["to"] == "game":   # a game number for the key
                    key = t.column("game_id").combine_chunks()
                    t = t.drop_columns(["game_id", "ruleset"]).append_column(
                        "game", pc.add(key.indices, games))
                elif table in KINDS:   # the events tables (event_tables)
                    for name in (n for n in cast["columns"] if n in t.column_names):
                        i = t.schema.get_field_index(name)
                        col = t.column(i)
                        if cast["to"] == "code":   # the index in its distinct values
                            col = pc.dictionary_encode(col).combine_chunks()
                            col = col.indices.cast(pa.uint8())
                        else:
                            col = (pc.dictionary_encode(col) if cast["to"] == "dict"
                                   else col.cast(pa.string_view()))
                        t = t.set_column(i, name, col)
                new[table] = t.combine_chunks().to_batches()
            games += sum(b.num_rows for b in chunk.get("games", []))
            out.append(new)
        chunks = out
    for suffix in ("", ".wal"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    if "storage" in variant:   # as ``open_for_load``, the file made for an older DuckDB
        import duckdb

        con = duckdb.connect(":memory:")
        con.execute(f"ATTACH '{db}' AS {database.ALIAS} "
                    f"(ROW_GROUP_SIZE {DEFAULTS.row_group_size}, "
                    f"STORAGE_VERSION '{variant['storage']}')")
        con.execute(f"USE {database.ALIAS}")
        con.execute(f"SET memory_limit = '{DEFAULTS.duckdb_memory}'")
        con.execute(f"SET checkpoint_threshold = '{DEFAULTS.wal_bytes}'")
        con.execute(f"SET write_buffer_row_group_count = {DEFAULTS.write_buffer_row_groups}")
    elif "row_group_size" in variant:   # as ``open_for_load``, another row group size
        con = database.connect(db, read_only=False, row_group_size=variant["row_group_size"])
        con.execute(f"SET memory_limit = '{DEFAULTS.duckdb_memory}'")
        con.execute(f"SET checkpoint_threshold = '{DEFAULTS.wal_bytes}'")
    else:
        con = open_for_load(db)
    database.ensure_schema(con, db)
    gone = reshape(con, variant)
    con.execute("SET threads = 1")   # as the load sets it while its workers replay
    for sql in variant.get("settings", []):
        con.execute(sql)
    flush = int(variant.get("flush", DEFAULTS.flush_rows))
    commit = int(variant.get("commit", DEFAULTS.commit_rows))
    mode = variant.get("mode", "from_arrow")
    cur = database.use_same(con)
    if os.environ.get("DUCKDB_APPEND_DRY"):   # ``--instructions``: all but the append
        con.close()
        return {"wall": 0.0, "cpu": 0.0, "size": 0.0, "rss": 0.0, "append": 0.0,
                "commit": 0.0, "checkpoint": 0.0, "tail": 0.0, "tail_wall": 0.0}
    started, cpu = time.perf_counter(), time.process_time()
    pending: dict[str, list[Any]] = {}
    rows = opened = 0
    stage = {"append": 0.0, "commit": 0.0}

    def write(final: bool) -> None:
        nonlocal pending, rows, opened
        t0 = time.process_time()
        if not opened:
            cur.execute("BEGIN TRANSACTION")
        for name, batches in pending.items():
            got = pa.Table.from_batches(batches)
            parts = (stored(name, got) if not (cast and cast["to"] == "game" and name in KINDS)
                     else [(name, got.select([n for n in STORED[name].names
                                              if n not in ("game_id", "ruleset")] + ["game"]))])
            for table, rows_of in parts:
                data = rows_of.drop_columns(
                    [n for n in gone.get(table, ()) if n in rows_of.column_names])
                if mode == "register":   # as ``writer.Writer.insert`` into an older table
                    cur.register("_incoming", data)
                    cur.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _incoming")
                    cur.unregister("_incoming")
                elif mode == "from_arrow":   # as ``writer.Writer.insert``
                    cur.from_arrow(data).insert_into(table)
                elif mode == "append":
                    cur.append(table, data, by_name=True)
        opened += rows
        pending, rows = {}, 0
        t1 = time.process_time()
        stage["append"] += t1 - t0
        if final or opened >= commit:
            cur.execute("COMMIT")
            opened = 0
            stage["commit"] += time.process_time() - t1
            if variant.get("checkpoint_each") and not final:
                cur.execute("CHECKPOINT")
                stage["commit"] += time.process_time() - t1

    for chunk in chunks:
        for table, batches in chunk.items():
            pending.setdefault(table, []).extend(batches)
            rows += sum(b.num_rows for b in batches)
        if rows >= flush:
            write(False)
    t_last = time.process_time()
    tail_started = time.perf_counter()
    if variant.get("tail_threads"):
        cur.execute("RESET threads")   # as the load does once its workers are done
    write(True)
    t2 = time.process_time()
    stage["last"] = t2 - t_last
    if variant.get("checkpoint", True):
        con.execute("CHECKPOINT")
    stage["checkpoint"] = time.process_time() - t2
    cur.close()
    con.close()
    stage["tail"] = stage.pop("last") + time.process_time() - t2   # after the last chunk
    stage["tail_wall"] = time.perf_counter() - tail_started
    import resource
    return {"wall": time.perf_counter() - started, "cpu": time.process_time() - cpu,
            "size": db.stat().st_size / 2**20,
            "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, **stage}


def reshape(con: Any, variant: dict[str, Any]) -> dict[str, set[str]]:
    """A variant's stored layout: columns dropped (``drop``: table prefix -> columns) or
    retyped (``retype``: table prefix -> {column: SQL type}) in the empty tables; the columns
    dropped of each table (left out of its rows)."""
    if "compress" in variant:   # each column's compression named in its table's DDL
        compress(con, variant["compress"])
    drop: dict[str, list[str]] = variant.get("drop", {})
    retype: dict[str, dict[str, str]] = variant.get("retype", {})
    if not (drop or retype or variant.get("add")):   # (``compress``: done above)
        return {}
    con.execute("DROP VIEW IF EXISTS events")
    tables = [r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables").fetchall()]
    gone: dict[str, set[str]] = {}
    for table in tables:
        cols = {r[0] for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
            [table]).fetchall()}
        for prefix, names in drop.items():
            if table.startswith(prefix):
                for name in set(names) & cols:
                    con.execute(f'ALTER TABLE {table} DROP COLUMN "{name}"')
                    gone.setdefault(table, set()).add(name)
        for prefix, cols_of in variant.get("add", {}).items():
            if table.startswith(prefix):
                for name, sql in cols_of.items():
                    con.execute(f'ALTER TABLE {table} ADD COLUMN "{name}" {sql}')
        for prefix, types in retype.items():
            if table.startswith(prefix):
                for name, sql in types.items():
                    if name in cols:
                        con.execute(f'ALTER TABLE {table} ALTER "{name}" TYPE {sql}')
    return gone


def compress(con: Any, methods: dict[str, str]) -> None:
    """The empty tables made again with each column's compression named (``USING
    COMPRESSION``), by its SQL type (``methods``; a type not named: DuckDB's choice)."""
    from cabo_log.db.database import ALL_SCHEMAS, duck_type
    from cabo_log.db.event_tables import STORED, VIEW, view_sql

    con.execute(f"DROP VIEW IF EXISTS {VIEW}")
    for name, schema in {**{k: v for k, v in ALL_SCHEMAS.items() if k != VIEW},
                         **STORED}.items():
        con.execute(f"DROP TABLE {name}")
        cols = []
        for f in schema:
            sql = duck_type(f.type)
            using = f" USING COMPRESSION {methods[sql]}" if sql in methods else ""
            cols.append(f'"{f.name}" {sql}{using}')
        con.execute(f"CREATE TABLE {name} ({', '.join(cols)})")
    con.execute(f"CREATE VIEW {VIEW} AS {view_sql()}")


CARDS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13",
         *(r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                            "J", "Q", "K")), "JK")
GAME_TABLES = ("events_", "powers", "rounds", "round_scores", "game_players", "cabo_calls")
LOW = ["type", "player", "first_player", "source", "end_side", "power", "reason", "claim",
       "penalty", "target_player", "swap_player_a", "swap_player_b", "earned", "given",
       "received", "card"]

VARIANTS: dict[str, dict[str, Any]] = {
    "as the writer (from_arrow().insert_into)": {},   # row groups of row_group_size
    "register + INSERT BY NAME": {"mode": "register"},
    "con.append(by_name)": {"mode": "append"},
    "preserve_insertion_order = false": {"settings": ["SET preserve_insertion_order = false"]},
    "threads = 2": {"settings": ["SET threads = 2"]},
    "no FSST": {"settings": ["SET disabled_compression_methods = 'fsst'"]},
    "no FSST, no dictionary": {"settings": [
        "SET disabled_compression_methods = 'fsst,dictionary'"]},
    "events text dictionary-encoded": {"cast": {"to": "dict", "columns": LOW}},
    "events text string_view": {"cast": {"to": "view", "columns": LOW}},
    "no dict_fsst": {"settings": ["SET disabled_compression_methods = 'dict_fsst'"]},
    "no zstd": {"settings": ["SET disabled_compression_methods = 'zstd'"]},
    "no zstd, no fsst": {"settings": ["SET disabled_compression_methods = 'zstd,fsst'"]},
    "no zstd, no fsst, no dictionary": {"settings": [
        "SET disabled_compression_methods = 'zstd,fsst,dictionary'"]},
    "no zstd, chimp, patas, alp, alprd": {"settings": [
        "SET disabled_compression_methods = 'zstd,chimp,patas,alp,alprd'"]},
    "force_compression bitpacking": {"settings": ["SET force_compression = 'bitpacking'"]},
    "force_compression dict_fsst": {"settings": ["SET force_compression = 'dict_fsst'"]},
    "each column's compression named: text dict_fsst, integers bitpacking": {"compress": {
        "VARCHAR": "dict_fsst", "SMALLINT": "bitpacking", "INTEGER": "bitpacking",
        "BIGINT": "bitpacking"}},
    "no zstd, rle": {"settings": ["SET disabled_compression_methods = 'zstd,rle'"]},
    "memory_limit 1GB": {"settings": ["SET memory_limit = '1GB'"]},
    "memory_limit 128MB": {"settings": ["SET memory_limit = '128MB'"]},
    "memory_limit 192MB": {"settings": ["SET memory_limit = '192MB'"]},
    "memory_limit 256MB": {"settings": ["SET memory_limit = '256MB'"]},
    "block_allocator_memory 256MB": {"settings": ["SET block_allocator_memory = '256MB'"]},
    "allocator_flush_threshold 1GB": {"settings": ["SET allocator_flush_threshold = '1GB'"]},
    "write_buffer_row_group_count 1": {"settings": ["SET write_buffer_row_group_count = 1"]},
    "no optimistic write": {"settings": ["SET enable_optimistic_write = false"]},
    "row groups of 122880 (DuckDB's default)": {"row_group_size": 122880},
    "row groups of 61440": {"row_group_size": 61440},
    "row groups of 16384": {"row_group_size": 16384},
    "events without ruleset": {"drop": {"events_": ["ruleset"]}},
    "no ruleset but in games": {"drop": {t: ["ruleset"] for t in GAME_TABLES}},
    "events without line": {"drop": {"events_": ["line"]}},
    "events without game_id, ruleset": {"drop": {"events_": ["game_id", "ruleset"]}},
    "no game_id, ruleset but in games": {"drop": {t: ["game_id", "ruleset"]
                                                  for t in GAME_TABLES}},
    "events ints smaller": {"retype": {"events_": {
        "seq": "USMALLINT", "round": "UTINYINT", "turn": "USMALLINT", "value": "TINYINT",
        "deck_left": "TINYINT", "row_delta": "TINYINT", "known_chosen": "UTINYINT",
        "line": "INTEGER"}}},
    "events closed words ENUM": {"retype": {"events_": {
        "source": "ENUM('deck', 'discard')", "end_side": "ENUM('left', 'right')",
        "power": "ENUM('peek', 'spy', 'swap')", "earned": "ENUM('peek', 'spy', 'swap')",
        "type": "ENUM('game', 'draw', 'discard', 'replace', 'power', 'skip', 'cabo', "
                "'snap', 'deal', 'peek', 'reshuffle', 'forfeit', 'round_end', 'game_end')"}}},
    "events closed words ENUM, dictionary-encoded": {
        "cast": {"to": "dict", "columns": ["source", "end_side", "power", "earned", "type"]},
        "retype": {"events_": {
            "source": "ENUM('deck', 'discard')", "end_side": "ENUM('left', 'right')",
            "power": "ENUM('peek', 'spy', 'swap')", "earned": "ENUM('peek', 'spy', 'swap')",
            "type": "ENUM('game', 'draw', 'discard', 'replace', 'power', 'skip', 'cabo', "
                    "'snap', 'deal', 'peek', 'reshuffle', 'forfeit', 'round_end', 'game_end')"}}},
    "events closed words and cards ENUM": {"retype": {"events_": {
        "source": "ENUM('deck', 'discard')", "end_side": "ENUM('left', 'right')",
        "power": "ENUM('peek', 'spy', 'swap')", "earned": "ENUM('peek', 'spy', 'swap')",
        "type": "ENUM('game', 'draw', 'discard', 'replace', 'power', 'skip', 'cabo', "
                "'snap', 'deal', 'peek', 'reshuffle', 'forfeit', 'round_end', 'game_end')",
        **{name: "ENUM(" + ", ".join(f"'{c}'" for c in CARDS) + ")"
           for name in ("card", "penalty", "given", "received")}}}},
    "events discarded cards ENUM[]": {"retype": {"events_": {
        "discarded": "ENUM(" + ", ".join(f"'{c}'" for c in CARDS) + ")[]"}}},
    "events closed words as UTINYINT codes": {
        "cast": {"to": "code", "columns": ["source", "end_side", "power", "earned", "type"]},
        "retype": {"events_": {name: "UTINYINT" for name in (
            "source", "end_side", "power", "earned", "type")}}},
    "events keyed by a game number": {
        "cast": {"to": "game", "columns": []}, "drop": {"events_": ["game_id", "ruleset"]},
        "add": {"events_": {"game": "INTEGER"}}},
    "storage version v1.0.0": {"storage": "v1.0.0"},
    "storage version v1.2.0": {"storage": "v1.2.0"},
    "flush 400k rows": {"flush": 400_000},
    "flush 50k rows": {"flush": 50_000},
    "one commit": {"commit": 10**9},
    "the last commit and checkpoint with every thread": {"tail_threads": True},
    "checkpoint after each commit": {"checkpoint_each": True},
    "checkpoint after each commit, 256MB": {"checkpoint_each": True, "settings": [
        "SET memory_limit = '256MB'"]},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, nargs="?")
    parser.add_argument("--spool", type=Path, default=Path("build/bench-load/spool"))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", nargs="*", help="variants whose name contains any of these")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions (valgrind's callgrind) instead of CPU time")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.spool, Path(args.spool.parent / "append.duckdb"),
                               VARIANTS[args.child])))
        return
    if args.corpus is not None:
        make_spool(args.corpus, args.spool)
    names = [n for n in VARIANTS if not args.only or any(o in n for o in args.only)]
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.repeat):     # rounds: every variant once per round, interleaved
        for name in names:
            grind = (["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
                     if args.instructions else [])
            out = subprocess.run([*grind, sys.executable, __file__, "--spool", str(args.spool),
                                  "--child", name], capture_output=True, text=True)
            if out.returncode:
                print(f"{name:45s} failed: {out.stderr.strip().splitlines()[-1]}")
                continue
            got = json.loads(out.stdout)
            if args.instructions:   # "==PID== Collected : N", less those of a dry run (the
                # same child up to the append: the start, the spool, a variant's casts)
                dry = subprocess.run([*grind, sys.executable, __file__, "--spool",
                                      str(args.spool), "--child", name], capture_output=True,
                                     text=True, env={**os.environ, "DUCKDB_APPEND_DRY": "1"})
                got["cpu"] = (int(re.findall(r"Collected : (\d+)", out.stderr)[-1])
                              - int(re.findall(r"Collected : (\d+)", dry.stderr)[-1])) / 1e9
            if name not in best or got["cpu"] < best[name]["cpu"]:
                best[name] = got
    for name, b in best.items():
        print(f"{name:45s} CPU {b['cpu']:6.2f} s  wall {b['wall']:6.2f} s  "
              f"(append {b['append']:.2f}, commit {b['commit']:.2f}, "
              f"checkpoint {b['checkpoint']:.2f}; after the last chunk {b['tail']:.2f} CPU, "
              f"{b['tail_wall']:.2f} wall)  "
              f"{b['size']:.0f} MB, peak RSS {b['rss']:.0f} MB", flush=True)
        if args.instructions:
            print(f"{'':45s} {b['cpu']:.2f} G instructions (the append, commits and "
                  "checkpoint: a dry run's subtracted)")
    print(f"best of {args.repeat} interleaved rounds; load average {os.getloadavg()[0]:.1f}")

if __name__ == "__main__":
    main()
