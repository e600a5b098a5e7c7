"""What a score sheet's page shows, built from the engine's state of the sheet: each round's
points and running totals, what decided each round and the resets (the terminal keeper's
``round_notes``, so both keepers say the same), the match end and its winners (``final``), and
the form of the next round: who may call, the players the rules seat, and how to type the
cards, worked out from the ruleset's deck (``suit_values``), never from its name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cabo_log.log.scoresheet import next_round, seated, suit_values
from cabo_log.log.words import card_label
from cabo_log.pages.table.sheet import NOBODY, Sheet
from cabo_log.play.tally import final, round_notes
from engine import GameState, Ruleset
from engine.vocabulary import ExactReset


def card_hint(rules: Ruleset) -> str:
    """How to type a row of this ruleset's deck, in words: values; what the faces count
    where the deck has faces; which cards count by their suit."""
    worth = rules.values()
    deck = sorted(set(rules.deck_codes()), key=lambda c: (worth[c], c))
    text = ("Each player's cards as values, spaces between (e.g. 7 12 0); - for a row "
            "with no cards.")
    faces: dict[str, list[int]] = {}
    for code in deck:
        rank = rank_of(code)
        if not rank.isdigit() and worth[code] not in faces.setdefault(rank, []):
            faces[rank].append(worth[code])
    if faces:
        said = ", ".join(f"{rank} {' or '.join(map(str, sorted(v)))}"
                         for rank, v in sorted(faces.items(), key=lambda f: max(f[1])))
        text += f" Faces: {said} (a code such as QH is taken too)."
    for rank, kinds in suit_values(rules).items():
        groups = [" ".join(card_label(c) for c in deck if rank_of(c) == rank
                           and worth[c] == value) + f" = {value}" for value in kinds]
        text += f" {rank} counts by its suit: {', '.join(groups)}."
    return text


def rank_of(code: str) -> str:
    """A card code's rank ("KH" -> "K"; "7" and "JK" as they are)."""
    return code if code == "JK" or code.isdigit() else code[:-1]


def round_rows(g: GameState) -> list[dict[str, Any]]:
    """Each scored round: each player's points and total after it (None for a player not in
    that round), the caller, the cards shown, what decided it."""
    rows = []
    for r in g.rounds:
        cells: list[dict[str, Any] | None] = []
        for p in g.players:
            if p not in r.points:
                cells.append(None)
                continue
            cells.append({"points": r.points[p], "total": r.cumulative[p],
                          "reset": p in r.resets, "caller": p == r.caller})
        cards = [{"name": p, "cards": " ".join(card_label(c) for c in r.hands.get(p, ()))
                  or "-", "total": r.totals[p]} for p in r.players if p in r.totals]
        rows.append({"round": r.round, "tiebreak": r.tiebreak, "cells": cells,
                     "notes": round_notes(r, g), "cards": cards})
    return rows


def entry(g: GameState) -> dict[str, Any] | None:
    """The form of the next round (None once the match is over)."""
    if g.complete:
        return None
    players = seated(g)
    return {"round": next_round(g), "tiebreak": g.tiebreak is not None,
            "players": [{"name": p, "field": f"cards{g.seat[p]}"} for p in players],
            "nobody": NOBODY if g.rules.deck_empty_ends_round else None,
            "hint": card_hint(g.rules),
            "forfeits": g.rules.forfeits,
            "active": [p for p in g.players if g.active[g.seat[p]]]}


def sheet_context(sheet: Sheet, *, can_enter: bool, load_note: str | None = None
                  ) -> dict[str, Any]:
    """Everything the sheet's page shows."""
    g = sheet.state
    rules = g.rules
    scores = g.cumulative_by_name()
    return {
        "id": sheet.id, "ruleset": rules.name, "target": rules.target,
        "reset": rules.reset_value(), "resets": rules.exact_reset is not ExactReset.NEVER,
        "players": [{"name": p, "score": scores[p], "active": bool(g.active[i]),
                     "winner": p in g.winners} for i, p in enumerate(g.players)],
        "rounds": round_rows(g), "over": g.complete,
        "final": final(g).strip() if g.complete else None,
        "entry": entry(g) if can_enter else None, "load_note": load_note,
    }


def form_texts(sheet: Sheet, form: Mapping[str, str]) -> dict[str, str]:
    """Each seated player's typed cards, from the form's fields (named by seat, never by a
    player's name)."""
    g = sheet.state
    return {p: form.get(f"cards{g.seat[p]}", "") for p in seated(g)}
