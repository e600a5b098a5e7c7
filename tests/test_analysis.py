"""The analysis of play: decisions, possible worlds, marks, determinism, what-if.

Positions are built by hand with a stacked deck, so the bad option is bad by arithmetic
(a 12 added to the row, or a 13 kept over a known 0), not by the opinion of a bot.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from analysis_logs import final_turn, must_fail_log
from hypothesis import given, settings
from hypothesis import strategies as st

from cabo_log.analysis.analyse import analyse_bytes
from cabo_log.analysis.decisions import Kind, read_decisions
from cabo_log.analysis.evaluate import Settings
from cabo_log.analysis.marks import Mark, accuracy_of, band, counted_loss, game_accuracy
from cabo_log.analysis.movecache import MoveCache
from cabo_log.analysis.whatif import Estimate, whatif_bytes
from cabo_log.log.builder import LogBuilder
from cabo_log.play.simulate import simulate
from engine import GameState
from engine.knowledge import observe
from engine.moves import legal_moves
from engine.worlds import Deal, Pools, hidden_cards, sample_world

FAST = Settings(rollouts=8, seed=1)


def test_a_replacement_known_to_fail_is_a_blunder_and_discard_is_best() -> None:
    result = analyse_bytes(must_fail_log().to_bytes(), "t.jsonl", settings=FAST,
                           player="ana")
    place = next(d for d in result.decisions if d.kind is Kind.PLACE)
    assert place.seq == 6
    assert place.mark is Mark.BLUNDER
    assert place.must_fail
    assert place.best_text == "discard"
    assert place.loss == 13.0 and place.stderr == 0.0   # 40 - 27, in every world
    line = place.text()
    assert line == ("seq 6 ana replaced 0 and 1 (a 5 and a 4) with a 13: the replacement "
                    "must fail; 13.0 expected points given away; best was to discard: ?? "
                    "(round points, 16 worlds)")
    assert line in result.text().splitlines()


def test_keeping_a_13_over_a_known_0_is_a_blunder() -> None:
    b = final_turn(["0", "4", "9", "9"], "13").replace("ana", [0])
    result = analyse_bytes(b.to_bytes(), settings=FAST, player="ana")
    place = next(d for d in result.decisions if d.kind is Kind.PLACE)
    assert place.mark is Mark.BLUNDER
    assert place.loss == 13.0   # 13 4 9 9 = 35 against 0 4 9 9 = 22
    assert place.best_text == "discard"
    assert place.chosen_text == "replaced 0 (a 0) with a 13"


def test_same_seed_same_output_for_any_jobs() -> None:
    data = must_fail_log().to_bytes()
    one = analyse_bytes(data, settings=Settings(rollouts=4, seed=5, budget=8), jobs=1).as_json()
    two = analyse_bytes(data, settings=Settings(rollouts=4, seed=5, budget=8), jobs=2).as_json()
    again = analyse_bytes(data, settings=Settings(rollouts=4, seed=5, budget=8), jobs=1).as_json()
    assert json.dumps(one) == json.dumps(two) == json.dumps(again)
    other = analyse_bytes(data, settings=Settings(rollouts=4, seed=6, budget=8), jobs=1).as_json()
    assert [d["options"] for d in other["decisions"]] != \
        [d["options"] for d in one["decisions"]]


def test_forced_moves_are_not_decisions() -> None:
    """golf with open_peek: ana knows her whole row, so the peek power of a discarded 7 has
    one sensible option (skip; peeking at a known card is the same); it is never marked,
    whether skipped explicitly or by letting the next turn begin."""
    b = LogBuilder("golf", ["ana", "bruno"], options={"open_peek": True})
    b.deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5H", "6H", "7H", "8H"]}, "9D",
           ["7C", "7D"], first="ana", rest=1)
    b.peek("ana", [0, 1, 2, 3]).peek("bruno", [0, 1, 2, 3])
    b.draw("ana", "deck").discard("ana").skip("ana")          # seq 5: a forced skip
    b.draw("bruno", "deck").discard("bruno")                   # bruno's peek: forced too
    b.draw("ana", "deck")                                       # seq 8: bruno's lapse
    record = read_decisions(b.to_bytes())
    skips = [d for d in record.decisions if d.kind is Kind.POWER]
    assert [(d.seq, d.player, d.forced, d.implicit) for d in skips] == \
        [(6, "ana", True, False), (9, "bruno", True, True)]
    result = analyse_bytes(b.to_bytes(), settings=Settings(rollouts=2))
    assert {d.seq for d in result.decisions}.isdisjoint({6, 9})
    assert all(d.kind is not Kind.POWER for d in result.decisions)


def test_options_are_the_legal_moves_with_the_chosen_one_as_made() -> None:
    record = read_decisions(must_fail_log().to_bytes())
    cabo, draw, place = record.decisions
    assert (cabo.player, cabo.kind, cabo.seq) == ("bruno", Kind.DRAW, 4)
    assert len(cabo.options) == 3              # deck, discard, Cabo
    assert draw.kind is Kind.DRAW and draw.seq == 5
    assert {type(m).__name__ for m in draw.options} == {"Draw"}   # Cabo was called
    assert len(draw.options) == 2
    # discard, replace 0..3, and the chosen (known to fail) [0, 1]; [2, 3] is a blind gamble
    keys = sorted(str(getattr(m, "positions", "discard")) for m in place.options)
    assert keys == ["(0, 1)", "(0,)", "(1,)", "(2,)", "(3,)", "discard"]
    assert len(legal_moves(place.state)) == 16


def test_marks_follow_the_thresholds() -> None:
    assert band(6.0) is Mark.BLUNDER
    assert band(5.9) is Mark.MISTAKE
    assert band(3.0) is Mark.MISTAKE
    assert band(1.5) is Mark.DUBIOUS
    assert band(1.4) is None
    assert accuracy_of(0.0) == 100.0
    assert round(accuracy_of(5.0), 1) == 36.8  # 100 / e


def test_accuracy_counts_what_is_settled() -> None:
    """A settled verdict known to +-1.5 or better counts at the low end of its interval (the
    loss itself when exact); a wider one, and an undecided one, at the threshold of the band
    its low end is in."""
    assert counted_loss(13.0, True, 0.0) == 13.0            # exact: the loss itself
    assert counted_loss(12.8, True, 0.4) == 12.8            # 13.2 +- 0.4: nearly so
    assert counted_loss(6.2, True, 1.5) == 6.2              # 7.7 +- 1.5: a point's precision
    assert counted_loss(7.8, True, 9.6) == 6.0              # a decided ``??`` (17.4 +- 9.6)
    assert counted_loss(3.4, True, 1.6) == 3.0              # a decided ``?`` (5.0 +- 1.6)
    assert counted_loss(0.4, True, 0.6) == 0.4              # decided unmarked
    assert counted_loss(0.0, False, 2.0) == 0.0             # undecided, nothing sure
    assert counted_loss(1.2, False, 2.0) == 0.0             # ... under the first mark
    assert counted_loss(2.47, False, 1.1) == 1.5            # surely a ``?!`` at least
    assert counted_loss(3.42, False, 2.0) == 3.0
    assert counted_loss(6.5, False, 1.0) == 6.0             # a ``??`` on too few worlds
    # the same undecided decision read on two seeds: 4.8 +- 1.1 (low end 2.47) and 4.3 +-
    # 1.0 (low end 2.25): as low ends they differ by 2.7 points of accuracy; counted by their
    # band they do not differ at all
    one, two = counted_loss(2.47, False, 2.33), counted_loss(2.25, False, 2.05)
    assert one == two == 1.5
    assert accuracy_of(2.25) - accuracy_of(2.47) > 2.7
    assert game_accuracy([one, 0.0]) == game_accuracy([two, 0.0])
    # and a blunder settled on two seeds, 17.4 +- 9.6 and 14.2 +- 8.0: as low ends (7.8 and
    # 6.2) they differ by 7.9 points of accuracy; both are counted as a blunder's 6
    assert counted_loss(7.8, True, 9.6) == counted_loss(6.2, True, 8.0) == 6.0
    assert accuracy_of(6.2) - accuracy_of(7.8) > 7.8


def _positions(seed: int) -> list[tuple[GameState, int, Pools]]:
    game = simulate("edition1", players=3, seed=seed)
    record = read_decisions(game.lines())
    return [(d.state, d.seat, d.pools) for d in record.decisions]


_POSITIONS: dict[int, list[tuple[GameState, int, Pools]]] = {}


@settings(max_examples=40, deadline=None)
@given(game=st.integers(0, 1), pick=st.integers(0, 10_000), world=st.integers(0, 2**32))
def test_sampling_never_changes_what_the_player_knew(game: int, pick: int, world: int) -> None:
    if game not in _POSITIONS:
        _POSITIONS[game] = _positions(game)
    positions = _POSITIONS[game]
    g, seat, pools = positions[pick % len(positions)]
    sampled = sample_world(g, seat, pools, random.Random(world))
    me = g.players[seat]
    assert observe(sampled, me) == observe(g, me)
    assert Counter(_codes(sampled)) == Counter(_codes(g))
    faces: dict[int, set[str]] = {}
    hidden = hidden_cards(g, seat)
    for card in hidden:
        faces.setdefault(pools.pool.get(card, 0), set()).add(g.code(card))
    for card in hidden:
        assert sampled.code(card) in faces[pools.pool.get(card, 0)]


@settings(max_examples=15, deadline=None)
@given(game=st.integers(0, 1), pick=st.integers(0, 10_000), block=st.integers(0, 2**32))
def test_a_block_of_balanced_worlds_deals_every_face_to_every_unseen_card(
        game: int, pick: int, block: int) -> None:
    """Each world of a block keeps what the player knew, as ``sample_world``'s do; over the
    block's worlds every unseen card of a pool gets each face of that pool once (the
    pool's cards and its faces counted with their multiplicity)."""
    if game not in _POSITIONS:
        _POSITIONS[game] = _positions(game)
    positions = _POSITIONS[game]
    g, seat, pools = positions[pick % len(positions)]
    deal = Deal(g, seat, pools, random.Random(block))
    worlds = [deal.world(g, shift) for shift in range(deal.size())]
    me = g.players[seat]
    assert all(observe(w, me) == observe(g, me) for w in worlds)
    assert all(Counter(_codes(w)) == Counter(_codes(g)) for w in worlds)
    by_pool: dict[int, list[int]] = {}
    for card in hidden_cards(g, seat):
        by_pool.setdefault(pools.pool.get(card, 0), []).append(card)
    largest = max((len(cards) for cards in by_pool.values()), default=1)
    assert deal.size() == largest
    for cards in by_pool.values():
        if len(cards) != largest:
            continue     # a smaller pool starts its rotation again within the block
        faces = Counter(g.code(c) for c in cards)
        for card in cards:
            assert Counter(w.code(card) for w in worlds) == faces


