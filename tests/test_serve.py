"""The web explorer driven with Starlette's TestClient: filters, pages, errors, escaping, the
read-only SQL console, the analysis marks when a ``decisions`` table exists."""

from __future__ import annotations

import html
import json
import re
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from serve_db import GAMES, IN_PROGRESS, KAMIKAZE, build_db
from test_timeline import EVIL, EVIL_ID

from cabo_log.log.replay import replay_file
from cabo_log.pages.web import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


BASE = "http://127.0.0.1:8000"     # the guard answers only to the address served


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("servedb"))


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, sql_seconds=1.0), base_url=BASE,
                    raise_server_exceptions=False) as c:
        yield c


def query(client: TestClient, sql: str) -> list[tuple[object, ...]]:
    """A query on the app's own connection (DuckDB refuses a second, differently configured
    connection to the same file in one process)."""
    cur = client.app.app.state.explorer.con.cursor()    # type: ignore[attr-defined]
    try:
        return list(cur.execute(sql).fetchall())
    finally:
        cur.close()


def listed(page: str) -> list[str]:
    """The game ids of a games table, in order."""
    body = page.split('<table class="data" id="games">', 1)[1].split("</table>", 1)[0]
    return [html.unescape(g) for g in re.findall(r'<a href="/games/[^"]*">([^<]*)</a>', body)]


def alert(page: str) -> str:
    found = re.search(r'class="error" role="alert">(.*?)</p>', page, re.S)
    return found.group(1) if found else ""


@pytest.fixture(scope="module")
def truth(db: Path) -> dict[str, dict[str, object]]:
    """Each game as its replay tells it (not the database)."""
    out: dict[str, dict[str, object]] = {}
    for path in sorted((db.parent / "logs").glob("*.jsonl")):
        report = replay_file(path).report()       # FORMAT.md's replay report
        out[report["game_id"]] = {"players": report["players"], "rounds": len(report["rounds"]),
                                  "ruleset": report["ruleset"],
                                  "winners": report["winners"], "complete": report["complete"]}
    return out


def test_list_and_filters(client: TestClient, truth: dict[str, dict[str, object]]) -> None:
    page = client.get("/")
    assert page.status_code == 200
    # newest first; games without a date last (ties by id, descending)
    dated = [g[0] for g in sorted(GAMES, key=lambda g: g[4], reverse=True)]
    assert listed(page.text) == [KAMIKAZE] + dated + sorted([IN_PROGRESS, EVIL_ID], reverse=True)
    checks = {
        "ruleset=golf": lambda g: g.startswith("golf"),
        "player=dora": lambda g: "dora" in truth[g]["players"],
        "winner=carla": lambda g: "carla" in truth[g]["winners"],
        "complete=no": lambda g: not truth[g]["complete"],
        "min_rounds=9&max_rounds=17": lambda g: 9 <= truth[g]["rounds"] <= 17,
        "from=2024-06-01&to=2024-06-30": lambda g: g in ("ed2-a", "ed1-a"),
    }
    for query, keep in checks.items():
        got = client.get(f"/?{query}&sort=game&order=asc")
        assert got.status_code == 200
        assert listed(got.text) == sorted(g for g in truth if keep(g)), query


def test_special_hands_filter(client: TestClient) -> None:
    special = {r[0] for r in query(
        client, "SELECT DISTINCT game_id FROM round_scores WHERE special_hand")}
    got = client.get("/?special=1&sort=game&order=asc")
    assert special and listed(got.text) == sorted(special)


def test_sort_and_pages(client: TestClient, truth: dict[str, dict[str, object]]) -> None:
    by_rounds = sorted(truth, key=lambda g: (truth[g]["rounds"], g))
    seen: list[str] = []
    for n in (1, 2, 3, 4, 5):
        page = client.get(f"/?sort=rounds&order=asc&size=2&page={n}")
        seen += listed(page.text)
    assert seen == by_rounds
    assert 'rel="next"' in client.get("/?size=2&page=1").text
    assert 'rel="next"' not in client.get("/?size=2&page=4").text


