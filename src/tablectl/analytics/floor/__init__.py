"""The floor report: hold against the approved math by table, dealer, day, seat, player and
shuffler (``report``), theoretical win (``theo``), play from hidden cards across the floor
(``detection``), the tail probabilities and corrections behind each alarm (``tails``,
``group_tails``, ``stats``), and its text, HTML and plots (``render``, ``text_table``,
``detection_render``, ``plots``)."""
