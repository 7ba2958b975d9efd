"""The floor's test of play from hidden cards (``analytics.floor.detection``) as text lines and
as an HTML section."""

from __future__ import annotations

import html

from tablectl.analytics.floor.detection import AdvantagePlay, Flag

#: evidence rounds listed per flag in the text report (the JSON and HTML list them all)
SHOWN = 10


def heading(found: AdvantagePlay) -> str:
    """What was tested, how, and what was found, in one line."""
    return (f"Play from hidden cards: {found.sessions} seat sessions, {found.decisions} decisions, {found.tests} tests "
            f"(session x hypothesis), {found.method.capitalize()} at family-wise alpha {found.alpha:g} across all of them; "
            f"{len(found.flags)} flagged")


def flag_line(f: Flag) -> str:
    """One flag: the session, the hypothesis, p, and how many decisions only it explains."""
    return (f"FLAGGED {f.session.label()}: {f.hypothesis}, p {f.p_value:.3g}, {f.decisions} decisions tell it apart, "
            f"{len(f.evidence)} only it explains")


def lines(found: AdvantagePlay) -> list[str]:
    """The text report's section."""
    out = [heading(found)]
    for f in found.flags:
        out.append("  " + flag_line(f))
        for e in f.evidence[:SHOWN]:
            where = f"{e.table_id} seat {e.seat} " if f.session.player else ""
            out.append(f"    {where}round {e.round_id}: {e.choice}, best from own cards {e.own_best}, "
                       f"best knowing it {e.hidden_best}; gives up {e.cost_units:.4f} units")
        if len(f.evidence) > SHOWN:
            out.append(f"    ... and {len(f.evidence) - SHOWN} more rounds (--json or --html lists them all)")
    return out


def section(found: AdvantagePlay) -> str:
    """The HTML page's section: the heading, and a table of each flag's evidence."""
    parts = ["<h2>Play from hidden cards</h2>", f"<p>{html.escape(heading(found))}</p>"]
    for f in found.flags:
        parts.append(f"<h3 class='flag'>{html.escape(flag_line(f))}</h3>")
        head = "".join(f"<th>{h}</th>" for h in ("table", "day", "seat", "round", "choice", "best from own cards",
                                                 "best knowing it", "gives up (units)"))
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
                e.table_id, e.date, e.seat, e.round_id, e.choice, e.own_best, e.hidden_best, f"{e.cost_units:.4f}"))
            + "</tr>" for e in f.evidence)
        parts.append(f"<table><tr>{head}</tr>{body}</table>")
    return "\n".join(parts)


__all__ = ["SHOWN", "flag_line", "heading", "lines", "section"]
