"""The table controller: one owner thread and one inbox per table, the lifecycle state machine,
the game-agnostic procedure cursor, validation of every card, the penetration cap, the dealer
inputs, the view for the display, and the wiring of a running table (``runtime``) and the
virtual dealer. See docs/table.md.

Entry points: ``tablectl.table.controller.TableController`` (the API the live display and the
virtual dealer use), ``tablectl.table.runtime.TableRuntime`` (a running table on real or simulated
devices).
"""
