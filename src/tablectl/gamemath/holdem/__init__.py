"""Texas Hold'em Bonus's main game, solved exactly: the lookup tables, the optimal strategy
(``main``), readable rules that approximate it (``rules``, ``situations``), the strategy's
cached form and export (``strategy``, ``export``), and the hole-card kernel advantage play uses."""
