"""Screenshots of the pit page for docs/pit.md: the floor view, a table's view and the floor report
view of ``tablectl pit --demo 5``, taken by Debian's Chromium through Playwright.

    python scripts/pit_screenshots.py [--seconds 40] [--out docs]

Writes ``pit-floor.png``, ``pit-table.png`` and ``pit-report.png``. The floor report view needs a
dataset of closed logs: three tables play 300 rounds each first (``tablectl run --autoplay``, one
with a hole-card player), are exported, and the page is given that dataset (``--floor``). The demo
runs with its keyring and session keys in a temporary folder, so nothing is enrolled in yours.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=40.0, help="how long the demo plays before the pictures")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="pit-shots-") as tmp:
        env = {**os.environ, "XDG_CONFIG_HOME": f"{tmp}/config", "XDG_STATE_HOME": f"{tmp}/state",
               "TABLECTL_KEYRING": f"{tmp}/keyring"}
        configs = Path(__file__).resolve().parents[1] / "config" / "tables"
        for name, extra in (("one-card-poker", []), ("three-card-poker", ["--player", "2:hole-card"]),
                            ("three-card-poker-florida", [])):
            subprocess.run([sys.executable, "-m", "tablectl", "run", str(configs / f"{name}.toml"), "--simulate", "--headless",
                            "--autoplay", "300", "--seed", "7", "--log-dir", f"{tmp}/closed/{name}", *extra],
                           env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([sys.executable, "-m", "tablectl", "export", *sorted(str(d) for d in Path(f"{tmp}/closed").iterdir() if d.is_dir()),
                        "--to", f"{tmp}/dataset"], env=env, check=True, stdout=subprocess.DEVNULL)
        proc = subprocess.Popen([sys.executable, "-m", "tablectl", "pit", "--demo", "5", "--listen", "127.0.0.1:0",
                                 "--demo-dir", f"{tmp}/floor", "--demo-mistakes", "0.1", "--floor", f"{tmp}/dataset"],
                                env=env, stdout=subprocess.PIPE, text=True)
        try:
            url = None
            assert proc.stdout is not None
            while url is None:
                line = proc.stdout.readline()
                if not line:
                    raise SystemExit("tablectl pit --demo stopped before serving")
                m = re.search(r"serving (http://\S+/)", line)
                url = m.group(1) if m else None
            time.sleep(a.seconds)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(url)
                page.wait_for_selector(".tile")
                time.sleep(1.0)
                page.screenshot(path=str(a.out / "pit-floor.png"), full_page=True)
                page.goto(url + "table/demo-1")
                page.wait_for_selector("#layout")
                time.sleep(1.0)
                page.screenshot(path=str(a.out / "pit-table.png"), full_page=False)
                page.goto(url + "report")
                page.wait_for_selector("table.findings", timeout=120_000)
                page.screenshot(path=str(a.out / "pit-report.png"), full_page=False)
                browser.close()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
    print(f"wrote {a.out}/pit-floor.png, pit-table.png, pit-report.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
