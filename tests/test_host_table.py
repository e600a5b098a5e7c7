"""The table model of ``cabo-log host`` without a browser: timers, forfeits, stand-in bots,
refusals, restarts, tokens, and that what a seat is sent is what its player knows."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from cabo_log.log.replay import replay_file
from cabo_log.pages.table.clock import ManualClock, Timing
from cabo_log.pages.table.host import Host, HostSettings, OpenError, SeatSpec
from cabo_log.pages.table.model import Status, Table
from cabo_log.pages.table.seats import Presence, SeatKind, seat_file
from cabo_log.pages.table.views import Mode, public_view, seat_view
from engine.knowledge import observe
from engine.vocabulary import TURN_START

P, B = SeatKind.PERSON, SeatKind.BOT
FAST = Timing(hold=60, between_rounds=20, bot_delay=0)


def lines(path: Path) -> list[dict[str, object]]:
    return [orjson.loads(x) for x in path.read_bytes().splitlines()]


def make(tmp_path: Path, ruleset: str = "online", seats: list[SeatSpec] | None = None,
         step: int = 30, mode: Mode = Mode.ASSISTED, timing: Timing = FAST,
         options: dict[str, object] | None = None) -> tuple[Host, Table, dict[str, str]]:
    clock = ManualClock()
    host = Host(HostSettings(tmp_path, timing=timing, step_choices=(0, 1, 30, 60, 90)), clock)
    seats = seats or [SeatSpec("ana", P), SeatSpec("bruno", P), SeatSpec("cleo", B, "greedy")]
    opened = host.open_table(ruleset, seats, step=step, mode=mode, options=options)
    return host, opened.table, opened.tokens


def advance(host: Host, table: Table, seconds: float, call_from_turn: int = 4) -> None:
    """One step of a round played by the clock: the person to act calls Cabo once the round
    is old enough (timeouts alone never call while a pile has cards), else time passes."""
    g = table.state
    who = g.current_player()
    seat = table.seats.get(who) if who is not None else None
    if seat is not None and seat.person and not seat.played_by_bot \
            and g.phase == TURN_START and g.round.turn >= call_from_turn \
            and g.caller_name() is None and table.status == Status.PLAYING:
        assert who is not None
        assert table.act(who, {"type": "cabo"}) is None
        return
    clock = host.clock
    assert isinstance(clock, ManualClock)
    clock.advance(seconds)
    host.tick()


def sit_all(host: Host, table: Table, tokens: dict[str, str]) -> None:
    for token in tokens.values():
        found = host.find(token)
        assert found is not None
        table.connect(found[1])


def test_the_table_waits_for_its_people_then_deals(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path)
    assert table.status == Status.WAITING
    assert [x["type"] for x in lines(table.path)] == ["game"]
    sit_all(host, table, tokens)
    assert table.status == Status.PLAYING
    kinds = [x["type"] for x in lines(table.path)]
    assert kinds[:2] == ["game", "deal"] and kinds.count("peek") == 3
    # chained (declared in the header), timed, and the seat tokens nowhere in the log
    assert lines(table.path)[0]["chain"] == "sha256"
    written = table.path.read_text()
    assert all("h" in x and "t" in x for x in lines(table.path)[1:])
    assert not any(token in written for token in tokens.values())
    assert all(token not in seat_file(table.path).read_text() for token in tokens.values())


def test_a_token_opens_its_own_seat_only(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path)
    assert host.find(tokens["ana"])[1].name == "ana"  # type: ignore[index]
    assert host.find(tokens["bruno"])[1].name == "bruno"  # type: ignore[index]
    assert host.find(tokens["ana"][:-1]) is None
    assert host.find("") is None
    assert table.seats["cleo"].accepts(tokens["ana"]) is False


def test_the_step_timer_plays_a_safe_move_marked_auto(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, step=30)
    sit_all(host, table, tokens)
    clock = host.clock
    assert isinstance(clock, ManualClock)
    g = table.state
    who = g.current_player()
    before = len(lines(table.path))
    clock.advance(29)
    host.tick()
    assert len(lines(table.path)) == before            # not yet
    clock.advance(1.5)
    host.tick()
    new = lines(table.path)[before:]
    assert new[0]["type"] == "draw" and new[0]["auto"] is True and new[0]["player"] == who
    assert new[0]["source"] == "deck"
    assert len(new) == 1 or new[1].get("player") != who   # the next step waits again


def test_a_valid_action_restarts_the_timer(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, step=30, seats=[SeatSpec("ana", P), SeatSpec("bo", P)])
    sit_all(host, table, tokens)
    clock = host.clock
    assert isinstance(clock, ManualClock)
    who = table.state.current_player()
    assert who is not None
    clock.advance(20)
    assert table.act(who, {"type": "draw", "source": "deck"}) is None
    clock.advance(20)        # 40 s after the turn began, 20 s after the draw
    host.tick()
    assert not any(x.get("auto") for x in lines(table.path))
    assert table.view(who)["deadline_in"] == pytest.approx(10)


def test_a_refused_move_changes_nothing_and_says_why(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path)
    sit_all(host, table, tokens)
    g = table.state
    other = next(p for p in ("ana", "bruno") if p != g.current_player())
    data = table.path.read_bytes()
    refused = table.act(other, {"type": "draw", "source": "deck"})
    assert refused is not None and "turn" in refused and other in refused
    assert table.act(other, {"type": "deal", "round": 2}) == "that is not a move"
    assert table.act(other, "nonsense") == "that is not a move"
    assert table.path.read_bytes() == data
    # a page cannot act for another seat: the player is always the seat's own
    mover = g.current_player()
    assert mover in ("ana", "bruno")
    refused = table.act(other, {"type": "cabo", "player": mover})
    assert refused is not None and table.path.read_bytes() == data


def test_a_lost_connection_holds_the_seat_then_forfeits(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, seats=[SeatSpec("ana", P), SeatSpec("bo", P),
                                                SeatSpec("cleo", B, "greedy")])
    sit_all(host, table, tokens)
    clock = host.clock
    assert isinstance(clock, ManualClock)
    ana = table.seats["ana"]
    table.disconnect(ana)
    assert ana.presence == Presence.AWAY
    clock.advance(59)
    host.tick()
    table.connect(ana)                                  # back in time: nothing lost
    assert ana.presence == Presence.HERE
    table.disconnect(ana)
    clock.advance(61)
    host.tick()
    forfeits = [x for x in lines(table.path) if x["type"] == "forfeit"]
    assert forfeits and forfeits[0]["player"] == "ana" and forfeits[0]["reason"] == "disconnected"
    assert ana.presence == Presence.GONE
    assert table.view("ana")["moves"] == []


def test_leaving_forfeits_at_once_and_two_players_end_the_match(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, seats=[SeatSpec("ana", P), SeatSpec("bo", P)])
    sit_all(host, table, tokens)
    table.leave("bo")
    result = replay_file(str(table.path))
    assert result.error is None and result.state is not None
    assert result.state.complete and result.state.winners == ("ana",)
    assert table.status == Status.OVER
    assert [x["type"] for x in lines(table.path)][-3:] == ["forfeit", "round_end", "game_end"]


def test_without_forfeits_a_bot_takes_the_seat_and_the_log_says_so(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, ruleset="edition2",
                               seats=[SeatSpec("ana", P), SeatSpec("bo", P)])
    sit_all(host, table, tokens)
    table.leave("bo")
    assert table.seats["bo"].stand_in and table.seats["bo"].bot == "greedy"
    assert any("no forfeits" in line for line in table.feeds[None])
    clock = host.clock
    assert isinstance(clock, ManualClock)
    for _ in range(40):            # ana's turns time out; bo's stand-in plays
        advance(host, table, 31)
    bo_moves = [x for x in lines(table.path) if x.get("player") == "bo"
                and x["type"] in ("draw", "discard", "replace", "cabo", "power", "skip")]
    assert bo_moves and all(x.get("bot") == "greedy" for x in bo_moves)
    assert not any(x["type"] == "forfeit" for x in lines(table.path))
    assert replay_file(str(table.path)).error is None


def test_between_rounds_everyone_confirms_or_twenty_seconds(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, step=1, seats=[SeatSpec("ana", P), SeatSpec("bo", P)])
    sit_all(host, table, tokens)
    clock = host.clock
    assert isinstance(clock, ManualClock)
    while table.status == Status.PLAYING:
        advance(host, table, 1.1)
    assert table.status == Status.BETWEEN
    table.confirm("ana")
    assert table.status == Status.BETWEEN
    table.confirm("bo")
    assert table.status == Status.PLAYING and table.state.round.round_no == 2
    while table.status == Status.PLAYING:
        advance(host, table, 1.1)
    if table.status == Status.BETWEEN:
        clock.advance(19)
        host.tick()
        assert table.status == Status.BETWEEN
        clock.advance(1.5)
        host.tick()
        assert table.state.round.round_no == 3


def test_a_restarted_host_resumes_the_table_from_its_log(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, step=30)
    sit_all(host, table, tokens)
    g = table.state
    who = g.current_player()
    assert who is not None
    if who != "cleo":
        assert table.act(who, {"type": "draw", "source": "deck"}) is None
    view_before = table.view("ana")
    events = g.events
    host.close()
    again = Host(HostSettings(tmp_path, timing=FAST), ManualClock())
    assert again.resume_all() == []
    resumed = again.tables[table.id]
    assert resumed.state.events == events
    assert resumed.seats["ana"].presence == Presence.AWAY
    found = again.find(tokens["ana"])
    assert found is not None and found[0] is resumed
    resumed.connect(found[1])
    view = resumed.view("ana")
    assert view["rows"] == view_before["rows"] and view["drawn"] == view_before["drawn"]
    assert any("restarted" in line for line in view["feed"])
    mover = resumed.state.current_player()
    moves = resumed.view(mover)["moves"] if mover != "cleo" else []
    if moves:
        assert resumed.act(mover, moves[0]["event"]) is None   # type: ignore[arg-type]
    assert replay_file(str(table.path)).error is None
    again.close()


def test_a_table_still_waiting_for_its_people_resumes_chained(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path)
    host.close()                         # only the header was written
    again = Host(HostSettings(tmp_path, timing=FAST), ManualClock())
    assert again.resume_all() == []
    resumed = again.tables[table.id]
    assert resumed.status == Status.WAITING
    sit_all(again, resumed, tokens)
    assert resumed.status == Status.PLAYING
    assert all("h" in x for x in lines(table.path)[1:])
    result = replay_file(str(table.path))
    assert result.error is None and result.head is not None
    again.close()


def test_house_rules_and_bad_tables_are_refused_in_words(tmp_path: Path) -> None:
    host, _, _ = make(tmp_path)
    with pytest.raises(OpenError, match="2 to 5 players"):
        host.open_table("online", [SeatSpec(f"p{i}", P) for i in range(6)], step=60,
                        mode=Mode.CLASSIC)
    with pytest.raises(OpenError, match="same name"):
        host.open_table("online", [SeatSpec("a", P), SeatSpec("a", P)], step=60,
                        mode=Mode.CLASSIC)
    with pytest.raises(OpenError, match="step timer"):
        host.open_table("online", [SeatSpec("a", P), SeatSpec("b", P)], step=45,
                        mode=Mode.CLASSIC)
    opened = host.open_table({"base": "edition2", "name": "our table", "caller_penalty": 5},
                             [SeatSpec("a", P), SeatSpec("b", B, "random")], step=60,
                             mode=Mode.CLASSIC)
    assert opened.table.state.rules.caller_penalty == 5
    six = host.open_table("golf", [SeatSpec(f"p{i}", B, "random") for i in range(6)], step=0,
                          mode=Mode.CLASSIC, options={"decks": 2})
    assert len(six.table.state.players) == 6


def test_classic_mode_sends_known_cards_only_as_flashes(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, mode=Mode.CLASSIC)
    sit_all(host, table, tokens)
    g = table.state
    view = table.view("ana")
    assert view["rows"]["ana"] == [None] * 4              # known, but not sent again
    flashes = table.take_flashes("ana")
    known = observe(g, "ana").rows["ana"]
    assert [(f["pos"], f["card"]) for f in flashes] == [(0, known[0]), (1, known[1])]
    assert all(f["seconds"] == 5.0 for f in flashes)
    assert table.take_flashes("ana") == []
    assisted = seat_view(g, "ana", Mode.ASSISTED)
    assert assisted["rows"]["ana"][:2] == list(known[:2])


def test_views_hold_no_card_their_seat_does_not_know(tmp_path: Path) -> None:
    """Every card code in every view equals the engine's knowledge of that seat (whole
    match, bots and timeouts playing): the rows place for place, the drawn card."""
    host, table, tokens = make(tmp_path, step=1, seats=[SeatSpec("ana", P), SeatSpec("bo", P),
                                                        SeatSpec("cleo", B, "expert")],
                               options={"target": 60})
    sit_all(host, table, tokens)
    clock = host.clock
    assert isinstance(clock, ManualClock)
    checked = 0
    for _ in range(3000):
        g = table.state
        if g.complete:
            break
        for name in ("ana", "bo"):
            obs = observe(g, name)
            view = table.view(name)
            for owner, row in view["rows"].items():
                assert all(code is None or code == obs.rows[owner][i]
                           for i, code in enumerate(row))
            assert view["drawn"] in (None, obs.drawn)
            checked += 1
        spectator = public_view(g)
        for owner, row in spectator["rows"].items():
            for i, code in enumerate(row):
                if code is not None:
                    assert all(observe(g, p).rows[owner][i] == code for p in g.active_players()
                               for p in [g.players[p]])
        advance(host, table, 1.1)
        for name in ("ana", "bo"):
            table.confirm(name)
    assert table.state.complete and checked > 20, checked
    assert json.dumps(table.view(None))   # a finished table still shows


def test_people_choose_their_peek_where_the_rules_let_them(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, ruleset="edition2",
                               seats=[SeatSpec("ana", P), SeatSpec("bo", P)])
    sit_all(host, table, tokens)
    moves = [m for m in table.view("ana")["moves"] if m["kind"] == "peek"]
    assert len(moves) == 6 and all(len(m["places"]) == 2 for m in moves)
    first = table.state.current_player()
    assert first is not None
    assert [m["kind"] for m in table.view(first)["moves"]] == ["peek"] * 6  # no turn yet
    refused = table.act(first, {"type": "draw", "source": "deck"})
    assert refused is not None and "looks at their cards first" in refused
    assert table.act("ana", {"type": "peek", "positions": [2, 3]}) is None
    obs = observe(table.state, "ana")
    assert obs.rows["ana"][0] is None and obs.rows["ana"][2] is not None
    assert not [m for m in table.view("ana")["moves"] if m["kind"] == "peek"]
    refused = table.act("ana", {"type": "peek", "positions": [0, 1]})
    assert refused is not None and table.view("ana")["rows"]["ana"][0] is None
    # bo does not choose: the step timer looks at bo's first two cards, then the turn starts
    clock = host.clock
    assert isinstance(clock, ManualClock)
    clock.advance(31)
    host.tick()
    peek = [x for x in lines(table.path) if x["type"] == "peek" and x["player"] == "bo"]
    assert peek == [{**peek[0], "positions": [0, 1], "auto": True}]
    assert "draw" in [m["kind"] for m in table.view(first)["moves"]]


def test_golf_snaps_are_offered_between_turns(tmp_path: Path) -> None:
    host, table, tokens = make(tmp_path, ruleset="golf",
                               seats=[SeatSpec("ana", P), SeatSpec("bo", P)])
    sit_all(host, table, tokens)
    g = table.state
    mover = g.current_player()
    assert mover is not None
    assert table.act(mover, {"type": "draw", "source": "deck"}) is None
    assert table.act(mover, {"type": "discard"}) is None
    if table.state.phase != TURN_START:        # the discarded card gave a power: skip it
        assert table.act(mover, {"type": "skip"}) is None
    other = "bo" if mover == "ana" else "ana"
    snaps = [m for m in table.view(other)["moves"] if m["kind"] == "snap"]
    assert [m["places"] for m in snaps] == [[[other, i]] for i in range(4)]
    before = len(lines(table.path))
    assert table.act(other, snaps[0]["event"]) is None
    snap = lines(table.path)[before]
    assert snap["type"] == "snap" and snap["player"] == other and snap["position"] == 0


def test_the_command_refuses_a_dir_that_is_a_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    afile = tmp_path / "f"
    afile.write_text("x")
    done = subprocess.run([sys.executable, "-m", "cabo_log", "host", "--dir", str(afile)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "is not a folder" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_says_when_its_port_is_taken(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "cabo_log", "host", "--dir",
                               str(tmp_path / "games"), "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
