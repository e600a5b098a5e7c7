"""Who sat in each seat: a player's *kind* (``human``, ``bot:expert``, ...) from the header.

The engine keeps only what the rules need from a ``game`` line; the kinds are extra header
fields (FORMAT.md: "anything else"), read here from the header's raw line so that a load keeps
them in ``game_players.kind``. docs/format.md, "Players and their kinds", is the contract:

- ``kinds``: ``{player: kind}``, any non-empty text (``human``, ``bot:expert``, ``bot:v2``);
- ``bots``: ``{player: bot}`` (what ``simulate`` and ``play`` write): the kind ``bot:<bot>``;
- ``human``: the player a person plays (``play``): the kind ``human``.

``kinds`` wins over ``bots`` and ``human``; a player none of them names has no kind (NULL).
A malformed field is ignored like any unknown field (a replay never rejects a log for it).
"""

from __future__ import annotations

from typing import Any

import orjson

HUMAN = "human"
BOT_PREFIX = "bot:"


def kinds_of(header: Any) -> dict[str, str]:
    """The kind of each player a header (a decoded ``game`` object) names."""
    if not isinstance(header, dict):
        return {}
    out: dict[str, str] = {}
    human = header.get("human")
    if isinstance(human, str) and human:
        out[human] = HUMAN
    bots = header.get("bots")
    if isinstance(bots, dict):
        for player, bot in bots.items():
            if isinstance(bot, str) and bot:
                out[player] = BOT_PREFIX + bot
    kinds = header.get("kinds")
    if isinstance(kinds, dict):
        for player, kind in kinds.items():
            if isinstance(kind, str) and kind.strip():
                out[player] = kind.strip()
    return out


def header_kinds(data: bytes) -> dict[str, str]:
    """The kinds the first non-blank line of a log (its header) names; {} when it names none
    (or is not JSON: the replay reports that)."""
    start = 0
    while True:
        end = data.find(b"\n", start)
        line = data[start:] if end < 0 else data[start:end]
        if line.strip() or end < 0:
            break
        start = end + 1
    if b'"bots"' not in line and b'"kinds"' not in line and b'"human"' not in line:
        return {}   # the common case costs a substring search, not a second decode
    try:
        return kinds_of(orjson.loads(line))
    except orjson.JSONDecodeError:
        return {}
