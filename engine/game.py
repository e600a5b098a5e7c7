"""Starting a match from its header and applying events to it: ``new_game`` and ``apply``.

``apply`` is the one function that advances the state (the eventsourcing "mutator"): it checks
``seq``, lets a pending power lapse when something else happens, and hands the event to the
handler declared for its class (``engine.dispatch``).
"""

from __future__ import annotations

from collections import Counter
from typing import Final, cast

from . import claims, deal, interrupts, play, powers, tally  # noqa: F401  (their @handles declarations)
from .dispatch import HANDLERS, Handler
from .errors import CaboLogError, InconsistentLogError, RulesetError
from .events import Discard, Draw, Event, Forfeit, GameStart, Power, Replace, Skip
from .outcome import NOTHING, AfterLapse, Ended, Outcome
from .play import discard as handle_discard
from .play import draw as handle_draw
from .play import replace as handle_replace
from .powers import power as handle_power
from .rulesets import Ruleset, resolve
from .state import GameState, RoundState
from .table import end_turn
from .vocabulary import POWER, PowerKind


def new_game(header: GameStart, rules: Ruleset | None = None) -> GameState:
    """The state right after the ``game`` line; ``rules`` overrides the header's ruleset."""
    if rules is None:
        rules = resolve(header.ruleset, header.options)
    players = header.players
    if len(set(players)) != len(players):
        raise RulesetError("bad_players", "player ids must be unique")
    if any(not p for p in players):
        raise RulesetError("bad_players", "a player id must not be empty")
    if not rules.players_allowed(len(players)):
        raise RulesetError("bad_players",
                           f"{rules.name} is for {rules.min_players} to "
                           f"{rules.player_limit()} players with {rules.decks} "
                           f"deck{'s' if rules.decks > 1 else ''}, not {len(players)}")
    if header.seq is not None and header.seq != 0:
        raise InconsistentLogError("seq_gap", f"the header's seq must be 0, not {header.seq}")
    count = len(players)
    values_of, power_of, deck_counter, index, kinds = _derived(rules)
    return GameState(
        rules=rules, game_id=header.game_id, players=players,
        names=dict(header.names or {}),
        seat={p: i for i, p in enumerate(players)},
        values_of=dict(values_of), power_of=dict(power_of), deck_counter=dict(deck_counter),
        deck_index=dict(index), deck_values=kinds[0][:], deck_counts=kinds[1][:],
        deck_ids=kinds[2][:],
        active=[True] * count, cumulative=[0] * count, reset_used=[False] * count,
        round=RoundState(peeked=[False] * count, in_play=[False] * count),
        everybody=(1 << count) - 1,
        seq_mode=header.seq is not None,
        tally=header.record == "tally",
    )


_Kinds = tuple[list[int], list[int], list[int]]
_Derived = tuple[dict[str, int], dict[int, PowerKind], dict[str, int], dict[str, int], _Kinds]
_DERIVED: Final[dict[Ruleset, _Derived]] = {}


_LAST: list[tuple[Ruleset, _Derived]] = []


def _derived(rules: Ruleset) -> _Derived:
    """The tables a game derives from its ruleset (values, powers, the deck counted, its kinds
    of card numbered with their values and counts, the card numbers of a full deck from the
    last down), worked out once per ruleset: a corpus names a few rulesets, and working them
    out cost more than replaying a round. Each game gets copies (``new_game``).

    A built-in ruleset without options is the same object in every header that names it:
    the tables last used for that very object are found without hashing it (a frozen
    dataclass hashes all its fields on every lookup)."""
    for seen, tables in _LAST:
        if seen is rules:
            return tables
    found = _DERIVED.get(rules)
    if found is None:
        codes = rules.deck_codes()
        values = rules.values()
        counter = dict(Counter(codes))
        kinds = sorted(counter)
        index = {code: number for number, code in enumerate(kinds)}
        found = (values, rules.power_table(), counter, index,
                 ([values[code] for code in kinds], [counter[code] for code in kinds],
                  list(range(len(codes) - 1, -1, -1))))
        if len(_DERIVED) >= 64:   # house rules are data: keep the memory bounded
            _DERIVED.clear()
        _DERIVED[rules] = found
    if len(_LAST) >= 8:
        del _LAST[0]
    _LAST.append((rules, found))
    return found


