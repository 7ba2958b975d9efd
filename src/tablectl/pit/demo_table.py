"""One simulated table of ``tablectl pit --demo``, as its own process: the table on simulated
devices (``TableRuntime``, its log signed with the simulated table's session key, enrolled in the
keyring as ``tablectl run --simulate`` does), the virtual dealer at a pace a person can follow (the live display's
``Paced``), planted mistakes at a rate, and the table's publisher (``tablectl.live.publish.Publisher``)
sending its log to the stream. SIGTERM stops the table (a clean shutdown, the log closed with its
signed checkpoint), lets the publisher drain, and exits 0.

    python -m tablectl.pit.demo_table CONFIG TABLE LOG_DIR URL [--seed S] [--pace P] [--mistakes R]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
import threading
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Run one demo table until SIGTERM (or its rounds are played)."""
    p = argparse.ArgumentParser(prog="tablectl.pit.demo_table")
    p.add_argument("config", type=Path)
    p.add_argument("table")
    p.add_argument("log_dir", type=Path)
    p.add_argument("url")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pace", type=float, default=0.1)
    p.add_argument("--mistakes", type=float, default=0.0)
    p.add_argument("--rounds", type=int, default=1_000_000)
    a = p.parse_args(argv)

    from tablectl.config import load_config
    from tablectl.display.live import Paced
    from tablectl.files import open_or_create
    from tablectl.live.publish import Publisher
    from tablectl.table.inputs import InputRejected
    from tablectl.table.runtime import TableRuntime
    from tablectl.table.simulated.session_key import session_key
    from tablectl.table.simulated.virtual_dealer import DealerError, VirtualDealer

    config = load_config(a.config)
    config = dataclasses.replace(config, table=a.table)
    a.log_dir.mkdir(parents=True, exist_ok=True)

    key = session_key(a.table, a.log_dir).private  # signed as `tablectl run --simulate` signs, enrolled in the keyring
    runtime = TableRuntime(config, simulate=True, log_dir=a.log_dir, seed=a.seed, signing_key=key, sim_options={"faults": []})
    controller = runtime.start()
    publisher = Publisher(a.url, a.log_dir, a.table).start()
    stopping = threading.Event()

    def terminate(signum: int, frame: object) -> None:
        stopping.set()
        controller.request_stop()

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, terminate)
    mistakes_path = a.log_dir.parent / f"{a.table}.mistakes.jsonl"  # never through a planted link, as run's
    mistakes = os.fdopen(open_or_create(mistakes_path, 0o644, "mistakes log", os.O_WRONLY | os.O_TRUNC)[0], "w",
                         encoding="utf-8")
    dealer = VirtualDealer(Paced(controller, a.pace), runtime.sims[config.card_device], seed=a.seed,  # type: ignore[arg-type]
                           mistakes=a.mistakes, mistakes_log=mistakes)
    try:
        dealer.play(a.rounds)
    except (DealerError, InputRejected) as e:
        if not stopping.is_set():
            print(f"{a.table}: {e}", file=sys.stderr)
    finally:
        mistakes.close()
        runtime.stop()
    publisher.stop(drain=2.0)  # the last lines (the shutdown checkpoint) go out first
    return 0


if __name__ == "__main__":
    sys.exit(main())
