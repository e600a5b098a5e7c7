"""Write the code that ``engine/spec.py`` implies: every module that spells an event kind's
fields out, as plain typed Python that the compiled build turns into native code (a class
built at import from the spec would stay a generic, interpreted thing there).

The generated modules are checked in; ``tests/test_event_spec.py`` fails when one differs
from what this script writes, so a change to the spec is a change to the spec, then a run::

    .venv/bin/python tools/gen_events.py            # write the modules
    .venv/bin/python tools/gen_events.py --check    # exit 1 when one is not current

What it writes, from each kind's fields and their JSON shapes (``gen_engine`` the engine's
modules, ``gen_fast`` the fast path's, ``gen_common`` what they share):

- ``engine/events.py``: the event classes (slots, constructor, ``TYPE``, ``FIELDS``).
- ``engine/parsers.py``: the strict parser of each kind (``PARSERS``), with the readers of
  ``engine/readers.py``.
- ``engine/builders.py``: an event from a decoded struct's attributes (``BUILDERS``) or from
  its values in order (``MAKERS``).
- ``cabo_log/log/fast_structs.py``: the fast decoder's msgspec structs.
- ``cabo_log/log/line_events.py``: the fast path's events and canonical line sizes from
  decoded values (``events_of``); each kind's fixed bytes are counted here, from the spec.
- ``cabo_log/log/line_scan.py``: the native scan of a body, a reader per kind of the lines
  written canonically (with ``cabo_log/log/scanner.py``'s readers).
- ``cabo_log/play/line_text.py``: the simulator's line text after ``seq``.
- ``cabo_log/db/row_tables.py``: the row stage's tables, a builder per column; and
  ``row_sink.py``: where a chunk's rows are written, and the chain that hands each event to
  its kind's handler (``gen_rows``, from ``cabo_log/db/schema.py`` too).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_common import ROOT  # noqa: E402
from gen_engine import builders_module, events_module, parsers_module  # noqa: E402
from gen_fast import line_events_module, line_scan_module, line_text_module, structs_module  # noqa: E402
from gen_rows import row_sink_module, row_tables_module  # noqa: E402


def modules() -> dict[str, str]:
    """Every generated module's path (from the repository's root) and text, formatted."""
    texts = {
        "engine/events.py": events_module(),
        "engine/parsers.py": parsers_module(),
        "engine/builders.py": builders_module(),
        "cabo_log/log/fast_structs.py": structs_module(),
        "cabo_log/log/line_events.py": line_events_module(),
        "cabo_log/log/line_scan.py": line_scan_module(),
        "cabo_log/play/line_text.py": line_text_module(),
        "cabo_log/db/row_tables.py": row_tables_module(),
        "cabo_log/db/row_sink.py": row_sink_module(),
    }
    return {path: fix(path, text) for path, text in texts.items()}


def fix(path: str, text: str) -> str:
    """The text as ``ruff check --fix`` leaves it (the imports sorted), so that the checked-in
    module passes the linter as written."""
    ruff = Path(sys.executable).with_name("ruff")
    run = subprocess.run([str(ruff), "check", "--fix-only", "--quiet", "--select", "I,F401",
                          "--stdin-filename", str(ROOT / path), "-"], input=text, cwd=ROOT,
                         check=False, capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout:
        raise SystemExit(f"ruff could not format {path}: {run.stderr}")
    return run.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a generated module is not what the spec gives")
    args = parser.parse_args()
    stale = []
    for path, text in modules().items():
        target = ROOT / path
        if target.exists() and target.read_text() == text:
            continue
        stale.append(path)
        if not args.check:
            target.write_text(text)
    if args.check and stale:
        print("not current (run tools/gen_events.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    for path in stale:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
