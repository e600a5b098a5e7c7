"""Every observation holds the public record of each row slot (``knowledge.Slot``): how its
card got there and whether its owner knows it. Checked on a hand-built edition1 match, event by
event, against what each player at the table sees happen: a deal and its peeks, a card kept
after a deck draw, one taken from the discard pile, a spy and a peek, a swap by the user, a swap
of two other players' cards, a failed replacement and its penalty card; and that the record
never shows a value ``rows`` hides."""

from __future__ import annotations

from typing import Any

from engine import GameState, apply, new_game
from engine.events import GameStart
from engine.knowledge import Slot, observe
from engine.parsing import parse_event
from engine.vocabulary import Arrival

HEADER = {"type": "game", "format": "cabo-log/1", "game_id": "slots", "ruleset": "edition1",
          "options": {}, "players": ["ana", "bruno", "carla"]}
DEAL = {"type": "deal", "round": 1, "first": "ana",
        "hands": {"ana": ["8", "5", "12", "9"], "bruno": ["0", "10", "6", "8"],
                  "carla": ["12", "7", "4", "11"]},
        "discard": "1",
        "deck": ["11", "4", "10", "7", "4", "3", "7", "9", "11", "10", "7", "12", "4", "11",
                 "9", "5", "10", "1", "3", "5", "3", "3", "13", "13", "6", "2", "2", "6", "1",
                 "8", "2", "2", "0", "5", "12", "9", "6", "8", "1"]}

D, K, T, S, G = Arrival.DEALT, Arrival.KEPT, Arrival.TAKEN, Arrival.SWAPPED, Arrival.GIVEN
PLAYERS = ("ana", "bruno", "carla")


def game(*events: dict[str, Any]) -> GameState:
    header = parse_event(HEADER)
    assert isinstance(header, GameStart)
    g = new_game(header)
    for e in (DEAL, *events):
        apply(g, parse_event(e))
    return g


def turn(player: str, source: str, *then: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "draw", "player": player, "source": source}, *then]


def records(g: GameState) -> dict[str, tuple[tuple[Arrival, bool], ...]]:
    """The slots every player's observation shows: the same for all of them (public)."""
    seen = [observe(g, p).slots for p in PLAYERS]
    assert seen[0] == seen[1] == seen[2]
    return {p: tuple((s.arrival, s.owner_knows) for s in row) for p, row in seen[0].items()}


PEEKS = [{"type": "peek", "player": p, "positions": [0, 1]} for p in PLAYERS]
KEEP = turn("ana", "deck", {"type": "replace", "player": "ana", "positions": [0]})   # an 11
TAKE = turn("bruno", "discard", {"type": "replace", "player": "bruno", "positions": [2]})
DROP = turn("carla", "deck", {"type": "discard", "player": "carla"})                 # a 4
SPY = turn("ana", "deck", {"type": "discard", "player": "ana"},                        # a 10
           {"type": "power", "player": "ana", "power": "spy", "target": ["bruno", 3]})
PEEK = turn("bruno", "deck", {"type": "discard", "player": "bruno"},                   # a 7
            {"type": "power", "player": "bruno", "power": "peek", "target": ["bruno", 3]})
QUIET = [*turn("carla", "deck", {"type": "discard", "player": "carla"}),               # a 4
         *turn("ana", "deck", {"type": "discard", "player": "ana"}),                   # a 3
         *turn("bruno", "deck", {"type": "discard", "player": "bruno"},                # a 7
               {"type": "skip", "player": "bruno"}),
         *turn("carla", "deck", {"type": "discard", "player": "carla"},                # a 9
               {"type": "skip", "player": "carla"})]
SWAP = turn("ana", "deck", {"type": "discard", "player": "ana"},                       # an 11
            {"type": "power", "player": "ana", "power": "swap",
             "cards": [["ana", 0], ["carla", 1]]})
SPY_PAST = [*turn("bruno", "deck", {"type": "discard", "player": "bruno"},             # a 10
                  {"type": "skip", "player": "bruno"}),
            *turn("carla", "deck", {"type": "discard", "player": "carla"},             # a 7
                  {"type": "skip", "player": "carla"})]