@pytest.mark.parametrize(("query", "message"), [
    ("page=0", "page must be between 1 and 10,000,000, not 0"),
    ("min_rounds=x", "min_rounds must be a whole number, not 'x'"),
    ("from=yesterday", "from must be a date like 2024-05-31, not 'yesterday'"),
    ("sort=password", "sort must be one of started, game, ruleset, rounds, players, events, "
                      "not 'password'"),
    ("complete=maybe", "complete must be yes, no or empty, not 'maybe'"),
])
def test_bad_filters_are_400(client: TestClient, query: str, message: str) -> None:
    page = client.get(f"/?{query}")
    assert page.status_code == 400
    assert alert(page.text) == message.replace("'", "&#39;")


def test_game_page(client: TestClient) -> None:
    page = client.get("/games/golf-a")
    assert page.status_code == 200
    assert 'id="cabo-timeline-data"' in page.text and '<script src="/static/plotly.min.js"' \
        in page.text
    links = re.findall(r'class="seq-link" href="#seq=(\d+)"', page.text)
    assert links and links[0] == "1"        # the first deal is the event after the header
    assert 'id="analysis"' not in page.text  # no decisions table: no analysis section
    assert client.get("/static/plotly.min.js").status_code == 200


def test_unknown_things_are_404(client: TestClient) -> None:
    for url, words in (("/games/nope", "No game &#39;nope&#39; in this database."),
                       ("/players/zed", "No game in this database has a player &#39;zed&#39;."),
                       ("/reports/nope", "unknown report &#39;nope&#39;"),
                       ("/no/such/page", "There is no page at /no/such/page."),
                       ("/static/secret.txt", "There is no file &#39;secret.txt&#39; here.")):
        page = client.get(url)
        assert page.status_code == 404, url
        assert alert(page.text).startswith(words), (url, alert(page.text))
        assert "Traceback" not in page.text


def test_player_page(client: TestClient, truth: dict[str, dict[str, object]]) -> None:
    """A row per ruleset on the page, the figures of one ruleset under ``?ruleset=``: never
    one number over games of different rules."""
    page = client.get("/players/ana")
    assert page.status_code == 200
    mine = [g for g in truth if "ana" in truth[g]["players"]]
    rulesets = sorted({str(truth[g]["ruleset"]) for g in mine})
    body = page.text.split('id="rulesets">', 1)[1].split("</table>", 1)[0]
    assert sorted(re.findall(r'\?ruleset=[^"]*">([^<]*)</a>', body)) == rulesets
    assert "win rate (" not in page.text            # no merged headline
    for ruleset in rulesets:
        games = [g for g in mine if truth[g]["ruleset"] == ruleset]
        finished = [g for g in games if truth[g]["complete"]]
        wins = [g for g in finished if "ana" in truth[g]["winners"]]
        one = client.get("/players/ana", params={"ruleset": ruleset})
        assert one.status_code == 200
        assert f"<b>{len(games)}</b>games" in one.text
        rate = f"{100 * len(wins) / len(finished):.1f} %" if finished else "\u2013"
        assert f"<b>{rate}</b>win rate ({len(wins)} of {len(finished)} finished)" in one.text
        points = [int(r[0]) for r in query(  # type: ignore[call-overload]
            client, f"SELECT points FROM round_scores WHERE player = 'ana' "
                    f"AND ruleset = '{ruleset}'")]
        if points:
            assert f"<b>{sum(points) / len(points):.2f}</b>points per round" in one.text
        assert set(listed(one.text)) == set(games)
    assert client.get("/players/ana", params={"ruleset": "nope"}).status_code == 404


def test_reports(client: TestClient) -> None:
    listing = client.get("/reports")
    assert listing.status_code == 200 and "/reports/power_usage" in listing.text
    page = client.get("/reports/score_distribution?bucket=10&ruleset=golf")
    assert page.status_code == 200
    assert 'data-figure="figure-0"' in page.text and 'class="table-box"' in page.text
    assert '<option value="golf" selected>' in page.text
    assert "@param" not in page.text and "bound + 10)" in page.text
    bad = client.get("/reports/score_distribution?bucket=-5")
    assert bad.status_code == 400
    assert alert(bad.text) == "parameter bucket must be between 1 and 1000, not -5"
    none = client.get("/reports/power_usage?ruleset=Golf")
    assert none.status_code == 400 and "the values there: edition1, edition2, golf, online" \
        in alert(none.text)


