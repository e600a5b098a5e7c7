"""Puzzles from real mistakes: analysed decisions with one clearly best answer, shown as the
deciding player saw the table (docs/puzzles.md)."""
