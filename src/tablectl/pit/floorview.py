"""The floor report view: the latest ``tablectl floor`` findings over a dataset (``--floor
DATASET``), worked out off the event loop every few minutes with the floor report's own code
(``tablectl.analytics.floor``), and shown with its own table sections, its hold-per-day plots and
its advantage-play section, beside plots of the live day (``plots``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Section:
    """One table of findings: its title, columns and rows (cells as text), which rows are flagged."""

    title: str
    columns: list[str]
    rows: list[tuple[bool, list[str]]]


@dataclass
class Findings:
    """What the view shows of one floor report."""

    summary: list[str]
    sections: list[Section]
    flags: int
    hold_plots: list[str] = field(default_factory=list)  # inline SVG (the floor report's own)
    advantage: str = ""  # the floor report's advantage-play section (escaped HTML)
    tables: list[dict[str, Any]] = field(default_factory=list)  # per table rows (theo against actual)


def findings(report: Any) -> Findings:
    """A ``FloorReport``'s findings as the view shows them."""
    from tablectl.analytics.floor.render import fmt, hold_plot, sections, summary

    out: list[Section] = []
    flags = 0
    for title, result, columns, flagged in sections(report):
        rows = []
        for row in result.dicts():
            f = bool(flagged(row))
            flags += f
            rows.append((f, [fmt(row.get(c), k) for c, _, k in columns]))
        out.append(Section(title, [h for _, h, _ in columns], rows))
    plots = []
    if report.table_days is not None and report.table_days.rows:
        by_table: dict[str, list[dict[str, Any]]] = {}
        for row in report.table_days.dicts():
            by_table.setdefault(str(row["table_id"]), []).append(row)
        plots = [hold_plot(t, rows) for t, rows in by_table.items()]
    advantage = ""
    if report.advantage is not None:
        from tablectl.analytics.floor import detection_render

        advantage = detection_render.section(report.advantage)
    return Findings(summary(report), out, flags, plots, advantage, report.tables.dicts())


class FloorFindings:
    """The latest findings over ``dataset``, refreshed every ``every`` seconds in a thread;
    ``before`` runs first each time (the demo exports the tables' logs there)."""

    def __init__(self, dataset: Path | None, every: float = 300.0, before: Callable[[], None] | None = None) -> None:
        self.dataset, self.every, self.before = dataset, every, before
        self.latest: Findings | None = None
        self.at: float | None = None
        self.error: str | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def refresh(self) -> None:
        """Work the report out now (blocking)."""
        if self.dataset is None:
            return
        self.error = None
        try:
            if self.before is not None:
                try:
                    self.before()
                except Exception as e:  # noqa: BLE001 - the dataset could not be brought up to date: the last report stays
                    self.error = f"{type(e).__name__}: {e}"
            from tablectl.analytics.floor.report import floor

            if not (self.dataset / "_manifests").exists():
                self.error = self.error or f"{self.dataset}: no dataset yet"
                return
            self.latest, self.at = findings(floor(self.dataset)), time.time()
        except Exception as e:  # noqa: BLE001 - a dataset being written, no rounds yet: said on the page, tried again later
            self.error = f"{type(e).__name__}: {e}"

    def start(self) -> None:
        if self.dataset is None or self._thread is not None:
            return

        def loop() -> None:
            while not self._stop.is_set():
                self.refresh()
                self._stop.wait(self.every)

        self._thread = threading.Thread(target=loop, name="pit-floor", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()


__all__ = ["Findings", "FloorFindings", "Section", "findings"]
