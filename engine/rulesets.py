"""Rulesets as frozen data: the four built-in variants and house rules made of the same parameters.

The state machine never asks *which* ruleset it plays; it asks the ruleset a question
(``rules.power_of(value)``, ``rules.caller_succeeds(...)``). A house rule is therefore just another
instance, built from a JSON object of these parameters in the log header.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, Final

from .cards import CABO_DECK, STANDARD_DECK, deck_codes, value_table
from .errors import RulesetError
from .vocabulary import POWERS, ExactReset, PowerKind

# How a tie for the lowest match total is settled.
TIE_SHARE: Final = "share"                     # ties share the win
TIE_LAST_ROUND: Final = "last_round"           # fewest points in the last round, else another round
TIE_BREAK_ROUNDS: Final = "tiebreak_rounds"    # extra rounds with only the tied players

# Who starts a round after the first.
FIRST_LOGGED: Final = "logged"                 # whoever the log names
FIRST_FEWEST_POINTS: Final = "fewest_points"   # fewest points in the previous round
FIRST_ROTATE: Final = "rotate"                 # next seat after the previous first player

# What happens to a player whose match total is exactly the target (``ExactReset``).
RESET_NEVER: Final[ExactReset] = ExactReset.NEVER
RESET_ALWAYS: Final[ExactReset] = ExactReset.ALWAYS
RESET_ONCE: Final[ExactReset] = ExactReset.ONCE

_RESETS: dict[str, ExactReset] = {m.value: m for m in ExactReset}
DEFAULT_POWERS: tuple[tuple[int, PowerKind], ...] = (
    (7, PowerKind.PEEK), (8, PowerKind.PEEK), (9, PowerKind.SPY), (10, PowerKind.SPY),
    (11, PowerKind.SWAP), (12, PowerKind.SWAP),
)


@dataclass(frozen=True)
class Ruleset:
    """Every parameter that distinguishes one way of playing Cabo from another."""

    name: str
    description: str = ""
    # cards
    deck: str = CABO_DECK
    jokers: int = 0
    red_king_value: int = 13
    decks: int = 1
    # table
    min_players: int = 2
    max_players: int = 5
    max_players_two_decks: int = 6
    # setup
    peek_count: int = 2
    peek_positions: tuple[int, ...] | None = None   # None: the player chooses
    # turns
    max_replace: int = 0                            # 0: any number of equal cards
    choose_failed_end: bool = False                 # failed multi-replacement: log picks the end
    failed_penalty_from: int = 3                    # failed with this many cards: +1 penalty card
    taken_discard_face_up: bool = True
    power_from_replaced: bool = False               # golf: any card this turn put on the pile
    powers: tuple[tuple[int, PowerKind], ...] = DEFAULT_POWERS
    swap_any_two_players: bool = False              # edition1: the user may be neither player
    snap: bool = False
    reshuffle: bool = True
    deck_empty_ends_round: bool = False
    forfeits: bool = False
    # scoring
    caller_ties_ok: bool = False
    caller_penalty: int = 10
    lowest_scores_zero: bool = False                # edition1: the lowest hand scores 0
    special_row: tuple[int, ...] | None = (12, 12, 13, 13)
    special_caller_zero: bool = False               # golf kamikaze: a caller totalling exactly 0
    special_penalty: int | None = 50                # None: half the target
    special_name: str = "Kamikaze"                  # what players call the special hand
    # match
    target: int = 100
    end_at_target: bool = False                     # True: >= target ends; False: > target
    exact_reset: ExactReset = ExactReset.NEVER
    tie_rule: str = TIE_SHARE
    first_player: str = FIRST_LOGGED
    options: tuple[str, ...] = field(default=("target", "decks"))

    def __post_init__(self) -> None:
        # the vocabulary's members, however the parameters were written (plain strings too)
        object.__setattr__(self, "powers",
                           tuple((v, POWERS.get(p, p)) for v, p in self.powers))
        if self.exact_reset in _RESETS:
            object.__setattr__(self, "exact_reset", _RESETS[self.exact_reset])
        problems = _check(self)
        if problems:
            raise RulesetError("bad_ruleset", f"ruleset {self.name!r}: " + "; ".join(problems))

    # --- questions the engine asks -------------------------------------------------------
    def __copy__(self) -> Ruleset:
        return self

    def __reduce__(self) -> tuple[type[Ruleset], tuple[Any, ...]]:
        # pickled through the constructor, for the same reason (the analysis' workers)
        return Ruleset, tuple(getattr(self, f.name) for f in fields(self))

    def __deepcopy__(self, memo: dict[int, object]) -> Ruleset:
        """A ruleset is frozen data, so a copied state shares it. Written out because the
        default deep copy rebuilds the object through ``setattr``, which a compiled engine's
        frozen native class refuses (docs/compiled.md)."""
        return self

    def deck_codes(self) -> list[str]:
        return deck_codes(self.deck, self.jokers, self.decks)

    def values(self) -> dict[str, int]:
        """Code -> value for every card of this ruleset's deck."""
        return value_table(self.deck_codes(), self.deck, self.red_king_value)

    def power_table(self) -> dict[int, PowerKind]:
        return dict(self.powers)

    def power_of(self, value: int) -> PowerKind | None:
        return self.power_table().get(value)

    def players_allowed(self, count: int) -> bool:
        limit = self.max_players if self.decks == 1 else self.max_players_two_decks
        return self.min_players <= count <= limit

    def player_limit(self) -> int:
        return self.max_players if self.decks == 1 else self.max_players_two_decks

    def caller_succeeds(self, caller_total: int, other_totals: list[int]) -> bool:
        """Strictly lowest, or not beaten where the ruleset lets the caller tie."""
        if self.caller_ties_ok:
            return all(total >= caller_total for total in other_totals)
        return all(total > caller_total for total in other_totals)

    def special_points(self) -> int:
        return self.target // 2 if self.special_penalty is None else self.special_penalty

    def reset_value(self) -> int:
        return self.target // 2

    def is_over_target(self, total: int) -> bool:
        return total >= self.target if self.end_at_target else total > self.target

    def parameters(self) -> dict[str, Any]:
        """The ruleset as plain JSON-ready data (what ``cabo-log rules NAME`` prints)."""
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, tuple):
                data[key] = [list(v) if isinstance(v, tuple) else v for v in value]
        return data


