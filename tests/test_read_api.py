"""The engine's read API is the only way into the state: no module outside ``engine/`` reads
the round state or a ``GameState`` field that ``GameState.PUBLIC`` does not name (checked on
the source, by its syntax tree), and the API answers what the state holds.

The source check follows what the type annotations say: a name or attribute annotated
``GameState`` (a parameter, a variable, ``self.state: GameState``), or assigned from one, or
from a replay's ``.state``, is a state; reading any of its fields but the public ones is
flagged, and so is anything read through a ``.round`` attribute that holds a round state
(``X.round.codes``), and any import of ``RoundState``.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cabo_log.log.replay import ReplayVisitor, replay_bytes
from cabo_log.play.simulate import simulate
from engine import Event, GameState, Outcome, RoundState
from engine.knowledge import observe
from engine.moves import legal_moves

ROOT = Path(__file__).resolve().parents[1]
PRIVATE = (set(GameState.FIELDS) - set(GameState.PUBLIC)) | {"_views", "_lister"}
ROUND_FIELDS = set(RoundState.FIELDS)

REMAINDER: dict[str, int] = {}
"""Modules still reading the state's insides, with how many reads: none left."""


def _is_state_annotation(node: ast.expr | None) -> bool:
    if node is None:
        return False
    text = ast.unparse(node).replace("engine.", "").replace("'", "").replace('"', "")
    return text in ("GameState", "GameState | None", "Optional[GameState]")


