"""What brings a device to a state a contract test can start from (labgrid's "strategy"; pure).

On a rig the device under test keeps its state from one test to the next — a jam the last test
left, a shoe dealt down to its last cards. Before each test the plugin reads the device's Status
and has the actuator do the steps returned here (none when the device is ready, so a technician
is asked only when something needs doing).
"""

from __future__ import annotations

from tablectl.drivers.events import Status

#: Fewer cards than this in a shoe or a CSM and it is loaded before the next test.
MIN_CARDS = 20


def steps_to_ready(kind: str, status: Status) -> list[str]:
    """Actuator actions, in order, that make a device in ``status`` ready for a test."""
    steps = []
    if status.faults or status.door_open:
        steps.append("clear_faults")
    if kind in ("shoe", "csm") and status.cards_in_device < MIN_CARDS:
        steps.append("load")
    return steps
