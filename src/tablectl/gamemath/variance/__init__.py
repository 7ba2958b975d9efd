"""Exact second moments: the variance of a round's theoretical win given what the players saw
(``theo``, ``theo_holdem``) and the covariance of two bets of one seat (``joint``)."""
