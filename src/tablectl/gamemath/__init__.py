"""Exact combinatorial analysis of the games' bets: integers and fractions, no sampling.

Every analysis enumerates outcomes (grouped into exact equivalence classes) and feeds them
through the very outcome functions that settle a live round (``tablectl.rules``), so the math and
the table can never disagree about a rule. ``analyze(game, decks)`` is the entry point
(``tablectl.gamemath.analyze``); ``tablectl math`` prints it.
"""