# Bounds on the numbers a header may set, so that every value, total and score a game derives
# fits the database's integer columns (docs/schema.md): card values at most 100 keep any hand
# total (at most 112 cards) a SMALLINT; points per round within 10**9 keep match totals far
# from the end of a BIGINT however many (tie-break) rounds are played.
MAX_CARD_VALUE: Final = 100
MAX_POINTS: Final = 10**9


def _bounds(rules: Ruleset) -> list[str]:
    problems = []
    if not -MAX_CARD_VALUE <= rules.red_king_value <= MAX_CARD_VALUE:
        problems.append(f"red_king_value must be from {-MAX_CARD_VALUE} to {MAX_CARD_VALUE}")
    if rules.target > MAX_POINTS:
        problems.append(f"target must be at most {MAX_POINTS:,}")
    for name in ("caller_penalty", "special_penalty"):
        value = getattr(rules, name)
        if value is not None and not -MAX_POINTS <= value <= MAX_POINTS:
            problems.append(f"{name} must be from {-MAX_POINTS:,} to {MAX_POINTS:,}")
    return problems


def _check(rules: Ruleset) -> list[str]:
    problems = []
    if rules.deck not in (CABO_DECK, STANDARD_DECK):
        problems.append(f"deck must be 'cabo' or 'standard', not {rules.deck!r}")
    if rules.decks not in (1, 2):
        problems.append("decks must be 1 or 2")
    if rules.jokers < 0 or rules.jokers > 4:
        problems.append("jokers must be 0 to 4")
    if rules.target < 1:
        problems.append("target must be at least 1")
    problems += _bounds(rules)
    if rules.peek_count < 0 or rules.peek_count > 4:
        problems.append("peek_count must be 0 to 4")
    if rules.peek_positions is not None and (
        len(rules.peek_positions) != rules.peek_count
        or any(p not in range(4) for p in rules.peek_positions)
    ):
        problems.append("peek_positions must list peek_count positions from 0 to 3")
    if rules.min_players < 2 or rules.max_players < rules.min_players:
        problems.append("player limits are inconsistent")
    if rules.exact_reset not in tuple(ExactReset):
        problems.append("exact_reset must be 'never', 'always' or 'once'")
    if rules.tie_rule not in (TIE_SHARE, TIE_LAST_ROUND, TIE_BREAK_ROUNDS):
        problems.append("tie_rule must be 'share', 'last_round' or 'tiebreak_rounds'")
    if rules.first_player not in (FIRST_LOGGED, FIRST_FEWEST_POINTS, FIRST_ROTATE):
        problems.append("first_player must be 'logged', 'fewest_points' or 'rotate'")
    for _value, power in rules.powers:
        if power not in POWERS:
            problems.append(f"unknown power {power!r}")
    if rules.max_replace < 0:
        problems.append("max_replace must be 0 (any) or more")
    return problems


