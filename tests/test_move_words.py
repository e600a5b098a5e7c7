"""A legal move in words is said once (``play.prompt.move_text``): the terminal's menu names
the cards of the player's own row the move gives up, as far as the player knows them; the
host's buttons (``pages.table.views.move_label``) say the same words, capitalised, without
them. Checked on every legal move of every position of simulated matches of each ruleset."""

from __future__ import annotations

import re

import pytest

from cabo_log.log.words import card_label
from cabo_log.pages.table.views import move_label
from cabo_log.play.prompt import move_text
from cabo_log.play.simulate import simulate_game
from engine import GameStart, apply, new_game, parse_event
from engine.events import Replace, Snap
from engine.knowledge import observe
from engine.moves import legal_moves, snap_moves

OWN = re.compile(r" \([^()]*\)")   # a parenthesised list of the player's own cards


@pytest.mark.parametrize("ruleset", ["edition1", "edition2", "golf", "online"])
def test_the_terminal_and_the_page_say_a_move_alike(ruleset: str) -> None:
    lines = simulate_game(ruleset, players=3, seed=5, bots=["greedy"])
    header = parse_event(lines[0])
    assert isinstance(header, GameStart)
    g = new_game(header)
    named = said = 0
    for line in lines[1:]:
        who = g.current_player()
        if who is not None and not g.complete:
            obs = observe(g, who)
            row = obs.rows.get(who, ())
            for move in [*legal_moves(g), *snap_moves(g)]:
                if getattr(move, "player", who) != who:
                    continue
                text, label = move_text(move, obs), move_label(move, obs)
                said += 1
                assert label[:1].isupper() and label[1:] == OWN.sub("", text)[1:], (text, label)
                one = isinstance(move, Replace) and len(move.positions) == 1
                if one or isinstance(move, Snap):
                    pos = move.positions[0] if isinstance(move, Replace) else move.position
                    known = row[pos] if pos < len(row) else None
                    shown = card_label(known) if known is not None else "??"
                    assert f"your card {pos} ({shown})" in text, text
                    named += known is not None
        apply(g, parse_event(line))
    assert said > 100 and named > 0