OTHERS = turn("ana", "deck", {"type": "discard", "player": "ana"},                     # a 12
              {"type": "power", "player": "ana", "power": "swap",
               "cards": [["bruno", 0], ["carla", 0]]})


def test_the_deal_and_the_peeks() -> None:
    assert records(game()) == {p: ((D, False),) * 4 for p in PLAYERS}
    after = records(game(*PEEKS))   # each peeked slots 0 and 1
    assert after == {p: ((D, True), (D, True), (D, False), (D, False)) for p in PLAYERS}


def test_a_kept_card_a_taken_card_a_spy_and_a_peek() -> None:
    g = game(*PEEKS, *KEEP)   # ana put the 11 she drew where her unseen 8 was
    assert records(g)["ana"] == ((K, True), (D, True), (D, False), (D, False))
    assert observe(g, "bruno").rows["ana"] == (None, None, None, None)   # no value shown
    assert observe(g, "ana").rows["ana"] == ("11", "5", None, None)
    g = game(*PEEKS, *KEEP, *TAKE)   # bruno took that 8 from the pile into slot 2
    assert records(g)["bruno"] == ((D, True), (D, True), (T, True), (D, False))
    assert all(observe(g, p).rows["bruno"][2] == "8" for p in PLAYERS)   # its value is public
    g = game(*PEEKS, *KEEP, *TAKE, *DROP, *SPY)   # ana saw bruno's slot 3: bruno still has not
    assert records(g)["bruno"][3] == (D, False)
    assert observe(g, "ana").rows["bruno"][3] == "8"
    g = game(*PEEKS, *KEEP, *TAKE, *DROP, *SPY, *PEEK)   # now bruno looked at it himself
    assert records(g)["bruno"][3] == (D, True)


def test_swaps_by_the_user_and_of_two_others() -> None:
    before = [*PEEKS, *KEEP, *TAKE, *DROP, *SPY, *PEEK, *QUIET]
    g = game(*before, *SWAP)   # ana's kept 11 for carla's peeked 7
    slots = records(g)
    assert slots["ana"][0] == (S, False)      # ana brought it, without having seen it
    assert slots["carla"][1] == (G, False)    # given to carla, who has not seen it
    assert observe(g, "ana").rows["carla"][1] == "11"   # she knew what she gave
    assert observe(g, "ana").rows["ana"][0] is None
    assert observe(g, "carla").rows["ana"][0] == "7"    # carla knows where her 7 went
    assert observe(g, "carla").rows["carla"][1] is None
    g = game(*before, *SWAP, *SPY_PAST, *OTHERS)   # ana exchanged bruno's 0 and carla's 12
    slots = records(g)
    # each knew the card they lost, neither the one they got
    assert slots["bruno"][0] == (G, False) and slots["carla"][0] == (G, False)
    assert observe(g, "bruno").rows["carla"][0] == "0"
    assert slots["ana"][0] == (S, False)


def test_the_record_is_a_shared_constant() -> None:
    g = game(*PEEKS)
    assert observe(g, "ana").slots["bruno"][0] is observe(g, "carla").slots["bruno"][0]
    assert isinstance(observe(g, "ana").slots["bruno"][0], Slot)


def test_a_failed_replacement_and_its_penalty_card() -> None:
    """ana lists her 8, 5 and 12 as equal: they stay, shown; the 11 she drew joins the end of
    her row (she saw it) and the penalty card after it (nobody saw it)."""
    fail = turn("ana", "deck", {"type": "replace", "player": "ana", "positions": [0, 1, 2]})
    g = game(*PEEKS, *fail)
    assert records(g)["ana"] == ((D, True), (D, True), (D, True), (D, False), (K, True),
                                 (Arrival.PENALTY, False))
    assert observe(g, "bruno").rows["ana"] == ("8", "5", "12", None, None, None)
    assert observe(g, "ana").rows["ana"][4:] == ("11", None)