def apply(g: GameState, e: Event) -> Outcome:
    """Advance the match by one event and say what it did, or raise the error that says why
    it cannot happen (and change nothing).

    ``g.events`` counts the accepted lines, header included, so with ``seq`` on every line it
    is also the seq the next line must carry; a rejected line changes neither.
    """
    seq = e.seq
    if g.seq_mode:
        if seq is None or seq != g.events:   # narrowed to int: compiled, a machine compare
            _seq_error(g, seq)
    elif seq is not None:
        _seq_error(g, seq)
    kind = type(e)
    # The most frequent kinds (``DIRECT``) call their handler by name: compiled, a native call
    # instead of a dict lookup and a generic call that checks its arguments again
    # (engine.dispatch says why these are not decorated);
    # tests/test_dispatch.py checks that each is the handler its kind registered. Every other
    # kind goes through the registry.
    if g.phase is POWER and not _keeps_power(g, e, kind):
        done = _after_lapse(g, e, HANDLERS[kind])
    elif kind is Draw:
        done = handle_draw(g, cast(Draw, e))
    elif kind is Discard:
        done = handle_discard(g, cast(Discard, e))
    elif kind is Replace:
        done = handle_replace(g, cast(Replace, e))
    elif kind is Power:
        done = handle_power(g, cast(Power, e))
    else:
        done = HANDLERS[kind](g, e)
    g.events += 1
    return done


DIRECT: Final[dict[type[Event], Handler]] = {
    Draw: handle_draw, Discard: handle_discard, Replace: handle_replace, Power: handle_power}
"""The kinds ``apply`` calls by name, with the handler it calls."""


def _after_lapse(g: GameState, e: Event, handler: Handler) -> Outcome:
    """Something other than the user's power or skip comes while a power is pending: the power
    lapses, the turn ends (which may score the round), and the event is judged against the
    state after that. Should the event be rejected, the lapse is undone as well, so that a
    rejected line changes nothing; the few fields a turn end can touch are saved first (the
    lapse is rare enough for that, and far cheaper than copying the state)."""
    saved = _Lapse(g)
    lapsed = g.round.pending_power
    result = end_turn(g)
    try:
        done = handler(g, e)
    except CaboLogError:
        saved.restore(g)
        raise
    return AfterLapse(done, lapsed, result, result is not None and g.complete)


class _Lapse:
    """What ``end_turn`` (and the round scoring it may start) can change, saved to undo it."""

    __slots__ = ("round", "pending_power", "phase", "current", "final_left", "cumulative",
                 "reset_used", "rounds", "known", "slot_changes", "ending", "winners", "complete",
                 "tiebreak")

    def __init__(self, g: GameState) -> None:
        self.round = r = g.round
        self.pending_power = r.pending_power
        self.phase = g.phase
        self.current = r.current
        self.final_left = r.final_left[:]
        self.cumulative = g.cumulative[:]
        self.reset_used = g.reset_used[:]
        self.rounds = len(g.rounds)
        self.known = r.known[:]
        self.slot_changes = r.slot_changes[:]
        self.ending = g.ending
        self.winners = g.winners
        self.complete = g.complete
        self.tiebreak = g.tiebreak

    def restore(self, g: GameState) -> None:
        """Put the fields back (lists in place: readers may hold on to them)."""
        g.round = r = self.round
        r.pending_power = self.pending_power
        g.phase = self.phase
        r.current = self.current
        r.final_left[:] = self.final_left
        g.cumulative[:] = self.cumulative
        g.reset_used[:] = self.reset_used
        del g.rounds[self.rounds:]
        r.known[:] = self.known
        r.slot_changes[:] = self.slot_changes
        g.ending = self.ending
        g.winners = self.winners
        g.complete = self.complete
        g.tiebreak = self.tiebreak


def _keeps_power(g: GameState, e: Event, kind: type) -> bool:
    """A power stays pending through its user's power/skip and through any forfeit (a
    forfeit of the user ends the turn itself, before the round can be scored)."""
    if kind is Power or kind is Skip:
        # the current player's name (the phase is POWER): a string compare, no hashing
        player: str = e.player  # type: ignore[attr-defined]
        return player == g.players[g.round.current]
    return kind is Forfeit


def _seq_error(g: GameState, seq: int | None) -> None:
    if not g.seq_mode:
        raise InconsistentLogError("seq_unexpected",
                                   "the header has no seq, so no line may have one")
    if seq is None:
        raise InconsistentLogError("seq_missing", f"this line has no seq; {g.events} was expected")
    if seq < g.events:
        raise InconsistentLogError("seq_repeat",
                                   f"seq {seq} repeats an earlier line; {g.events} was expected")
    raise InconsistentLogError("seq_gap", f"seq jumps from {g.events - 1} to {seq}")


def finish(g: GameState) -> Outcome:
    """The log ends here: a power still pending is read as skipped (FORMAT.md). The outcome
    says what that lapse did (``NOTHING`` when no power was pending)."""
    if g.phase is not POWER:
        return NOTHING
    lapsed = g.round.pending_power
    result = end_turn(g)
    return Ended(result, result is not None and g.complete, lapsed)
