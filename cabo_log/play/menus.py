"""The menus of ``cabo-log play``: short enough that the table stays on a 24-row terminal.

The legal moves can be many: a swap is one of up to 37 pairs of cards, a spy one of 20 cards, a
placement one of 30 sets of positions, a golf snap one of every card of a long row. Listed
one per line they pushed the table off the screen. So the top menu lists each kind of move
once when it has many forms, and the choice is then made in small steps of a few lines each:
a card is picked from a grid laid out as the table is (a line of positions, one line per
player), by typing the player and the position (``bruno 2``), or the position alone among
one player's cards; a swap is picked card by card (your card, then theirs); several cards to
replace at once are typed as positions (``0 1``). Everything here reads an ``Observation``,
never the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cabo_log.play.prompt import card_text, move_text
from engine import Event
from engine.events import Power, Replace, Skip, Snap
from engine.knowledge import Observation
from engine.vocabulary import PowerKind

Slot = tuple[str, int]   # (player, position in their row)

BACK = ("b", "back")
QUIT = ("q", "quit")


@dataclass
class Entry:
    """One line of the top menu: a move, or a kind of move chosen in further steps."""

    label: str
    move: Event | None = None
    swaps: list[Power] = field(default_factory=list)     # a swap: your card, then theirs
    targets: list[Power] = field(default_factory=list)   # a spy: one card of another player
    several: list[Replace] = field(default_factory=list)  # replace several cards at once
    snaps: list[Snap] = field(default_factory=list)       # golf: snap one of your cards


def entries(moves: Sequence[Event], obs: Observation) -> list[Entry]:
    """The top menu for ``moves``: each move on its own line, except a swap, a spy and the
    replacements of several cards, which are one line each (chosen in the next steps)."""
    out: list[Entry] = []
    moves = [m for m in moves if not isinstance(m, Skip)] + \
        [m for m in moves if isinstance(m, Skip)]   # using the power first, skipping it last
    swaps = [m for m in moves if isinstance(m, Power) and m.power == PowerKind.SWAP]
    spies = [m for m in moves if isinstance(m, Power) and m.power == PowerKind.SPY]
    several = [m for m in moves if isinstance(m, Replace) and len(m.positions) > 1]
    snaps = [m for m in moves if isinstance(m, Snap)]
    held = _card(obs.drawn)
    for move in moves:
        if move in swaps:
            if move is swaps[0]:
                anyone = any(m.cards is not None and m.cards[0][0] != obs.me for m in swaps)
                out.append(Entry("use the swap power: pick the two cards" if anyone else
                                 "use the swap power: pick your card, then theirs",
                                 swaps=swaps))
        elif move in spies:
            if move is spies[0]:
                out.append(Entry("spy on another player's card: pick it", targets=spies))
        elif move in snaps and len(snaps) > 1:
            if move is snaps[0]:
                top = _card(obs.discard[-1]) if obs.discard else "?"
                out.append(Entry(f"snap one of your cards onto the {top}: pick it",
                                 snaps=snaps))
        elif move in several and len(several) > 1:
            if move is several[0]:
                out.append(Entry(f"replace several cards with the {held} (if all the same "
                                 "value)", several=several))
        else:
            out.append(Entry(move_text(move, obs), move=move))
    return out


def entry_lines(menu: Sequence[Entry]) -> list[str]:
    lines = [f"  {key:>2}  {entry.label}" for key, entry in enumerate(menu, start=1)]
    lines.append("   q  save and quit (continue later with --resume)")
    return lines


_card = card_text


def grid(slots: Sequence[Slot], obs: Observation) -> list[str]:
    """The cards ``slots`` laid out as the table is: a line of positions, then one line per
    player with their cards (``-`` where a card cannot be picked), and how to answer: the
    player and the position (``bruno 2``), or the position alone when all are one player's."""
    players = list(dict.fromkeys(p for p, _ in slots))
    allowed = set(slots)
    width = max(len(_whose(p, obs)) for p in players) + 1
    longest = max(len(obs.rows.get(p, ())) for p in players)
    lines = [f"   {'':<{width}} " + " ".join(f"{i:>3}" for i in range(longest))]
    for player in players:
        row = obs.rows.get(player, ())
        cells = [f"{_card(c) if (player, i) in allowed else '-':>3}" for i, c in enumerate(row)]
        lines.append(f"   {_whose(player, obs):<{width}} " + " ".join(cells))
    if len(players) == 1:
        positions = sorted(pos for _, pos in slots)
        lines.append(f"   type the position ({positions[0]} to {positions[-1]}); b: back, "
                     "q: quit")
    else:
        lines.append(f"   type the player and the position (e.g. {_example(slots, obs)}); "
                     "b: back, q: quit")
    return lines


def _whose(player: str, obs: Observation) -> str:
    return "you" if player == obs.me else player


def _example(slots: Sequence[Slot], obs: Observation) -> str:
    player, pos = slots[-1]
    return f"{_whose(player, obs)} {pos}"


def read_slot(answer: str, slots: Sequence[Slot], obs: Observation) -> Slot | None:
    """The card an answer names: ``PLAYER POSITION`` (``you`` or the player's own name for
    their own cards), or the position alone when every card offered is one player's. None
    if it names none of them."""
    words = answer.replace(",", " ").split()
    players = {p for p, _ in slots}
    if len(words) == 1 and words[0].isdigit() and len(players) == 1:
        words = [_whose(next(iter(players)), obs), words[0]]
    if len(words) == 2 and words[1].isdigit():
        name = obs.me if words[0].lower() in ("you", "me", "my", obs.me.lower()) else None
        for player, pos in slots:
            if (player == name or player.lower() == words[0].lower()) and pos == int(words[1]):
                return player, pos
    return None


def read_positions(answer: str) -> tuple[int, ...] | None:
    """``0 1`` or ``0,1`` -> (0, 1); None unless every word is a position."""
    words = answer.replace(",", " ").split()
    if not words or not all(w.isdigit() for w in words):
        return None
    return tuple(sorted(int(w) for w in words))


def first_slots(swaps: Sequence[Power]) -> list[Slot]:
    """The cards a swap can start from (the player's own first), each once."""
    return list(dict.fromkeys(_pair(m)[0] for m in swaps))


def second_slots(swaps: Sequence[Power], first: Slot) -> list[Slot]:
    """The cards a swap starting from ``first`` can take."""
    return [_pair(m)[1] for m in swaps if _pair(m)[0] == first]


def swap_of(swaps: Sequence[Power], first: Slot, second: Slot) -> Power | None:
    return next((m for m in swaps if _pair(m) == (first, second)), None)


def _pair(move: Power) -> tuple[Slot, Slot]:
    assert move.cards is not None
    (pa, ia), (pb, ib) = move.cards
    return (pa, ia), (pb, ib)


def target_slots(spies: Sequence[Power]) -> list[Slot]:
    return [m.target for m in spies if m.target is not None]


def spy_of(spies: Sequence[Power], slot: Slot) -> Power | None:
    return next((m for m in spies if m.target == slot), None)


def snap_slots(snaps: Sequence[Snap]) -> list[Slot]:
    return [(m.player, m.position) for m in snaps]


def snap_of(snaps: Sequence[Snap], slot: Slot) -> Snap | None:
    return next((m for m in snaps if (m.player, m.position) == slot), None)


def replace_of(several: Sequence[Replace], positions: tuple[int, ...]) -> Replace | None:
    return next((m for m in several if tuple(sorted(m.positions)) == positions), None)
