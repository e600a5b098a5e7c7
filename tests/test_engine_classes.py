"""The engine's classes are plain classes (so that the compiled engine makes them native, see
docs/compiled.md) that behave as the dataclasses they replaced: each lists its fields once
(``FIELDS``), in constructor order, and equality, ``repr``, hashing and copying follow them."""

from __future__ import annotations

import copy
import inspect
import pickle

import pytest

from engine import EndReason, GameState, RoundResult, RoundState, events, new_game
from engine.events import Deal, Draw, Event, GameStart, field_names, to_dict, with_fields
from engine.outcome import DEFAULTS, FIELDS, Outcome, Replaced, one


def _event_classes() -> list[type[Event]]:
    return [value for value in vars(events).values()
            if isinstance(value, type) and issubclass(value, Event) and value is not Event]


@pytest.mark.parametrize("cls", _event_classes(), ids=lambda c: c.__name__)
def test_an_event_class_lists_its_fields_in_constructor_order(cls: type[Event]) -> None:
    params = list(inspect.signature(cls.__init__).parameters)[1:]
    assert cls.FIELDS == field_names(cls) == tuple(params)
    assert cls.FIELDS == ("seq", "auto", *vars(cls)["__slots__"])   # every field has a slot
    assert cls.TYPE and not hasattr(cls(*range(len(params))), "__dict__")


def test_events_compare_hash_and_show_like_frozen_dataclasses() -> None:
    a, b = Draw(3, False, "ana", "deck", None), Draw(3, False, "ana", "deck", None)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != Draw(4, False, "ana", "deck", None) and a != with_fields(a, card="7")
    assert with_fields(a, card="7") == Draw(3, False, "ana", "deck", "7")
    assert repr(a) == "Draw(seq=3, auto=False, player='ana', source='deck', card=None)"
    assert a != events.Discard(3, False, "ana") and a != "draw"
    with pytest.raises(TypeError, match="has no field 'cards'"):
        with_fields(a, cards=None)
    deal = Deal(1, False, 1, "ana", {"ana": ("7",)}, "K", ("2", "3"))
    with pytest.raises(TypeError):   # a dict field: unhashable, as the frozen dataclass was
        hash(deal)
    assert to_dict(deal) == {"type": "deal", "seq": 1, "round": 1, "first": "ana",
                             "hands": {"ana": ["7"]}, "discard": "K", "deck": ["2", "3"]}


def test_outcome_defaults_are_the_base_class_values() -> None:
    assert tuple(DEFAULTS) == FIELDS
    assert DEFAULTS == {name: getattr(Outcome, name) for name in FIELDS}
    done = Replaced("7", ((0, 1),), ("K",), ((0, 3),), None, None, False)
    assert repr(done) == ("Replaced(card='7', places=((0, 1),), discarded=('K',), "
                          "learned=((0, 3),), success=True, turn_ended=True)")
    with pytest.raises(TypeError):
        hash(done)


@pytest.mark.parametrize("cls", [RoundState, GameState, RoundResult], ids=lambda c: c.__name__)
def test_state_classes_list_their_fields(cls: type[object]) -> None:
    params = list(inspect.signature(cls.__init__).parameters)[1:]
    slots = tuple(vars(cls)["__slots__"])
    assert cls.FIELDS == tuple(params) == slots[:len(params)]  # type: ignore[attr-defined]
    # past the fields: what the read API remembers between questions (never copied, compared)
    assert all(name.startswith("_") for name in slots[len(params):])


def test_states_copy_and_compare_field_by_field() -> None:
    header = GameStart(0, False, "g", "edition2", {}, ("ana", "bruno"), None, None)
    g = new_game(header)
    g.round.codes.append("7")
    deep, shallow = g.snapshot(), copy.copy(g)
    assert deep == g == shallow and deep.round is not g.round and shallow.round is g.round
    assert deep.round.codes is not g.round.codes and shallow.cumulative is g.cumulative
    deep.round.codes.append("8")
    assert deep != g and g.round.codes == ["7"]
    assert repr(g).startswith("GameState(rules=") and "round=RoundState(round_no=0" in repr(g)
    with pytest.raises(TypeError):
        hash(g)
    # the analysis sends positions to its worker processes: a pickled state comes back equal
    # (compiled, a native class is rebuilt through its constructor: ``GameState.__reduce__``)
    thawed = pickle.loads(pickle.dumps(g))
    assert thawed == g and thawed.round is not g.round and thawed.round.codes == ["7"]
    assert thawed.rules == g.rules and thawed.rules.name == "edition2"
    draw = Draw(3, False, "ana", "deck", "7")
    assert pickle.loads(pickle.dumps(draw)) == draw and pickle.loads(pickle.dumps(header)) == header


def test_round_results_compare_show_copy_and_pickle_like_their_dataclass() -> None:
    result = RoundResult(2, "ana", ("ana", "bruno"), "bruno", False, EndReason.CABO,
                         {"ana": ["7"], "bruno": ["K"]}, {"ana": 7, "bruno": 13},
                         {"ana": 7, "bruno": 18}, {"ana": 7, "bruno": 18}, 9, 1,
                         resets=("ana",))
    assert repr(result) == (
        "RoundResult(round=2, first='ana', players=('ana', 'bruno'), caller='bruno', "
        "cabo_success=False, end=<EndReason.CABO: 'cabo'>, hands={'ana': ['7'], 'bruno': "
        "['K']}, totals={'ana': 7, 'bruno': 13}, points={'ana': 7, 'bruno': 18}, "
        "cumulative={'ana': 7, 'bruno': 18}, turns=9, reshuffles=1, special=(), "
        "resets=('ana',), tiebreak=False)")
    deep, shallow, thawed = copy.deepcopy(result), copy.copy(result), pickle.loads(
        pickle.dumps(result))
    assert deep == shallow == thawed == result and deep.hands is not result.hands
    assert shallow.hands is result.hands and thawed.end is EndReason.CABO
    deep.hands["ana"].append("8")
    assert deep != result and result.hands["ana"] == ["7"] and result != "a round"
    assert not hasattr(result, "__dict__")
    with pytest.raises(TypeError):
        hash(result)


@pytest.mark.parametrize("seat", [-1, 0, 3, 6, 7, -2])
@pytest.mark.parametrize("number", [0, 53, 127, 128, -1])
def test_the_one_place_tuples_are_the_tuples_they_stand_for(seat: int, number: int) -> None:
    """``outcome.one`` shares a tuple made at import where it can (seats -1..6, numbers
    0..127) and builds one elsewhere: the same value either way."""
    made = one(seat, number)
    assert made == ((seat, number),) and type(made) is tuple and type(made[0]) is tuple
    assert (made is one(seat, number)) == (-1 <= seat <= 6 and 0 <= number <= 127)


def test_the_decoders_card_codes_are_the_objects_that_key_a_games_tables() -> None:
    """The codes of every deck are interned (``engine.cards``): the strings a decoder hands
    out (``every_code``) are the very keys of a game's ``deck_index`` and ``values_of``, so
    a lookup by code is an identity hit."""
    from engine.cards import every_code
    codes = {code: code for code in every_code()}
    for ruleset in ("edition1", "golf", "online"):
        g = new_game(GameStart(None, False, "g", ruleset, {}, ("a", "b"), None, None))
        assert all(codes[key] is key for key in g.deck_index)
        assert all(codes[key] is key for key in g.values_of)