EDITION1 = Ruleset(
    name="edition1",
    description="First-edition official rules: lowest hand scores 0, caller penalty 5, "
                "exact 100 -> 50 every time.",
    caller_ties_ok=True, caller_penalty=5, lowest_scores_zero=True,
    swap_any_two_players=True, exact_reset=RESET_ALWAYS,
)

EDITION2 = Ruleset(
    name="edition2",
    description="Second-edition official rules: caller may tie, penalty 10, the empty deck "
                "ends the round, exact 100 -> 50 once.",
    caller_ties_ok=True, caller_penalty=10, reshuffle=False, deck_empty_ends_round=True,
    exact_reset=RESET_ONCE, tie_rule=TIE_LAST_ROUND, first_player=FIRST_FEWEST_POINTS,
)

GOLF = Ruleset(
    name="golf",
    description="Standard playing cards, red king = -1, snap discards, single replacement only.",
    deck=STANDARD_DECK, red_king_value=-1, max_players=4, max_players_two_decks=6,
    peek_positions=(0, 3), max_replace=1, taken_discard_face_up=False,
    power_from_replaced=True, snap=True, caller_penalty=10, special_row=None,
    end_at_target=True, tie_rule=TIE_BREAK_ROUNDS, first_player=FIRST_ROTATE,
    options=("target", "decks", "jokers", "open_peek", "no_snap", "kamikaze"),
)

ONLINE = Ruleset(
    name="online",
    description="Standard cards + 2 jokers, positions 0-1 peeked, shoot the moon, forfeits, "
                "no reshuffle.",
    deck=STANDARD_DECK, jokers=2, red_king_value=13, max_players=5, max_players_two_decks=5,
    peek_positions=(0, 1), max_replace=4, choose_failed_end=True, taken_discard_face_up=False,
    reshuffle=False, forfeits=True, caller_penalty=5, special_penalty=None, end_at_target=True,
    special_name="shoot the moon",
)

BUILTINS: dict[str, Ruleset] = {r.name: r for r in (EDITION1, EDITION2, GOLF, ONLINE)}


class BuiltinRuleset(StrEnum):
    """The names of ``BUILTINS`` as a type, so a command line can offer them as choices."""

    EDITION1 = "edition1"
    EDITION2 = "edition2"
    GOLF = "golf"
    ONLINE = "online"

# Options a log header may set; each maps to ruleset parameters.
_OPTION_TYPES: dict[str, type] = {
    "target": int, "decks": int, "jokers": bool, "open_peek": bool, "no_snap": bool,
    "kamikaze": bool,
}


def with_options(base: Ruleset, options: dict[str, Any]) -> Ruleset:
    """Apply the header's ``options`` to a ruleset; an option it does not have is an error."""
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key not in base.options or key not in _OPTION_TYPES:
            allowed = ", ".join(base.options) or "none"
            raise RulesetError("bad_option",
                               f"option {key!r} does not exist in {base.name} "
                               f"(its options: {allowed})")
        wanted = _OPTION_TYPES[key]
        if type(value) is not wanted:
            raise RulesetError("bad_option",
                               f"option {key!r} must be {_KIND[wanted]}, "
                               f"not {_typed(value)}")
        if key == "target":
            changes["target"] = value
        elif key == "decks":
            changes["decks"] = value
        elif key == "jokers":
            changes["jokers"] = 2 if value else 0
        elif key == "open_peek" and value:
            changes["peek_count"] = 4
            changes["peek_positions"] = (0, 1, 2, 3)
        elif key == "no_snap" and value:
            changes["snap"] = False
        elif key == "kamikaze":
            changes["special_caller_zero"] = value
    return replace(base, **changes) if changes else base


