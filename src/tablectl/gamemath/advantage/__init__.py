"""Advantage play, exact: the best strategy and edge of a player who holds hidden information
(dealer cards seen, card backs sorted high/low, other players' cards), one module per game, with
the shape of a figure (``figure``) and the cache of the long Texas Hold'em Bonus count."""
