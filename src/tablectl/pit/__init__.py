"""The pit page: one live web page over every table of a floor (``tablectl pit``, docs/pit.md).

- ``state``: the floor folded from log records (pure): a tile per table, the alarms across tables,
  the layout of each table's round in play.
- ``rounds``: each table's rounds of the day as review rebuilds and replays them.
- ``expected``: the approved math's expected hold of a table's wagers (reused from analytics).
- ``feed``: the stream subscription that feeds the state and fans updates out to the pages (SSE).
- ``views``: the HTML fragments (Jinja2, autoescaped) a page and its live updates are made of.
- ``app``: the Starlette routes; ``auth``: where the page may listen and who may log in.
- ``floorview`` and ``plots``: the latest floor report's findings with inline SVG plots.
- ``nats``: the broker and stream adapter; ``demo`` and ``demo_table``: ``tablectl pit --demo N``.

The page is read-only: nothing in this package writes to a table or to the stream.
"""