_TUPLE_FIELDS = {"peek_positions", "special_row", "options"}


def house_rules(spec: dict[str, Any]) -> Ruleset:
    """A ruleset from a header object: ``{"base": "edition1", "caller_penalty": 7, ...}``.

    Without ``base`` the parameters start from edition1's; ``name`` defaults to ``"house"``.
    """
    spec = dict(spec)
    base_name = spec.pop("base", "edition1")
    if not isinstance(base_name, str) or base_name not in BUILTINS:
        raise RulesetError("bad_ruleset", f"house rules: unknown base ruleset {base_name!r}")
    known = {f.name: f for f in fields(Ruleset)}
    changes: dict[str, Any] = {"name": spec.pop("name", "house")}
    if not isinstance(changes["name"], str):
        raise RulesetError("bad_ruleset", "house rules: 'name' must be a string")
    for key, value in spec.items():
        if key not in known:
            raise RulesetError("bad_ruleset", f"house rules: unknown parameter {key!r}")
        changes[key] = _coerce(key, value, getattr(BUILTINS[base_name], key))
    try:
        return replace(BUILTINS[base_name], **changes)
    except TypeError as exc:  # pragma: no cover - guarded by _coerce
        raise RulesetError("bad_ruleset", f"house rules: {exc}") from None


def _coerce(key: str, value: Any, default: Any) -> Any:
    if key == "powers":
        if not isinstance(value, dict):
            raise RulesetError("bad_ruleset", "house rules: 'powers' must map values to powers")
        try:
            return tuple(sorted((int(k), POWERS.get(v, str(v))) for k, v in value.items()))
        except (TypeError, ValueError):
            raise RulesetError("bad_ruleset", "house rules: 'powers' keys must be card values")\
                from None
    if key in _TUPLE_FIELDS:
        if value is None and key != "options":
            return None
        item = str if key == "options" else int
        if not isinstance(value, list) or not all(type(v) is item for v in value):
            raise RulesetError("bad_ruleset",
                               f"house rules: {key!r} must be a list of "
                               f"{'strings' if item is str else 'whole numbers'}")
        return tuple(value)
    if key == "special_penalty" and value is None:
        return None
    if isinstance(default, StrEnum):  # a word of the vocabulary, written as its string
        if type(value) is not str:
            raise RulesetError("bad_ruleset",
                               f"house rules: {key!r} must be a string, not {_typed(value)}")
        members = {m.value: m for m in type(default)}
        return members.get(value, value)  # an unknown word is reported by _check
    expected = type(default) if default is not None else int
    if type(value) is not expected:
        raise RulesetError("bad_ruleset",
                           f"house rules: {key!r} must be {_KIND[expected]}, "
                           f"not {_typed(value)}")
    return value


_KIND: dict[type, str] = {int: "a whole number", str: "a string", bool: "true or false"}


def _typed(value: Any) -> str:
    """A value named with its JSON type where the bare repr misleads: '50' looks like 50."""
    if isinstance(value, str):
        return f"a string ({value!r})"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def resolve(ruleset: Any, options: dict[str, Any]) -> Ruleset:
    """The ruleset a header asks for: a built-in name or a house-rule object, plus options."""
    if isinstance(ruleset, str):
        if ruleset not in BUILTINS:
            raise RulesetError("unknown_ruleset",
                               f"unknown ruleset {ruleset!r} (built-in: "
                               f"{', '.join(BUILTINS)})")
        base = BUILTINS[ruleset]
    elif isinstance(ruleset, dict):
        base = house_rules(ruleset)
    else:
        raise RulesetError("bad_ruleset", "ruleset must be a name or an object of parameters")
    return with_options(base, options)
