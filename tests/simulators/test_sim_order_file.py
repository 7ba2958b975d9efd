"""``tablectl sim --order FILE`` reads its card order as tablectl reads every input file: a FIFO or
a device is refused without waiting on it, and so is a file too large to be a card order, in one
line with exit 2 (``/dev/zero`` once took a shared machine's whole memory; a FIFO waited forever).

The commands run under a 2 GiB address-space cap, so that a reader that is not bounded fails
here instead of taking the machine.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from tablectl.simulators.factory import MAX_ORDER_BYTES

SIM = [sys.executable, "-c", "from tablectl.cli import main; main()", "sim"]


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def sim_with_order(order: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(SIM + ["shoe", "--pty", "--seed", "1", "--order", str(order)], capture_output=True, text=True,
                          timeout=30, preexec_fn=_capped, check=False)


def test_an_order_file_that_is_a_device_is_refused_in_one_line_with_exit_2() -> None:
    r = sim_with_order("/dev/zero")
    assert (r.returncode, r.stdout) == (2, ""), r.stderr[-2000:]
    assert r.stderr.splitlines() == [
        "tablectl: cannot build the simulator: /dev/zero: cannot read the card order file: a character device, not a regular file"
    ]


def test_an_order_file_that_is_a_fifo_is_refused_at_once_with_exit_2(tmp_path: Path) -> None:
    fifo = tmp_path / "order.fifo"
    os.mkfifo(fifo)
    r = sim_with_order(fifo)
    assert (r.returncode, r.stdout) == (2, ""), r.stderr[-2000:]
    assert r.stderr.splitlines() == [f"tablectl: cannot build the simulator: {fifo}: cannot read the card order file: a FIFO, not a regular file"]


def test_an_order_file_too_large_to_be_a_card_order_is_refused_in_one_line_with_exit_2(tmp_path: Path) -> None:
    order = tmp_path / "order.txt"
    order.write_text("# " + "x" * MAX_ORDER_BYTES + "\nAS KH\n", encoding="utf-8")
    r = sim_with_order(order)
    assert (r.returncode, r.stdout) == (2, ""), r.stderr[-2000:]
    assert r.stderr.splitlines() == [
        (f"tablectl: cannot build the simulator: {order}: cannot read the card order file: "
         f"larger than {MAX_ORDER_BYTES:,} bytes: not a card order file")
    ]
