"""What ``cabo-log play`` shows a person, screen by screen: the table and its question fit a
24-row terminal (a swap is chosen card by card, a spy from a grid), a round's end turns every
hand over and says why each player scores what they score, and a table's turn number is the
one ``replay --until`` gives for the same moment. Matches are played in-process with an
answering script that picks among what each screen offers; one is then replayed through the
command's standard input, which must print the same screens."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cabo_log.log.builder import LogBuilder
from cabo_log.log.gamelog import GameLog
from cabo_log.log.render import describe_table
from cabo_log.log.replay import replay_file
from cabo_log.play.interactive import Match, Quit, new_match
from engine import resolve

CLI = str(Path(sys.executable).with_name("cabo-log"))
ROWS = 24   # a terminal's height: the screen of a question, with its prompt line, fits


@dataclass
class Script:
    """Answers what each screen asks, at random among what it offers (now and then something
    wrong, or ``b``), and remembers every screen and the log's last seq at each question."""

    log: GameLog
    rng: random.Random
    said: list[str] = field(default_factory=list)
    screens: list[tuple[int, list[str]]] = field(default_factory=list)   # (seq, lines)
    answers: list[str] = field(default_factory=list)
    start: int = 0    # where the current screen begins in ``said``
    limit: int = 3000

    def say(self, text: str) -> None:
        for line in text.split("\n"):
            if line == "" and self.said[-1:] != [""]:
                self.start = len(self.said)    # a blank line opens a screen
            self.said.append(line)

    def ask(self, prompt: str) -> str:
        if len(self.answers) >= self.limit:
            raise EOFError
        screen = self.said[self.start:]
        self.screens.append((self.log.next_seq - 1, screen))
        answer = self.pick(screen)
        self.answers.append(answer)
        self.said.append(f"{prompt}{answer}")
        return answer

    def pick(self, screen: list[str]) -> str:
        roll = self.rng.random()
        if roll < 0.03:
            return "x"                                  # a typo: asked again
        if any(line.startswith("   type the p") for line in screen):   # a grid of cards
            if roll < 0.08:
                return "b"
            top = next(i for i, line in enumerate(screen) if re.match(r"^ +0 +1", line))
            rows = screen[top + 1:-1]
            line = self.rng.choice(rows)
            player, *cards = line.split()
            pos = self.rng.choice([i for i, c in enumerate(cards) if c != "-"])
            one = len(rows) == 1 and roll < 0.5
            return str(pos) if one else f"{player} {pos}"
        if any("Type their positions" in line for line in screen):
            return self.rng.choice(["0 1", "1 2", "0 1 2", "b", "0 0"])
        menu = {int(m.group(1)): m.group(2) for line in screen
                if (m := re.match(r"^\s+(\d+)  (\S.*)", line))}
        calm = [n for n, label in menu.items() if label != "call Cabo"]  # Cabo: now and then
        power = [n for n, label in menu.items()
                 if label.startswith(("discard the", "use the", "spy on"))]
        if power and roll > 0.4:                        # often: a power, and then its steps
            return str(self.rng.choice(power))
        return str(self.rng.choice(calm if calm and roll > 0.05 else list(menu)))


def play_match(tmp: Path, ruleset: str, players: int, seed: int, bots: str = "greedy,random",
               options: dict[str, object] | None = None) -> tuple[Script, Path]:
    path = tmp / f"{ruleset}-{players}-{seed}.jsonl"
    log = new_match(path, ruleset, players, bots, seed=seed, options=options)
    with log:
        script = Script(log, random.Random(seed))
        try:
            Match(log, script.ask, script.say).play()
        except Quit:
            pass
    return script, path


MATCHES = [("edition1", 5, 1), ("edition2", 4, 2), ("golf", 3, 3), ("online", 5, 4),
           ("edition1", 2, 5), ("online", 2, 6)]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Script, Path]]:
    tmp = tmp_path_factory.mktemp("play")
    return [(ruleset, *play_match(tmp, ruleset, players, seed))
            for ruleset, players, seed in MATCHES]