def test_sql_console(client: TestClient, tmp_path: Path) -> None:
    page = client.get("/sql", params={"q": "SELECT ruleset, count(*) AS n FROM games "
                                           "GROUP BY 1 ORDER BY 1"})
    assert page.status_code == 200
    assert re.findall(r"<td>(\w+)</td><td class=\"n\">(\d+)</td>", page.text) == [
        ("edition1", "2"), ("edition2", "3"), ("golf", "2"), ("online", "1")]
    listed = re.search(r"Tables: ([\w, ]+)<", page.text)
    assert listed is not None and "events" in listed.group(1).split(", ")
    assert "events_draw" not in listed.group(1)     # the view, not the tables that store it
    many = client.get("/sql", params={"q": "SELECT range FROM range(5000)"})
    assert "Only the first 1,000 rows are shown." in many.text
    assert many.text.count("<tr>") == 1001       # the head and 1,000 rows
    slow = client.get("/sql", params={"q": "SELECT count(*) FROM range(100000) a, "
                                           "range(100000) b WHERE a.range * b.range = 7"})
    assert slow.status_code == 400 and alert(slow.text) == \
        "the query took longer than 1 s and was stopped"
    for query in (f"COPY games TO '{tmp_path}/x.csv'", f"ATTACH '{tmp_path}/o.duckdb' AS o",
                  "SELECT * FROM read_text('/etc/passwd')", "INSTALL httpfs",
                  "DROP TABLE games", "SET enable_external_access = true"):
        refused = client.get("/sql", params={"q": query})
        assert refused.status_code == 400, query
        assert alert(refused.text), query
    assert not list(tmp_path.iterdir())
    assert client.get("/sql", params={"q": "SELECT count(*) FROM games"}).status_code == 200


def test_markup_from_logs_is_text(client: TestClient) -> None:
    pages = [client.get("/"), client.get("/?player=" + EVIL),
             client.get("/players/" + EVIL.replace("/", "%2F")),
             client.get("/sql", params={"q": "SELECT players FROM games"}),
             client.get("/games/" + EVIL_ID.replace("/", "%2F"))]
    for page in pages:
        assert page.status_code == 200, page.url
        assert EVIL not in page.text and "<!--1" not in page.text.replace(
            "&lt;!--1", ""), page.url
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0].text
    assert '<span id="player-name">&lt;script&gt;alert(1)&lt;/script&gt;</span>' in pages[2].text


