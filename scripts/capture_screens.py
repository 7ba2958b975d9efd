"""Screen captures of the live display for the docs, from a real run: ``tablectl run CONFIG
--simulate`` on a pty, dealt at the keys by the screen-reading dealer of the tests
(``tests/display/atthekeys.py``). For each config, prints a screen mid-round (a seat deciding if
one did, else the last one before the round settled) and the first that shows a settled round.

    python scripts/capture_screens.py [CONFIG ...] [--size COLSxROWS]   # default: every shipped table at 80x24
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "display"))

from atthekeys import Screen, Shift, run_shift  # noqa: E402

#: config -> the wagers typed before round 1 ("seat what") and the seats offered the bank
WAGERS: dict[str, tuple[bytes, list[int]]] = {
    "one-card-poker": (b"3 250 tie 25", [1, 2]),
    "three-card-poker": (b"3 300 pairplus 25 scb 10", [1, 2]),
    "three-card-poker-florida": (b"2 ante 100 pairplus 25", []),
    "texas-holdem-bonus": (b"2 100 bonus 25", []),
    "one-for-the-money-shoe": (b"2 100 bonus 25", []),
    "one-for-the-money-csm": (b"2 100 bonus 25", []),
}


def tablectl() -> str:
    beside = Path(sys.executable).with_name("tablectl")
    return str(beside) if beside.exists() else (shutil.which("tablectl") or "tablectl")


def capture(config: Path, rows: int, cols: int) -> list[str]:
    """The mid-round and the settled screen of a short shift on ``config``."""
    wanted: dict[str, str] = {}

    def look(s: Screen) -> None:
        if s.round < 2 or "settled" in wanted:
            return
        if s.state == "IN ROUND":
            if s.decision is not None:
                wanted.setdefault("deciding", s.text)
            wanted["in round"] = s.text
        if s.state == "SETTLING":
            wanted["settled"] = s.text

    typed, bank = WAGERS.get(config.stem, (b"", []))
    logs = Path(tempfile.mkdtemp(prefix="tablectl-capture-"))
    try:
        argv = [tablectl(), "run", str(config), "--simulate", "--seed", "7", "--log-dir", str(logs)]
        shift = Shift(rounds=4, wagers={1: [typed]} if typed else {}, bank=bank, planted=4)
        run_shift(argv, shift, rows=rows, cols=cols, seed=11, on_screen=look)
    finally:
        shutil.rmtree(logs, ignore_errors=True)
    mid = wanted.get("deciding", wanted.get("in round"))
    return [t.rstrip("\n ") for t in (mid, wanted.get("settled")) if t]


def main() -> None:
    args = sys.argv[1:]
    cols, rows = 80, 24
    if "--size" in args:
        i = args.index("--size")
        cols, rows = (int(n) for n in args[i + 1].split("x"))
        del args[i : i + 2]
    configs = [Path(a) for a in args] or sorted((REPO / "config" / "tables").glob("*.toml"))
    for config in configs:
        for text in capture(config, rows, cols):
            print(f"--- {config.stem} {cols}x{rows}")
            print("\n".join(line.rstrip() for line in text.splitlines()))


if __name__ == "__main__":
    main()
