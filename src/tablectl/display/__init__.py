"""The live table display for dealer and pit (``tablectl run`` without ``--headless``).

- ``render``: a pure function from a ``TableView`` (face-up cards only) and the display's own
  small state to a rich renderable: header, seats, dealer / DP / board, the penetration bar with
  the cap marked, alarms with what to do, the last log events, the status and key help lines.
- ``keys``: the key map, a pure function from a key and the display state to a dealer input, a
  supervisor request or a text prompt.
- ``live``: the loop in a real terminal: ``rich.live.Live`` redrawn from the controller's view
  updates, keys read in cbreak mode, inputs submitted to the controller, rejections shown.
- ``state``: the display state shared by the three.

The display never learns a face-down or undealt card: the controller's ``TableView`` does not
hold them. ``render`` still draws a card back for a hidden slot and strips the card of any
face-down log line, as a second line of defence.
"""
