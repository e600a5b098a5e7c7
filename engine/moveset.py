"""The placements of a drawn card as a lazy sequence: the one generator of placements.

With a drawn card in hand a player may discard it or replace 1 to 4 (or the ruleset's limit)
cards of their row, any combination of positions. A row grown by failed multi-replacements to
20 cards has 6,195 of them, and a random bot, which picks one, would spend most of its time
building moves it never plays. ``Placements`` is that sequence in the rules' order
(``itertools.combinations``, by count), a move computed only when it is asked for: its length
by arithmetic, item ``i`` by unranking. ``moves.legal_moves`` lists it whole;
``GameState.legal_moves`` hands it out as it is, and ``kinds`` groups it the way a random bot
picks (``SafeCombos`` leaves out the multi-replacements its player knows would fail).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final, overload

from .events import Discard, Event, Replace
from .state import GameState

_UNKNOWN: Final = -(1 << 30)   # the class of an unknown card in ``SafeCombos`` (no card value)

LISTED_REPLACE_LIMIT: Final = 4
"""Multi-replacements are listed up to this many cards where the ruleset sets no limit."""


class LazyMoves(Sequence[Event]):
    """A list of moves made only when asked for: indexing (negative indices and slices too)
    checks the bounds once here, and ``_at`` makes the move at a valid index."""

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        size = len(self)
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(size))]
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        return self._at(index)

    def _at(self, index: int) -> Event:
        raise NotImplementedError


class Combos(LazyMoves):
    """Replacements of ``low``..``high`` positions out of ``size``, in the engine's order."""

    def __init__(self, player: str, size: int, low: int, high: int) -> None:
        self.player = player
        self.size = size
        self.low, self.high = low, high
        self._counts: list[tuple[int, int]] | None = None

    @property
    def counts(self) -> list[tuple[int, int]]:
        """(count, how many combinations of that count), computed when first needed."""
        if self._counts is None:
            self._counts = [(k, comb(self.size, k)) for k in range(self.low, self.high + 1)]
        return self._counts

    @property
    def total(self) -> int:
        if self.low == self.high == 1:
            return self.size
        return sum(n for _, n in self.counts)

    def __len__(self) -> int:
        return self.total

    def _at(self, index: int) -> Event:
        if self.low == self.high == 1:
            return Replace(None, False, self.player, (index,), None, None)
        for count, number in self.counts:
            if index < number:
                return Replace(None, False, self.player, _unrank(self.size, count, index),
                               None, None)
            index -= number
        raise IndexError(index)  # pragma: no cover - the counts add up to total

    def __iter__(self) -> Iterator[Event]:
        for count, _ in self.counts:
            for combo in combinations(range(self.size), count):
                yield Replace(None, False, self.player, combo, None, None)


def comb(n: int, k: int) -> int:
    """``math.comb(n, k)`` for the small counts of a row (0 when ``k`` > ``n``), in machine
    integers when compiled: the lazy lists count and unrank with it on every decision."""
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def _suffix_counts(kind: list[int], cls: int) -> list[int]:
    """``counts[p]``: how many of the positions ``p..`` are of class ``cls`` (one more entry,
    0, past the end), the table ``SafeCombos`` unranks with."""
    counts = [0] * (len(kind) + 1)
    n = 0
    for p in range(len(kind) - 1, -1, -1):
        if kind[p] == cls:
            n += 1
        counts[p] = n
    return counts


def _unrank(size: int, count: int, index: int) -> tuple[int, ...]:
    """The ``index``-th ``count``-combination of ``range(size)`` in lexicographic order."""
    out: list[int] = []
    start = 0
    for left in range(count, 0, -1):
        for value in range(start, size):
            block = comb(size - value - 1, left - 1)
            if index < block:
                out.append(value)
                start = value + 1
                break
            index -= block
    return tuple(out)


class Placements(LazyMoves):
    """``legal_moves`` in the DRAWN phase: an optional discard, then every replacement."""

    def __init__(self, g: GameState,
                 made: dict[str, dict[int, Sequence[Event]]] | None = None) -> None:
        r = g.round
        me = g.players[r.current]
        self.me = me
        self.size = size = len(r.rows[r.current])
        self.made = made   # moves made before, to hand out again: player -> size -> moves
        self.discard: Sequence[Event] = () if r.drawn_source != "deck" else (
            self._made(me, -1) if made is not None else (Discard(None, False, me),))
        self.limit = min(g.rules.max_replace or LISTED_REPLACE_LIMIT, size)
        self._all: Combos | None = None

    def _made(self, me: str, size: int) -> Sequence[Event]:
        """The player's discard (``size`` -1), or their single replacements in a row of
        ``size``: the same moves every time, so made once per match."""
        assert self.made is not None
        mine = self.made.get(me)
        if mine is None:
            mine = self.made[me] = {}
        moves = mine.get(size)
        if moves is None:
            moves = mine[size] = (
                (Discard(None, False, me),) if size < 0 else
                tuple([Replace(None, False, me, (i,), None, None) for i in range(size)]))
        return moves

    @property
    def all(self) -> Combos:
        if self._all is None:
            self._all = Combos(self.me, self.size, 1, self.limit)
        return self._all

    def kinds(self, row: tuple[str | None, ...] | None = None,
              values: dict[str, int] | None = None) -> dict[str, Sequence[Event]]:
        """The moves by kind, as ``RandomBot`` groups them (discard, replace, multi); with the
        player's ``row`` and card ``values``, multi-replacements known to fail are left out
        (counted only if a bot asks how many: ``SafeCombos``). Made per decision: a row
        rarely comes back within a match (remembering them cost more than it saved)."""
        out: dict[str, Sequence[Event]] = {}
        if self.discard:
            out["discard"] = self.discard
        if self.limit >= 1:
            out["replace"] = (Combos(self.me, self.size, 1, 1) if self.made is None
                              else self._made(self.me, self.size))
        if self.limit >= 2:
            multi: Sequence[Event] = (
                Combos(self.me, self.size, 2, self.limit) if row is None or values is None
                else SafeCombos(self.me, row, values, 2, self.limit))
            if multi:
                out["multi"] = multi
        return out

    def __len__(self) -> int:
        return len(self.discard) + len(self.all)

    def __bool__(self) -> bool:
        return bool(self.discard) or self.limit >= 1

    def _at(self, index: int) -> Event:
        if self.discard:
            if index == 0:
                return self.discard[0]
            index -= 1
        return self.all[index]

    def __iter__(self) -> Iterator[Event]:
        yield from self.discard
        yield from self.all


