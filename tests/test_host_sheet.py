"""The host's score sheets through its web app (Starlette's test client, addressed as served):
a sheet opened from the index's form, rounds entered as players read their cards, the points
and totals on the page worked out by hand from RULES.md (not by the engine), refused rounds
that leave the log byte for byte as it was, keys that open their own sheet only, a restart,
and a finished sheet loaded into the database."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

import duckdb
import orjson
import pytest
from starlette.testclient import TestClient

from cabo_log.log.replay import replay_file
from cabo_log.pages.table.app import create_app
from cabo_log.pages.table.clock import Timing
from cabo_log.pages.table.host import Host, HostSettings
from cabo_log.pages.table.sheet import NOBODY, key_file

BASE = "http://127.0.0.1:8000"     # the guard answers only to the address served
CELL = re.compile(r"<b>(-?\d+)</b><small>(-?\d+)(\*?)</small>")


def new_host(directory: Path, db: Path | None = None) -> Host:
    host = Host(HostSettings(directory, db=db, timing=Timing(bot_delay=0)))
    assert host.resume_all() == []
    return host


def open_sheet(client: TestClient, ruleset: str, players: list[str],
               **extra: str) -> tuple[str, str]:
    """Open a sheet through the index's form: its id and the key of its link."""
    form = {"sheet_ruleset": ruleset, **{f"player{i}": p for i, p in enumerate(players)}, **extra}
    done = client.post("/sheets", data=form, follow_redirects=False)
    assert done.status_code == 303, done.text
    found = re.fullmatch(r"/s/([\w-]+)\?key=([\w-]+)&new=1#link", done.headers["location"])
    assert found is not None, done.headers["location"]
    return found.group(1), found.group(2)


def enter(client: TestClient, sheet: str, key: str, round_no: int, caller: str | None,
          cards: list[str]) -> object:
    """Post one round as the page's form does (cards by seat)."""
    form = {"key": key, "round": str(round_no), **{f"cards{i}": c for i, c in enumerate(cards)}}
    if caller is not None:
        form["caller"] = caller
    return client.post(f"/s/{sheet}/rounds", data=form, follow_redirects=False)


def page_scores(text: str) -> tuple[list[list[tuple[int, int, bool]]], list[int]]:
    """Each round's cells (points, total, reset mark) and the totals row, read off the page."""
    rounds = []
    for row in re.findall(r'<tr class="pts" id="r\d+">(.*?)</tr>', text, re.S):
        rounds.append([(int(p), int(t), bool(m)) for p, t, m in CELL.findall(row)])
    foot = re.search(r"<tfoot>(.*?)</tfoot>", text, re.S)
    assert foot is not None
    totals = [int(v) for v in re.findall(r"<td[^>]*>(-?\d+)</td>", foot.group(1))]
    return rounds, totals


def sheet_path(host: Host, sheet: str) -> Path:
    return host.sheets[sheet].path


@pytest.fixture
def host(tmp_path: Path) -> Host:
    return new_host(tmp_path)


# edition1 (RULES.md): the lowest hand scores 0 (only the caller, when among the lowest); a
# failed caller scores total + 5; exactly 100 goes back to 50, every time; the match ends when
# someone has more than 100; the lowest total wins.
ROUNDS = [
    ("ana", ["1 2 3 4", "13 13 12 11"]),     # ana 10 lowest, calls: 0; bruno 49
    ("bruno", ["0 0 1 1", "13 12 11 10"]),   # bruno 46 calls, ana 2 lower: 46 + 5 = 51;
                                             # ana 0. bruno 49 + 51 = 100 exactly: back to 50
    ("ana", ["0 0 1 1", "13 13 12 11"]),     # ana 0; bruno 49: 50 + 49 = 99
    ("ana", ["2 2 3 3", "13 12 11 10"]),     # ana 0; bruno 46: 145 > 100, the match ends
]
BY_HAND = [  # (points, total, reset) for ana, bruno after each round
    [(0, 0, False), (49, 49, False)],
    [(0, 0, False), (51, 50, True)],
    [(0, 0, False), (49, 99, False)],
    [(0, 0, False), (46, 145, False)],
]


