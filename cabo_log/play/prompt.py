"""What ``cabo-log play`` shows a person: the table as they know it, and their moves in words.

Everything here reads an ``Observation`` (engine.knowledge), never the state, so the screen
cannot show a card the player has not seen. Plain text, so it works in any terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from cabo_log.log.render import turn_number
from cabo_log.log.words import card_label, join_words
from engine import Event
from engine.events import Cabo, Discard, Draw, Peek, Power, Replace, Skip, Snap
from engine.knowledge import Observation
from engine.vocabulary import DrawSource, PowerKind


def card_text(code: str | None) -> str:
    """A card as the screen shows it: its label, or ?? for a card not seen."""
    return card_label(code) if code is not None else "??"


_card = card_text


def _list(items: Sequence[object]) -> str:
    return join_words([str(i) for i in items])


WIDTH = 79   # a terminal's 80 columns, the last one left free


def table_text(obs: Observation) -> list[str]:
    """The table as ``obs.me`` knows it: rows (?? for an unseen card), piles, scores."""
    width = max(len(p) for p in obs.players) + 6
    turn = f", turn {turn_number(obs.turn, obs.phase)}" if obs.round else ""
    lines = [f"--- Round {obs.round}{turn} " + "-" * 30]
    for player, row in obs.rows.items():
        label = player + (" (you)" if player == obs.me and player != "you" else "")
        mark = "*" if player == obs.to_play else " "
        cards = " ".join(f"{_card(c):>3}" for c in row) or "(no cards)"
        line = f" {mark}{label:<{width}} {cards}"
        if player == obs.me and row:   # the positions, beside the row or under it if long
            positions = " ".join(f"{i:>3}" for i in range(len(row)))
            if len(line) + 3 + len(positions) <= WIDTH:
                line += "   " + positions
            else:
                lines.append(line)
                line = f"  {'(positions)':<{width}} {positions}"
        lines.append(line)
    top = obs.discard[-1] if obs.discard else None
    lines.append(f"  discard pile: {_card(top) if top else '(empty)'}   draw pile: "
                 f"{obs.deck_size} cards" + (f"   {obs.caller} called Cabo" if obs.caller else ""))
    lines.append("  scores: " + ", ".join(f"{p} {s}" for p, s in obs.scores.items()))
    if obs.drawn is not None and obs.to_play == obs.me:
        lines.append(f"  you hold: {_card(obs.drawn)}")
    return lines


def move_text(move: Event, obs: Observation, *, own_cards: bool = True  # noqa: C901
              ) -> str:
    """One of the player's legal moves in words, in lower case (positions count from 0, as in
    the log): the terminal's menu, and the host's buttons (``pages.table.views.move_label``).
    ``own_cards``: name the cards of the player's own row the move gives up, as far as they
    know them (the terminal does; the page shows them on the table, beside the buttons)."""
    unseen = "??" if own_cards else "card"
    mine = obs.rows.get(obs.me, ())

    def card(code: str | None) -> str:
        return card_label(code) if code is not None else unseen

    def own(pos: int) -> str:
        return f" ({card(mine[pos]) if pos < len(mine) else unseen})" if own_cards else ""

    top = card(obs.discard[-1] if obs.discard else None)
    held = card(obs.drawn)
    if isinstance(move, Draw):
        return "draw from the deck" if move.source == DrawSource.DECK \
            else f"take the {top} from the discard pile"
    if isinstance(move, Cabo):
        return "call Cabo"
    if isinstance(move, Discard):
        return f"discard the {held}"
    if isinstance(move, Replace):
        if len(move.positions) == 1:
            pos = move.positions[0]
            return f"put the {held} in place of your card {pos}{own(pos)}"
        old = _list([card(mine[p]) if p < len(mine) else unseen for p in move.positions])
        return (f"replace your cards {_list(move.positions)}{f' ({old})' if own_cards else ''} "
                f"with the {held}: only if they are all the same value")
    if isinstance(move, Skip):
        return f"skip the {obs.pending_power} power"
    if isinstance(move, Power):
        if move.power == PowerKind.SWAP and move.cards is not None:
            (pa, ia), (pb, ib) = move.cards
            first = "your" if pa == obs.me else f"{pa}'s"
            return f"swap {first} card {ia} with {pb}'s card {ib}"
        assert move.target is not None
        who, pos = move.target
        return f"peek at your card {pos}" if move.power == PowerKind.PEEK else \
            f"spy on {who}'s card {pos}"
    if isinstance(move, Peek):
        return f"look at your cards {_list(move.positions)}"
    if isinstance(move, Snap):
        return f"snap your card {move.position}{own(move.position)} onto the {top}"
    return str(move)  # pragma: no cover - every move type is handled above