class SafeCombos(LazyMoves):
    """The multi-replacements (``low``..``high`` positions) that are not known to fail for
    someone who sees ``row``: no two known cards of different values among the positions
    (``counting.known_to_fail``). Same order as filtering the engine's list; counted and
    unranked by class: each known position belongs to its value's class, an unknown to none,
    and a valid combination takes known cards of one class at most (Vandermonde's identity
    counts those: choosing ``r`` among a class's ``n`` and the ``u`` unknown is C(n+u, r))."""

    def __init__(self, player: str, row: tuple[str | None, ...], values: dict[str, int],
                 low: int, high: int) -> None:
        self.player = player
        self.row, self.values, self.low, self.high = row, values, low, high
        self._total: int | None = None   # counted when first asked: a bot that picks
                                         # another kind of move never asks
        self.kind: list[int] = []        # each position's class (``_kinds``), when needed
        self.tabled = False              # the unranking tables (``_tables``) made

    def _kinds(self) -> list[int]:
        """Each position's class: its card's value, ``_UNKNOWN`` for an unknown card (plain
        ints, compared natively when compiled); looked up once per row."""
        kind = self.kind
        if not kind:
            values, row = self.values, self.row
            for i in range(len(row)):
                code = row[i]
                kind.append(values[code] if code is not None else _UNKNOWN)
        return kind

    def _prepare(self) -> int:
        """Count the valid combinations of each size from the class sizes alone."""
        unknown = 0
        sizes: dict[int, int] = {}
        for cls in self._kinds():
            if cls == _UNKNOWN:
                unknown += 1
            else:
                sizes[cls] = sizes.get(cls, 0) + 1
        classes = list(sizes.values())
        counts: list[tuple[int, int]] = []
        total = 0
        for k in range(self.low, self.high + 1):
            base = comb(unknown, k)
            number = base
            for n in classes:
                number += comb(n + unknown, k) - base
            counts.append((k, number))
            total += number
        self.counts = counts
        self._total = total
        return total

    def _tables(self) -> None:
        """Suffix counts for unranking: unknown[p], known[v][p] among positions p.. on."""
        kind = self._kinds()
        self.size = len(kind)
        self.unknown = _suffix_counts(kind, _UNKNOWN)
        classes = sorted({k for k in kind if k != _UNKNOWN})
        self.known = {v: _suffix_counts(kind, v) for v in classes}
        self.tabled = True

    @property
    def total(self) -> int:
        return self._total if self._total is not None else self._prepare()

    def __bool__(self) -> bool:
        """Whether any is valid, without counting them: two unknown cards, an unknown and a
        known one, or two known cards of one value (the pairs are the smallest moves)."""
        if self.high < 2:
            return False
        values = self.values
        row = self.row
        unknown = False
        seen: list[int] = []   # rows are short: a list scanned in machine ints, no set
        for i in range(len(row)):   # one pass, stopping at the first valid pair found
            code = row[i]
            if code is None:
                if unknown or len(seen) > 0:
                    return True
                unknown = True
            else:
                value = values[code]
                if unknown:
                    return True
                for other in seen:
                    if other == value:
                        return True
                seen.append(value)
        return False

    def _ways(self, p: int, r: int, cls: int) -> int:
        """Valid ways to pick ``r`` more positions from ``p`` on, known ones of ``cls`` only
        (of any single class when ``cls`` is ``_UNKNOWN``)."""
        u = self.unknown[p]
        if cls != _UNKNOWN:
            return comb(self.known[cls][p] + u, r)
        base = comb(u, r)
        total = base
        for n in self.known.values():
            total += comb(n[p] + u, r) - base
        return total

    def __len__(self) -> int:
        return self.total

    def _at(self, index: int) -> Event:
        for count, number in self.counts:
            if index < number:
                return Replace(None, False, self.player, self._unrank(count, index), None,
                               None)
            index -= number
        raise IndexError(index)  # pragma: no cover - the counts add up to total

    def _unrank(self, count: int, index: int) -> tuple[int, ...]:
        if not self.tabled:
            self._tables()
        out: list[int] = []
        start, cls = 0, _UNKNOWN
        for left in range(count, 0, -1):
            for q in range(start, self.size):
                kind = self.kind[q]
                if kind != _UNKNOWN and cls != _UNKNOWN and kind != cls:
                    continue
                after = kind if kind != _UNKNOWN else cls
                block = self._ways(q + 1, left - 1, after)
                if index < block:
                    out.append(q)
                    start, cls = q + 1, after
                    break
                index -= block
        return tuple(out)

    def __iter__(self) -> Iterator[Event]:
        for i in range(self.total):
            yield self[i]