def _codes(g: GameState) -> list[str]:
    """Every card of the round by id."""
    return [g.code(c) for c in range(g.card_count())]


def test_reshuffled_cards_stay_in_their_pool() -> None:
    """After a reshuffle, cards from the new draw pile only trade faces among themselves."""
    record = read_decisions(open("sample_games/edition1-reshuffle.jsonl", "rb").read())
    late = [d for d in record.decisions if d.pools.reshuffles > 0]
    assert late, "the corpus game should reshuffle"
    d = late[0]
    sampled = sample_world(d.state, d.seat, d.pools, random.Random(3))
    reshuffled = [c for c, pool in d.pools.pool.items() if pool > 0
                  and c in hidden_cards(d.state, d.seat)]
    assert reshuffled
    assert Counter(sampled.code(c) for c in reshuffled) == \
        Counter(d.state.code(c) for c in reshuffled)


def test_move_cache_gives_the_engine_moves() -> None:
    cache = MoveCache()
    for g, _, _ in _positions(2)[:200]:
        assert cache.legal(g) == legal_moves(g)


def test_whatif_after_the_last_event_is_certain() -> None:
    data = open("sample_games/edition1-match.jsonl", "rb").read()
    result = whatif_bytes(data, "m.jsonl", seq=426, playouts=5)
    outlook = {p.player: p for p in result.players}
    # round 8 points: ana 18, bruno 0, carla 17; bruno won the match (69 against 114, 78)
    assert outlook["bruno"].match_win.mean == 1.0 and outlook["ana"].match_win.mean == 0.0
    assert outlook["bruno"].round_win is not None and outlook["bruno"].round_win.mean == 1.0
    for p, points in (("ana", 18), ("bruno", 0), ("carla", 17)):
        est = outlook[p].round_points
        assert est is not None and est.mean == points and est.half_width == 0.0
        assert outlook[p].match_win.half_width == 0.0


def test_whatif_with_another_move_plays_it() -> None:
    b = must_fail_log()
    data = b.to_bytes()
    bad = whatif_bytes(data, seq=6, playouts=3, seed=2)
    good = whatif_bytes(data, seq=6, move={"type": "discard", "player": "ana"}, playouts=3,
                        seed=2)
    ana_bad = next(p for p in bad.players if p.player == "ana").round_points
    ana_good = next(p for p in good.players if p.player == "ana").round_points
    # the round is over either way: 5 4 9 9 13 = 40, or 5 4 9 9 = 27
    assert ana_bad == Estimate(40.0, 0.0) and ana_good == Estimate(27.0, 0.0)
    assert good.move == {"type": "discard", "player": "ana"}