def test_a_match_entered_round_by_round(host: Host) -> None:
    with TestClient(create_app(host), base_url=BASE) as client:
        sheet, key = open_sheet(client, "edition1", ["ana", "bruno"])
        path = sheet_path(host, sheet)
        first = client.get(f"/s/{sheet}?key={key}&new=1")
        assert first.status_code == 200
        assert "Round 1" in first.text and 'name="cards0"' in first.text
        assert "nobody" not in first.text     # edition1: only a call ends a round
        assert f"/s/{sheet}?key={key}" in first.text      # the link to share
        for number, (caller, cards) in enumerate(ROUNDS, 1):
            done = enter(client, sheet, key, number, caller, cards)
            assert done.status_code == 303, done.text  # type: ignore[attr-defined]
            assert done.headers["location"] == f"/s/{sheet}?key={key}#totals"  # type: ignore[attr-defined]
            page = client.get(f"/s/{sheet}?key={key}").text
            rounds, totals = page_scores(page)
            assert rounds == BY_HAND[:number]
            assert totals == [c[1] for c in BY_HAND[number - 1]]
        assert "* exactly 100: back to 50 (bruno)" in page
        assert "bruno called Cabo and failed: hand total + 5" in page
        assert "The match is over: ana wins. Final scores: ana 0, bruno 145." in page
        assert 'action="/s/' not in page      # no form once the match is over
    lines = [orjson.loads(raw) for raw in path.read_bytes().splitlines()]
    header = lines[0]
    assert header["record"] == "tally" and header["chain"] == "sha256"
    assert header["sheet"] == {"by": "cabo-log host"} and header["players"] == ["ana", "bruno"]
    assert key not in path.read_text() and key not in key_file(path).read_text()
    assert [(ln["type"], ln["round"], ln["caller"]) for ln in lines[1:]] == [
        ("tally", n, c) for n, (c, _) in enumerate(ROUNDS, 1)]
    assert lines[1]["hands"] == {"ana": ["1", "2", "3", "4"], "bruno": ["13", "13", "12", "11"]}
    assert all("h" in ln for ln in lines[1:])
    result = replay_file(path)          # the chain and every round check out on a replay
    assert result.error is None and result.state is not None and result.state.complete
    assert [[r.points["ana"], r.points["bruno"]] for r in result.state.rounds] == [
        [a[0], b[0]] for a, b in BY_HAND]


def test_refused_rounds_change_nothing_and_say_why(host: Host) -> None:
    with TestClient(create_app(host), base_url=BASE) as client:
        sheet, key = open_sheet(client, "edition1", ["ana", "bruno"])
        path = sheet_path(host, sheet)
        assert enter(client, sheet, key, 1, *ROUNDS[0]).status_code == 303  # type: ignore[attr-defined]
        before = path.read_bytes()
        refusals = [
            (2, "ana", ["1 14 3", "2 3"], "ana&#39;s cards: 14 is not a value of this ruleset"
                                           "&#39;s deck (edition1: 0, 1, 2"),
            (2, "ana", ["13 13 1 1", "13 2 3 4"],
             "round 2 shows 3 x 13, but the edition1 deck holds 2"),
            (2, None, ["1 2", "3 4"], "choose who called Cabo"),
            (2, NOBODY, ["1 2", "3 4"], "in edition1 a round ends only after a Cabo call"),
            (2, "zoe", ["1 2", "3 4"], "zoe does not play in round 2"),
            (2, "ana", ["1 2", ""], "type bruno&#39;s cards, or - for a row with no cards"),
            (1, *ROUNDS[0], "this form was for round 1, but the sheet is at round 2"),
        ]
        for number, caller, cards, why in refusals:
            done = enter(client, sheet, key, number, caller, cards)  # type: ignore[arg-type]
            assert done.status_code == 400, why  # type: ignore[attr-defined]
            assert f"Not written: {why}" in done.text, done.text  # type: ignore[attr-defined]
            assert "Traceback" not in done.text  # type: ignore[attr-defined]
            assert path.read_bytes() == before, why
        # the form comes back as it was typed
        done = enter(client, sheet, key, 2, "ana", ["13 13 1 1", "13 2 3 4"])
        assert 'value="13 13 1 1"' in done.text  # type: ignore[attr-defined]
        assert re.search(r'value="ana" checked', done.text)  # type: ignore[attr-defined]
        for number, (caller, cards) in enumerate(ROUNDS[1:], 2):
            assert enter(client, sheet, key, number, caller, cards).status_code == 303  # type: ignore[attr-defined]
        over = path.read_bytes()
        late = enter(client, sheet, key, 5, "ana", ["1 2 3 4", "5 6 7 8"])
        assert late.status_code == 400  # type: ignore[attr-defined]
        assert "Not written: the match is over; no more rounds are scored" in late.text  # type: ignore[attr-defined]
        assert path.read_bytes() == over