def test_analysis_marks_when_the_table_exists(db: Path, tmp_path: Path) -> None:
    """A game analysed by load --analyse: its marks on the page as timeline --analyse draws
    them (the events' lanes, the step view's data, the evaluation graph) and listed."""
    copy = tmp_path / "analysed.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    move = '{"type":"discard","player":"ana"}'
    con.execute("INSERT INTO decisions BY NAME SELECT *, 'place' AS kind, 1 AS round, "
                "0 AS line, $1 AS chosen, $1 AS best, 'discarded a 9' AS chosen_text, "
                "'replace 0' AS best_text, 7.5 AS expected, 0.5 AS stderr, false AS implicit, "
                "false AS must_fail FROM (VALUES "
                "('golf-a', 'golf', 12, 'ana', '?', 3.5), "
                "('golf-a', 'golf', 20, 'bruno', NULL, 0), "
                "('golf-a', 'golf', 30, '<b>x</b>', '??', 9)) "
                "AS t(game_id, ruleset, seq, player, mark, loss)", [move])
    con.execute("INSERT INTO analyses BY NAME SELECT 'golf-a' AS game_id, 'golf' AS ruleset, "
                "p AS player, 16 AS rollouts, 0 AS seed, 'greedy' AS bot FROM "
                "(VALUES ('ana'), ('bruno'), ('carla')) AS t(p)")
    con.close()
    with TestClient(create_app(copy), base_url=BASE) as c:
        page = c.get("/games/golf-a").text
    section = page.split('id="analysis"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r'href="#seq=(\d+)"', section) == ["12", "30"]    # marked ones only
    assert "&lt;b&gt;x&lt;/b&gt;" in section and "<b>x</b>" not in section
    assert 'id="chart-analysis"' in page          # the evaluation graph's panel
    data = json.loads(html.unescape(
        page.split('id="cabo-timeline-data">', 1)[1].split("</script>", 1)[0]))
    # drawn on the lanes of the game's players (the row of a player it does not have is not)
    assert {k: v["mark"] for k, v in data["analysis"]["marks"].items()} == {"12": "?"}
    lanes = [t for t in data["figures"]["events"]["data"] if t.get("name") == "analysis marks"]
    assert len(lanes) == 1 and lanes[0]["x"] == [12] and lanes[0]["text"] == ["?"]


def test_the_command_serves_on_localhost(db: Path, tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    missing = subprocess.run([sys.executable, "-c", "from cabo_log.cli import main; main()",
                              "serve", "--db", str(tmp_path / "none.duckdb")],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 1
    assert missing.stderr == (f"cabo-log: no database at {tmp_path / 'none.duckdb'} "
                              "(create it with 'cabo-log load')\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    copy = tmp_path / "copy.duckdb"      # a file of its own: no lock shared with the fixture
    shutil.copy(db, copy)
    proc = subprocess.Popen([sys.executable, "-c", "from cabo_log.cli import main; main()",
                             "serve", "--db", str(copy), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    assert r.status == 200 and b"8 games match" in r.read()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < end, proc.stderr
                time.sleep(0.2)
        listening = subprocess.run(["ss", "-Hltn", f"sport = :{port}"], capture_output=True,
                                   text=True, check=False).stdout
        if listening:                    # where ss exists: bound to the loopback only
            assert [line.split()[3] for line in listening.splitlines()] == [f"127.0.0.1:{port}"]
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert out.startswith(f"serving {copy} on http://127.0.0.1:{port}/")


def test_ratings_page(client: TestClient) -> None:
    """The leaderboard of each ruleset: the players the ``ratings`` table rates, best first,
    the minimum of games a filter; bad filters are 400/404 pages."""
    latest = query(client, "SELECT ruleset, player, ordinal, games FROM ratings QUALIFY "
                           "row_number() OVER (PARTITION BY ruleset, player "
                           "ORDER BY game_order DESC) = 1")
    page = client.get("/ratings", params={"min_games": "1"})
    assert page.status_code == 200
    for ruleset in sorted({str(r[0]) for r in latest}):
        section = page.text.split(f'data-ruleset="{ruleset}"', 1)[1].split("</section>", 1)[0]
        shown = re.findall(r'<a href="/players/[^"]*">([^<]*)</a>', section)
        want = sorted((r for r in latest if r[0] == ruleset),
                      key=lambda r: (-float(r[2]), str(r[1])))  # type: ignore[arg-type]
        assert shown == [html.escape(str(r[1])) for r in want]
    two = client.get("/ratings", params={"min_games": "2", "ruleset": "golf"})
    kept = [r for r in latest if r[0] == "golf" and int(r[3]) >= 2]  # type: ignore[call-overload]
    assert two.text.count('<tr><td class="n">') == len(kept)
    assert client.get("/ratings", params={"min_games": "0"}).status_code == 400
    assert client.get("/ratings", params={"ruleset": "chess"}).status_code == 404


def test_every_report_page_explains_its_columns(client: TestClient) -> None:
    """The "Columns:" legend the command line prints under a report, on its page too: every
    column the report's header explains, in the order of the table."""
    from cabo_log.db import reports as reps

    for report in reps.available().values():
        page = client.get(f"/reports/{report.name}").text
        if report.columns and 'class="data"' in page:
            legend = page.split('<dl class="legend">', 1)[1].split("</dl>", 1)[0]
            shown = re.findall(r"<dt><code>([^<]+)</code></dt>", legend)
            table = re.findall(r'<th class="n?" title="([^"]+)"', page)
            assert shown == [c for c in table if c in report.columns], report.name
    power = client.get("/reports/power_usage").text
    legend = power.split('<dl class="legend">', 1)[1]
    for column in ("passed", "skipped", "lapsed"):
        words = html.escape(reps.get("power_usage").columns[column], quote=True)
        assert f"<dt><code>{column}</code></dt><dd>{words}</dd>" in legend
