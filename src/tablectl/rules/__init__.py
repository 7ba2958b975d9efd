"""The rules engine: hand evaluation and the settlement of every bet of the five games.

Entry point: ``from tablectl.rules.settle import settle`` -- ``settle(hands, rules)`` settles any
game's ``RoundHands``; house rules come from ``tablectl.rules.houserules`` (``rules_from_dict``).

One implementation of each rule, shared by the live table and the exact math (``tablectl.gamemath``):

- ``hand1``, ``hand3``, ``hand7``: evaluators (one card; three-card poker; best five of 5-7 cards).
- ``paytables``: pay tables, with the games' published tables (or conventional ones) as defaults.
- ``houserules``: one frozen dataclass of house rules per game, buildable from a config dict.
- ``payout``: the per-unit result of one bet and its conversion to cents.
- ``coverage``: a banking player's coverage limit (payouts capped at the banker's stake).
- one module per game (``one_card_poker``, ``three_card_poker``, ``one_for_the_money``,
  ``three_card_poker_florida``, ``texas_holdem_bonus``): its bet and decision names as constants,
  the pure outcome functions that settlement and the math both call, and ``settle_round``.
- ``settle``: ``settle(hands, rules)`` dispatching on the game id.
"""
