"""One round's house procedure, pure (no I/O): the procedure cursor through the game's deal
script, the cards on the layout, each card's validation, the penetration cap, the bank's rotation,
the bank's stake against the action, and a voided round's wagers."""