def test_every_question_fits_a_terminal_with_the_table_in_view(
        played: list[tuple[str, Script, Path]]) -> None:
    for _, script, _ in played:
        assert len(script.screens) > 20
        for _, screen in script.screens:
            fits(screen)


def fits(screen: list[str]) -> None:
    """The table, the question and its choices, then the prompt: on 24 rows of 80 columns."""
    table = next(i for i, line in enumerate(screen) if line.startswith("--- Round"))
    assert len(screen) - table + 1 <= ROWS, "\n".join(screen)
    assert all(len(line) <= 80 for line in screen[table:]), "\n".join(screen)


def at_a_swap(tmp: Path, ruleset: str, players: list[str]) -> Path:
    """A match log where the person ("you", first to play) has just discarded a 12 drawn
    from the deck: the swap power is theirs to use."""
    b = LogBuilder(ruleset, players, game_id="swap", human="you", seed=1,
                   bots={p: "greedy" for p in players[1:]})
    hands = dict(zip(players, (["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "0", "1"],
                               ["2", "3", "4", "5"], ["6", "7", "8", "9"]), strict=False))
    b.deal(hands, "0", ["12"], first="you")
    for p in players:
        b.peek(p, [0, 1])
    b.draw("you").discard("you")
    return b.write(tmp / f"{ruleset}-swap.jsonl")


def answered(path: Path, answers: list[str]) -> tuple[Script, list[dict[str, object]]]:
    """Play on in ``path`` with these answers (then stop), and return the screens and the
    events the answers appended."""
    before = len(path.read_text().splitlines())
    with GameLog.open(path) as log:
        script = Script(log, random.Random(0), limit=len(answers))
        script.pick = lambda screen: answers[len(script.answers)]   # type: ignore[method-assign]
        try:
            Match(log, script.ask, script.say).play()
        except Quit:
            pass
    events = [json.loads(line) for line in path.read_text().splitlines()[before:]]
    return script, events


def title(screen: list[str]) -> str:
    return next(line for line in screen if line.endswith(("?", ":"))
                and not line.startswith(("---", " ")))


def test_a_swap_is_chosen_your_card_then_theirs(tmp_path: Path) -> None:
    path = at_a_swap(tmp_path, "edition2", ["you", "ana", "bruno", "carla", "dario"])
    script, events = answered(path, ["1", "1", "b", "you 2", "bruno 1"])
    assert [title(screen) for _, screen in script.screens] == [
        "Your move:", "Your card to swap:", "Swap your card 1 (2) with which card?",
        "Your card to swap:", "Swap your card 2 (??) with which card?"]
    first = script.screens[0][1]
    assert "   1  use the swap power: pick your card, then theirs" in first
    assert first[-2:] == ["   2  skip the swap power",
                          "   q  save and quit (continue later with --resume)"]
    mine = script.screens[1][1][-3:]
    assert mine == ["          0   1   2   3",
                    "   you    1   2  ??  ??",
                    "   type the position (0 to 3); b: back, q: quit"]
    theirs = script.screens[2][1][-6:]
    assert theirs == ["            0   1   2   3",
                      "   ana     ??  ??  ??  ??",
                      "   bruno   ??  ??  ??  ??",
                      "   carla   ??  ??  ??  ??",
                      "   dario   ??  ??  ??  ??",
                      "   type the player and the position (e.g. dario 3); b: back, q: quit"]
    for _, screen in script.screens:
        fits(screen)
    assert events[0] == {"type": "power", "seq": events[0]["seq"], "player": "you",
                         "power": "swap", "cards": [["you", 2], ["bruno", 1]]}


def test_edition1_swaps_any_two_players_cards_picked_in_turn(tmp_path: Path) -> None:
    path = at_a_swap(tmp_path, "edition1", ["you", "ana", "bruno"])
    script, events = answered(path, ["1", "ana 3", "bruno 1"])
    assert title(script.screens[1][1]) == "The first card of the swap:"
    assert title(script.screens[2][1]) == "Swap ana's card 3 (??) with which card?"
    assert events[0]["cards"] == [["ana", 3], ["bruno", 1]]


def test_several_cards_at_once_are_typed_as_positions(tmp_path: Path) -> None:
    b = LogBuilder("edition2", ["you", "ana"], game_id="many", human="you", seed=1,
                   bots={"ana": "greedy"})
    b.deal({"you": ["3", "3", "7", "9"], "ana": ["5", "6", "7", "8"]}, "0", ["2"], first="you")
    b.peek("you", [0, 1]).peek("ana", [0, 1]).draw("you")
    path = b.write(tmp_path / "many.jsonl")
    script, events = answered(path, ["6", "0 9", "1 0"])
    assert title(script.screens[1][1]) == "Which of your cards do you replace with the 2?"
    assert "  type 2 to 4 different positions of your row (e.g. 0 1), or b" in script.said
    assert events[0]["type"] == "replace" and events[0]["positions"] == [0, 1]


def test_a_round_end_turns_every_hand_over_and_says_why(
        played: list[tuple[str, Script, Path]]) -> None:
    for ruleset, script, path in played:
        g = replay_file(path).state
        assert g is not None and g.rounds
        text = "\n".join(script.said)
        assert "checks out" not in text and "claim" not in text
        rules = resolve(ruleset, {})
        values = rules.values()
        for result in g.rounds:
            start = script.said.index(next(line for line in script.said
                                           if line.startswith(f"Round {result.round} is over")))
            end = next(i for i in range(start, len(script.said))
                       if script.said[i].startswith("Scores now: "))
            block = script.said[start:end + 1]
            if result.end == "forfeit":
                continue
            assert block[1] == "Every hand, turned over:"
            for player in result.points:
                row = next(line for line in block[2:] if line.split()[:1] == [player])
                hand = [values[c] for c in result.hands[player]]
                assert re.search(rf"total +{sum(hand)}  scores +{result.points[player]}$", row)
                assert ("(called)" in row) is (player == result.caller)
            why = " ".join(block[2 + len(result.points):])
            caller = "you" if result.caller == "you" else result.caller
            if result.special:
                assert "scores 0" in why or "score 0" in why
            elif result.caller is not None and result.caller in result.points:
                points, total = result.points[result.caller], result.totals[result.caller]
                if points == total + rules.caller_penalty:
                    assert f"{total} + {rules.caller_penalty} penalty = {points}" in why
                    assert "the call fails" in why
                else:
                    assert points == 0 and f"{caller} score" in why
            assert f"Scores now: {', '.join(f'{p} {v}' for p, v in result.cumulative.items())}" \
                in block


def test_the_turn_of_a_table_is_the_one_replay_gives(
        played: list[tuple[str, Script, Path]]) -> None:
    for _, script, path in played:
        for seq, screen in script.screens[::7]:
            header = next(line for line in screen if line.startswith("--- Round"))
            shown = re.match(r"--- Round (\d+), turn (\d+) ", header)
            assert shown is not None
            g = replay_file(path, until=seq).state
            assert g is not None
            table = describe_table(g)[0]
            assert table.startswith(f"Table in round {shown.group(1)}, turn {shown.group(2)}:"), \
                (header, table)


def test_standard_input_drives_the_same_screens(tmp_path: Path) -> None:
    """The answers of an in-process match, typed into the command, give the same screens."""
    script, _ = play_match(tmp_path, "edition1", 3, 7, bots="greedy")
    out = tmp_path / "typed.jsonl"
    done = subprocess.run([CLI, "play", "--ruleset", "edition1", "--players", "3", "--bot",
                           "greedy", "--seed", "7", "--out", str(out)],
                          input="".join(f"{a}\n" for a in script.answers), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    typed = [line for line in done.stdout.replace("> ", "\n").splitlines() if line.strip()]
    expected = [line for line in "\n".join(script.said).replace("> ", "\n").splitlines()
                if line.strip() and not re.fullmatch(r"\S{1,7}( \d)*", line.strip())]
    typed = [line for line in typed if not re.fullmatch(r"\S{1,7}( \d)*", line.strip())]
    assert typed[1:len(expected) + 1] == expected   # after "Playing FILE as you; ..."
    assert out.read_bytes() == (tmp_path / "edition1-3-7.jsonl").read_bytes().replace(
        b'"game_id":"edition1-3-7"', b'"game_id":"typed"')
