"""Screen captures of the live display for the docs, from a real run: ``tablectl run CONFIG
--simulate`` on a pty, dealt at the keys by the screen-reading dealer of the tests
(``tests/display/atthekeys.py``). Prints the first screen at each size that shows a seat
deciding, and the first that shows a settled round.

    python scripts/capture_screens.py [CONFIG]   # default: config/tables/three-card-poker.toml
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "display"))

from atthekeys import Screen, Shift, run_shift  # noqa: E402


def capture(config: Path, rows: int, cols: int) -> list[str]:
    wanted: dict[str, str] = {}

    def look(s: Screen) -> None:
        if s.round >= 3 and s.decision is not None and s.decision[0] > 2:
            wanted.setdefault("deciding", s.text)
        if s.round >= 3 and s.state == "SETTLING":
            wanted.setdefault("settled", s.text)

    logs = Path(tempfile.mkdtemp(prefix="tablectl-capture-"))
    try:
        argv = [shutil.which("tablectl") or "tablectl", "run", str(config), "--simulate", "--seed", "7", "--log-dir", str(logs)]
        shift = Shift(rounds=4, wagers={1: [b"3 25 pairplus 5"]}, bank=[1, 2], planted=4)
        run_shift(argv, shift, rows=rows, cols=cols, seed=11, on_screen=look)
    finally:
        shutil.rmtree(logs, ignore_errors=True)
    return [wanted[k].rstrip("\n ") for k in ("deciding", "settled") if k in wanted]


def main() -> None:
    config = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "config" / "tables" / "three-card-poker.toml"
    for rows, cols in ((24, 80), (40, 120)):
        for text in capture(config, rows, cols):
            print(f"--- {cols}x{rows}")
            print("\n".join(line.rstrip() for line in text.splitlines()))


if __name__ == "__main__":
    main()
