"""cabo-log: replays, checks and analyses logs of the card game Cabo (README.md)."""

import os

if "CABO_LOG_PURE" in os.environ:   # =1: the sources, even beside installed compiled modules
    from engine.native import prefer_sources

    prefer_sources(__path__)