def test_a_key_opens_its_own_sheet_only(host: Host) -> None:
    with TestClient(create_app(host), base_url=BASE) as client:
        one, key_one = open_sheet(client, "edition2", ["ana", "bruno"])
        two, key_two = open_sheet(client, "edition2", ["cy", "di"])
        assert len(key_one) >= 43 and key_one != key_two     # 256 random bits each
        path = sheet_path(host, two)
        before = path.read_bytes()
        for key in (key_one, "", "x", key_two[:-1] + ("A" if key_two[-1] != "A" else "B")):
            done = enter(client, two, key, 1, "cy", ["1 2", "3 4"])
            assert done.status_code == 403, key  # type: ignore[attr-defined]
            assert path.read_bytes() == before
        assert client.get(f"/s/{two}?key={key_one}").status_code == 403
        scores = client.get(f"/s/{two}")    # without a key: the scores, no form
        assert scores.status_code == 200 and "cards0" not in scores.text
        assert "entering rounds needs the sheet" in scores.text
        assert "nobody (the draw pile ran out)" in client.get(f"/s/{two}?key={key_two}").text
        assert enter(client, two, key_two, 1, NOBODY, ["1 2", "3 4"]).status_code == 303  # type: ignore[attr-defined]
        assert client.get("/s/nope").status_code == 404
        index = client.get("/").text
        assert f'href="/s/{one}"' in index and f'href="/s/{two}"' in index
        assert key_one not in index and key_two not in index
        # the guard: another Host is refused, the page carries the policy
        assert client.get(f"/s/{two}", headers={"host": "evil.example:8000"}).status_code == 400
        page = client.get(f"/s/{two}")
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert "<script" not in page.text


def test_names_are_text_and_bad_sheets_are_refused_in_words(host: Host) -> None:
    with TestClient(create_app(host), base_url=BASE) as client:
        sheet, key = open_sheet(client, "edition1", ["<b>ana</b>", "bo&"])
        for text in (client.get("/").text, client.get(f"/s/{sheet}?key={key}").text):
            assert "<b>ana</b>" not in text and "&lt;b&gt;ana&lt;/b&gt;" in text
        two = {"player0": "a", "player1": "b"}
        refused = [({"sheet_ruleset": "edition1", "player0": "solo"},
                    "edition1 is for 2 to 5 players"),
                   ({"sheet_ruleset": "edition1", "player0": "a", "player1": "a"}, "same name"),
                   ({"sheet_ruleset": "poker", **two}, "unknown ruleset"),
                   ({"sheet_house": "[1]", **two}, "a JSON object")]
        for form, why in refused:
            done = client.post("/sheets", data=form)
            assert done.status_code == 400 and why in html.unescape(done.text), why
        rules = '{"base": "edition2", "caller_penalty": 7, "name": "ours"}'
        house = client.post("/sheets", data={"sheet_house": rules, **two},
                            follow_redirects=False)
        assert house.status_code == 303
    assert len(host.sheets) == 2
    assert sorted(s.state.rules.caller_penalty for s in host.sheets.values()) == [5, 7]


def test_golf_kings_count_by_the_value_typed(host: Host) -> None:
    """Golf: a king is 13 black, -1 red; the keeper types the value (the page says so), and
    a bare K is refused as the terminal keeper refuses it."""
    with TestClient(create_app(host), base_url=BASE) as client:
        sheet, key = open_sheet(client, "golf", ["ana", "bruno"])
        page = client.get(f"/s/{sheet}?key={key}").text
        assert "K counts by its suit: K♦ K♥ = -1, K♣ K♠ = 13." in page
        refused = enter(client, sheet, key, 1, "ana", ["K 1", "2 3"])
        assert "K is worth -1 or 13 in golf" in refused.text  # type: ignore[attr-defined]
        # ana: -1 + -1 + 1 + 2 = 1, bruno: 13 + 13 + 3 = 29; ana calls, strictly lower: 0
        assert enter(client, sheet, key, 1, "ana", ["-1 -1 A 2", "13 13 3"]).status_code == 303  # type: ignore[attr-defined]
        rounds, totals = page_scores(client.get(f"/s/{sheet}?key={key}").text)
        assert rounds == [[(0, 0, False), (29, 29, False)]] and totals == [0, 29]
        hands = orjson.loads(sheet_path(host, sheet).read_bytes().splitlines()[1])["hands"]
        assert {c[-1] for c in hands["ana"][:2]} <= {"H", "D"}
        assert {c[-1] for c in hands["bruno"][:2]} <= {"S", "C"}


def test_a_player_leaves_under_forfeit_rules(host: Host) -> None:
    with TestClient(create_app(host), base_url=BASE) as client:
        sheet, key = open_sheet(client, "online", ["ana", "bruno", "carla"])
        assert "A player left the match" in client.get(f"/s/{sheet}?key={key}").text
        done = client.post(f"/s/{sheet}/leave", data={"key": key, "player": "carla"},
                           follow_redirects=False)
        assert done.status_code == 303
        page = client.get(f"/s/{sheet}?key={key}").text
        assert "carla <span class=\"muted\">(left)</span>" in page
        assert 'name="cards0"' in page and 'name="cards1"' in page
        assert 'name="cards2"' not in page      # round 1 is ana's and bruno's
    last = orjson.loads(sheet_path(host, sheet).read_bytes().splitlines()[-1])
    assert last["type"] == "forfeit" and last["player"] == "carla"


