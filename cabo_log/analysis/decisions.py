"""The decisions of a log: every point where a player chose among several legal moves.

A decision is the position right before the player's move (a copy of the state, and the card
pools the player could tell apart), the move they made, and every legal alternative. Kinds:
``draw`` (start of a turn: draw from the deck, take the discard, or call Cabo), ``place`` (a
held card: discard it or replace which position(s)), ``power`` (use a power, and on whom, or
skip it). A power left unused because the next turn simply began counts as a skip. Moves the
server made on a timeout (``"auto": true``), initial peeks and snaps are not decisions here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cabo_log.log.logfile import iter_events, iter_lines
from engine import CaboLogError, Event, GameStart, GameState, LogSyntaxError, apply, new_game
from engine.events import Cabo, Discard, Draw, Forfeit, Power, Replace, Skip, with_fields
from engine.knowledge import row_view
from engine.moves import legal_moves
from engine.vocabulary import DRAWN, POWER, TURN_START
from engine.worlds import Pools, fork


class Kind(StrEnum):
    """What a decision is about."""

    DRAW = "draw"      # start of a turn: deck, discard, or Cabo
    PLACE = "place"    # a held card: discard it, or which position(s) it replaces
    POWER = "power"    # a power: use it (on which card) or skip it


KIND_OF: dict[type, Kind] = {Draw: Kind.DRAW, Cabo: Kind.DRAW, Discard: Kind.PLACE,
                             Replace: Kind.PLACE, Power: Kind.POWER, Skip: Kind.POWER}


@dataclass
class Decision:
    """One decision: the position before it, what was chosen, and the alternatives."""

    index: int                 # 0-based, in log order
    seq: int                   # seq (or 0-based event index) of the event that made it
    line: int                  # its line in the file
    player: str
    seat: int
    kind: Kind
    state: GameState           # the table right before the move (an independent copy)
    pools: Pools
    chosen: Event
    options: list[Event]       # every legal move; the chosen one as it was made
    implicit: bool = False     # a power that lapsed because the next turn began

    @property
    def forced(self) -> bool:
        return len(self.options) < 2


@dataclass
class GameRecord:
    """A replayed game and its decisions."""

    file: str | None
    game_id: str
    players: tuple[str, ...]
    ruleset: str
    state: GameState
    decisions: list[Decision]


def option_key(move: Event) -> tuple[object, ...]:
    """Two moves with the same key are the same choice (``into``/``end`` aside)."""
    if isinstance(move, Draw):
        return ("draw", move.source)
    if isinstance(move, Replace):
        return ("replace", tuple(sorted(move.positions)))
    if isinstance(move, Power):
        return ("power", move.power, move.target, move.cards)
    return (type(move).__name__,)


class NeedsFullRecord(ValueError):
    """A score sheet (``record: "tally"``) has no moves to judge: only each round's end."""

    def __init__(self, file: str | None) -> None:
        super().__init__(f"{file or 'the log'} is a score sheet (\"record\": \"tally\"): it "
                         "shows the cards at the end of each round, not the moves; analysis "
                         "needs a full record of every event (replay and timeline show its "
                         "rounds and scores)")


def read_decisions(data: bytes, file: str | None = None) -> GameRecord:
    """Replay a log and collect its decisions; a bad log raises its located CaboLogError."""
    state: GameState | None = None
    pools = Pools()
    decisions: list[Decision] = []
    number = 0
    for number, event in iter_events(iter_lines(data), file):
        if state is None:
            if not isinstance(event, GameStart):
                raise LogSyntaxError("no_header", "the first line must be the 'game' header"
                                     ).located(file, number)
            state = new_game(event)
            if state.tally:
                raise NeedsFullRecord(file)
            continue
        decision = _decision_before(state, pools, event, len(decisions), number)
        try:
            apply(state, event)
        except CaboLogError as exc:
            raise exc.located(file, number) from None
        if decision is not None:
            decisions.append(decision)
        pools.follow(state)
    if state is None:
        raise LogSyntaxError("empty_log", "the log has no lines").located(file, max(number, 1))
    return GameRecord(file, state.game_id, state.players, state.rules.name, state, decisions)


def _decision_before(g: GameState, pools: Pools, event: Event, index: int,
                     line: int) -> Decision | None:
    """The decision ``event`` makes (or the lapse it implies), seen from before it."""
    if g.phase not in (TURN_START, DRAWN, POWER) or event.auto:
        return None
    seat = g.to_act()
    player = g.players[seat]
    chosen: Event | None = None
    implicit = False
    if g.phase == POWER and not (isinstance(event, (Power, Skip)) and event.player == player):
        if isinstance(event, Forfeit):
            return None
        chosen, implicit = Skip(None, False, player), True
    elif type(event) in KIND_OF and getattr(event, "player", None) == player:
        chosen = event
    if chosen is None:
        return None
    chosen = with_fields(chosen, seq=None, auto=False)
    if isinstance(chosen, Draw):
        chosen = with_fields(chosen, card=None)
    options = _options(g, chosen)
    seq = event.seq if event.seq is not None else g.events - 1
    return Decision(index, seq, line, player, seat, KIND_OF[type(chosen)], fork(g),
                    pools.copy(), chosen, options, implicit)


def _options(g: GameState, chosen: Event) -> list[Event]:
    """The legal moves worth comparing, the chosen one substituted as made. Left out unless
    chosen: looking at a card the player already sees (the same as skipping the power), a
    multi-replacement the player does not know to succeed (a gamble that grows the row and
    shows the cards), a blind swap of two cards the player has not seen."""
    seat = g.to_act()
    key = option_key(chosen)
    views = {p: row_view(g, seat, g.seat[p]) for p in g.players if g.in_round(g.seat[p])}
    options: list[Event] = []
    for move in legal_moves(g):
        if option_key(move) == key:
            options.append(chosen)
        elif worth_comparing(move, views, g.rules.values()):
            options.append(move)
    if key not in {option_key(m) for m in options}:
        options.append(chosen)
    return options


def worth_comparing(move: Event, views: dict[str, tuple[str | None, ...]],
                    value_of: dict[str, int]) -> bool:
    """Whether a move not chosen is a candidate for the best (see ``_options``); ``views``:
    every row as the deciding player sees it."""
    if isinstance(move, Replace) and len(move.positions) > 1:
        row = views[move.player]
        cards = [row[p] for p in move.positions]
        return None not in cards and len({value_of[c] for c in cards if c is not None}) == 1
    if isinstance(move, Power) and move.target is not None:
        owner, position = move.target
        return views[owner][position] is None
    if isinstance(move, Power) and move.cards is not None:
        return any(views[owner][position] is not None for owner, position in move.cards)
    return True
