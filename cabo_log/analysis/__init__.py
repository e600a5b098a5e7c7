"""Analysis of play: which decisions cost points given what the player knew, and what-ifs.

Along the data flow: ``worlds`` (the one module that re-deals hidden cards in a copy of the
engine state), ``rollout`` (bots play a position on), ``decisions`` (the decisions of a log),
``evaluate`` (expected points of every option), ``marks`` (marks, accuracy, words),
``analyse`` (a whole game, in parallel), ``whatif``.
"""
