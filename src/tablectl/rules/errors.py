"""The one error settlement raises: the round it was given cannot be settled as it stands."""


class SettlementError(ValueError):
    """A round's cards, wagers or decisions are inconsistent with the game's rules."""