class _Reads(ast.NodeVisitor):
    """The places one module reads a state's private fields."""

    def __init__(self) -> None:
        self.found: list[tuple[int, str]] = []
        self.state_attrs: set[str] = set()     # ``self.X`` holding a state, in this module
        self.scopes: list[set[str]] = [set()]  # names holding a state, innermost last

    # --- what holds a state -------------------------------------------------------------
    def is_state(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return any(node.id in scope for scope in self.scopes)
        if isinstance(node, ast.Attribute):
            if node.attr == "state":
                return True
            return (isinstance(node.value, ast.Name) and node.value.id == "self"
                    and node.attr in self.state_attrs)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return node.func.attr == "snapshot" or (
                node.func.attr == "deepcopy" and bool(node.args) and self.is_state(node.args[0]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return node.func.id == "new_game"
        return False

    def bind(self, target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.scopes[-1].add(target.id)
        elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
              and target.value.id == "self"):
            self.state_attrs.add(target.attr)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        scope = {a.arg for a in [*node.args.posonlyargs, *node.args.args,
                                 *node.args.kwonlyargs] if _is_state_annotation(a.annotation)}
        self.scopes.append(scope)
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if _is_state_annotation(node.annotation) or (
                node.value is not None and self.is_state(node.value)):
            self.bind(node.target)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if self.is_state(node.value):
            for target in node.targets:
                self.bind(target)
        self.generic_visit(node)

    # --- what reads a state's insides ---------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "round" \
                and node.attr in ROUND_FIELDS:
            self.found.append((node.lineno, ast.unparse(node)))
            self.visit(value.value)   # the chain's ``.round`` is this same read
            return
        if node.attr in PRIVATE and self.is_state(value):
            self.found.append((node.lineno, ast.unparse(node)))
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and node.module.startswith("engine"):
            for alias in node.names:
                if alias.name == "RoundState":
                    self.found.append((node.lineno, f"import of {alias.name}"))


def _prescan(tree: ast.Module) -> set[str]:
    """The ``self`` attributes annotated as a state anywhere in the module (a class's
    ``__init__`` may come after the method that reads them)."""
    attrs: set[str] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.AnnAssign) and _is_state_annotation(node.annotation)
                and isinstance(node.target, ast.Attribute)):
            attrs.add(node.target.attr)
    return attrs


def private_reads(source: str) -> list[tuple[int, str]]:
    """``(line, expression)`` of every read of a state's private fields in ``source``."""
    tree = ast.parse(source)
    reads = _Reads()
    reads.state_attrs = _prescan(tree)
    reads.visit(tree)
    return reads.found


def _modules() -> Iterator[Path]:
    for folder in ("cabo_log", "tools", "benchmarks"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_no_module_outside_the_engine_reads_the_state_insides() -> None:
    found: dict[str, list[tuple[int, str]]] = {}
    for path in _modules():
        reads = private_reads(path.read_text())
        if reads:
            found[path.relative_to(ROOT).as_posix()] = reads
    unexpected = {name: reads for name, reads in found.items() if name not in REMAINDER}
    assert not unexpected, unexpected
    assert {name: len(reads) for name, reads in found.items()} == REMAINDER


@pytest.mark.parametrize("source", [
    "def f(g: GameState) -> None:\n    print(g.round.pile)\n",
    "def f(g: GameState) -> None:\n    r = g.round\n",
    "def f(g: GameState) -> int:\n    return g.values_of['K']\n",
    "class A:\n    def __init__(self, g: GameState) -> None:\n        self.g = g\n"
    "    def f(self) -> int:\n        return self.g.everybody\n",
    "class A:\n    def f(self) -> int:\n        return self.s.deck_ids[0]\n"
    "    def __init__(self) -> None:\n        self.s: GameState = new_game(h)\n",
    "def f(result: ReplayResult) -> int:\n    return result.state.reset_used[0]\n",
    "def f(x: object) -> int:\n    return len(x.world.round.deck)\n",
    "from engine.state import RoundState\n",
])
def test_the_check_finds_a_read_of_the_insides(source: str) -> None:
    assert len(private_reads(source)) == 1


@pytest.mark.parametrize("source", [
    "def f(g: GameState) -> int:\n    return g.round_no() + g.deck_size() + len(g.players)\n",
    "def f(obs: Observation) -> int:\n    return obs.round\n",
    "def f(e: RoundEnd, r: RoundResult) -> int:\n    return e.round + r.round\n",
    "def f(rows: object) -> int:\n    return rows.round\n",
])
def test_the_check_lets_the_read_api_through(source: str) -> None:
    assert private_reads(source) == []


# --- the API answers what the state holds ---------------------------------------------------

SAMPLES = ROOT / "sample_games"


class _Each(ReplayVisitor[None]):
    """Runs ``check`` on the state after every event of a replay."""

    def __init__(self, check: Callable[[GameState], None]) -> None:
        self.check = check

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        self.check(state)


def _each_state(check: Callable[[GameState], None]) -> None:
    """``check`` at every step of the sample games and of simulated matches of every ruleset
    (forfeits, snaps and reshuffles included)."""
    logs = [path.read_bytes() for path in sorted(SAMPLES.glob("*.jsonl"))]
    for ruleset in ("edition1", "edition2", "golf", "online"):
        game = simulate(ruleset, players=4, seed=5, bots="random,greedy,expert,cautious",
                        forfeit_rate=0.01 if ruleset == "online" else 0.0)
        logs.append(game.lines())
    for data in logs:
        assert replay_bytes(data, visitor=_Each(check)).state is not None


def test_knows_is_what_the_observation_shows() -> None:
    """``knows(seat, place)``: the card at the place appears in the seat's observation."""
    checked = [0]

    def check(g: GameState) -> None:
        for seat in range(len(g.players)):
            obs = g.observation(seat)
            for owner in g.participants():
                if not g.active[owner]:
                    continue
                row = obs.rows[g.players[owner]]
                assert len(row) == g.row_size(owner)
                mask = g.knows_row(seat, owner)
                assert [bool(mask >> i & 1) for i in range(len(row))] == \
                    [shown is not None for shown in row]
                for position, shown in enumerate(row):
                    assert g.knows(seat, (owner, position)) == (shown is not None)
                    if shown is not None:
                        assert shown == g.card((owner, position))
                        checked[0] += 1

    _each_state(check)
    assert checked[0] > 10_000


@pytest.mark.parametrize("every", [1, 3, 17, 0])
def test_the_observation_answers_as_a_fresh_state_does(every: int) -> None:
    """What the state keeps between questions is never stale: each seat's observation equals
    that of a copy asked for the first time, and the table's facts agree with it; asked after
    every event, after some only (what the state remembers is then older), or (0) only right
    after each deal (where the pile holds the same card id in every round)."""
    rng = random.Random(every)

    def check(g: GameState) -> None:
        if every == 0:
            if g.turn() != 0 or g.pile_size() != 1:
                return
        elif rng.randrange(every):
            return
        fresh = g.snapshot()
        for seat in range(len(g.players)):
            obs = g.observation(seat)
            assert obs == fresh.observation(seat) == observe(g, g.players[seat])
            assert (obs.deck_size, obs.turn, obs.round) == (g.deck_size(), g.turn(),
                                                            g.round_no())
            assert list(obs.discard) == g.pile() and len(obs.discard) == g.pile_size()
            assert obs.discard[-1:] == ((g.discard_top(),) if g.pile() else ())
            if obs.to_play == obs.me:
                assert obs.drawn == g.drawn() and obs.pending_power == g.pending_power()
            own = g.observation(seat, own_row_only=True)
            assert own.rows == {k: v for k, v in obs.rows.items() if k == obs.me}

    _each_state(check)


def test_legal_moves_are_the_listed_moves() -> None:
    """``legal_moves()`` (lazy placements, remembered lists) gives ``moves.legal_moves``,
    item for item, with its length and indexing."""
    rng = random.Random(3)
    sizes: set[int] = set()

    def check(g: GameState) -> None:
        mine, listed = g.legal_moves(), legal_moves(g)
        assert list(mine) == listed and len(mine) == len(listed)
        if listed:
            i = rng.randrange(len(listed))
            assert mine[i] == listed[i] and mine[-1] == listed[-1]
        sizes.add(len(listed))

    _each_state(check)
    assert max(sizes) > 20   # placements of long rows were among them