def test_a_restarted_host_carries_on_with_its_sheets(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    with TestClient(create_app(host), base_url=BASE) as client:
        sheet, key = open_sheet(client, "edition1", ["ana", "bruno"])
        empty, empty_key = open_sheet(client, "edition2", ["cy", "di"])
        assert enter(client, sheet, key, 1, *ROUNDS[0]).status_code == 303  # type: ignore[attr-defined]
    # the app's lifespan closed every log when the client stopped; a new host reads them back
    again = new_host(tmp_path)
    assert set(again.sheets) == {sheet, empty}
    with TestClient(create_app(again), base_url=BASE) as client:
        assert enter(client, sheet, key, 2, *ROUNDS[1]).status_code == 303  # type: ignore[attr-defined]
        rounds, totals = page_scores(client.get(f"/s/{sheet}").text)
        assert rounds == BY_HAND[:2] and totals == [0, 50]
        # a sheet with its header only carries on chained (the header declares the chain)
        assert enter(client, empty, empty_key, 1, "cy", ["1 2", "3 4"]).status_code == 303  # type: ignore[attr-defined]
        assert enter(client, empty, key, 2, "cy", ["1 2", "3 4"]).status_code == 403  # type: ignore[attr-defined]
    for name in (sheet, empty):
        path = tmp_path / f"{name}.jsonl"
        assert all(b'"h":' in raw for raw in path.read_bytes().splitlines()[1:])
        assert replay_file(path).error is None


def test_a_finished_sheet_is_loaded_into_the_database(tmp_path: Path) -> None:
    db = tmp_path / "cabo.duckdb"
    (tmp_path / "games").mkdir()
    host = new_host(tmp_path / "games", db=db)
    with TestClient(create_app(host), base_url=BASE) as client:
        sheet, key = open_sheet(client, "edition1", ["ana", "bruno"])
        for number, (caller, cards) in enumerate(ROUNDS, 1):
            assert enter(client, sheet, key, number, caller, cards).status_code == 303  # type: ignore[attr-defined]
        end = time.monotonic() + 60
        while sheet not in host.load_notes:
            assert time.monotonic() < end, "the sheet was not loaded"
            time.sleep(0.05)
        assert host.load_notes[sheet] == f"loaded into {db.name}"
        assert "Database: loaded into cabo.duckdb" in client.get(f"/s/{sheet}").text
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select count(*) from games").fetchone() == (1,)
        points = con.execute("select round, player, points from round_scores "
                             "order by round, player").fetchall()
    assert points == [(n, p, BY_HAND[n - 1][i][0]) for n in range(1, 5)
                      for i, p in enumerate(["ana", "bruno"])]


def test_the_command_answers_the_names_allowed(tmp_path: Path) -> None:
    """``host --allow-host NAME``: requests addressed to NAME are answered, others refused;
    the sheets in --dir are resumed and said so."""
    import http.client
    import socket
    import subprocess
    import sys

    host = new_host(tmp_path)
    with TestClient(create_app(host), base_url=BASE) as client:
        open_sheet(client, "edition1", ["ana", "bruno"])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "cabo_log", "host", "--dir", str(tmp_path),
                             "--port", str(port), "--allow-host", "cabo.lan"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        answers = {}
        while not answers:
            assert proc.poll() is None and time.monotonic() < end, "the host did not start"
            try:
                for name in ("cabo.lan", "other.lan", "127.0.0.1"):
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    conn.request("GET", "/", headers={"Host": f"{name}:{port}"})
                    answers[name] = conn.getresponse().status
                    conn.close()
            except OSError:
                answers = {}
                time.sleep(0.1)
        assert answers == {"cabo.lan": 200, "other.lan": 400, "127.0.0.1": 200}
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    assert "resumed 1 score sheet(s) in progress" in out
    assert "Traceback" not in err


def test_a_full_host_makes_room_with_a_finished_sheet(tmp_path: Path) -> None:
    from cabo_log.pages.table.host import OpenError

    host = Host(HostSettings(tmp_path, max_sheets=1))
    first = host.open_sheet("edition1", ["ana", "bruno"]).sheet
    with pytest.raises(OpenError, match="holds 1 score sheets already"):
        host.open_sheet("edition1", ["cy", "di"])
    for number, (caller, cards) in enumerate(ROUNDS, 1):
        first.enter(number, caller, {"ana": cards[0], "bruno": cards[1]})
    second = host.open_sheet("edition1", ["cy", "di"]).sheet
    assert list(host.sheets) == [second.id]
    assert first.log.fd is None                  # its log closed: its lock released
    done = replay_file(first.path)
    assert done.error is None and done.state is not None and done.state.complete
    host.close()
