"""The terminal report of ``tablectl review``: a summary a person can read top to bottom.

Verification first (it decides whether the rest can be trusted), then the table and its sessions,
the rounds and how their settlement compared with the rules engine, the devices' event numbers,
the shoes and their penetration, the anomalies one per line, shuffle quality, and the result.
``--round ID`` adds one round in full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from tablectl.eventlog.verify import VerifyReport
from tablectl.review.engine import ReviewReport
from tablectl.review.model import RoundRecord

MAX_ANOMALY_LINES = 500
MAX_SHOE_LINES = 100
Echo = Callable[[str], None]


def money(cents: Any) -> str:
    """Cents as dollars: ``1234`` -> ``12.34``."""
    if not isinstance(cents, int):
        return "?"
    return f"{cents / 100:,.2f}"


def _pct(x: Any) -> str:
    return f"{x:.1%}" if isinstance(x, (int, float)) else "-"


def signed_by(v: VerifyReport) -> str:
    """Who signed which lines: each key with the seqs its verified checkpoints cover, in log order
    (the keys that signed, not the keys trusted)."""
    if not v.signers:
        return f"no checkpoint verified with the key(s) trusted ({', '.join(v.key_ids) or 'none'})"
    each = ", ".join(f"key {s.key} seq {s.from_seq}..{s.to_seq}" for s in v.signers)
    return f"{v.checkpoints} checkpoint(s) verified: {each}"


def verification_lines(report: ReviewReport) -> list[str]:
    v = report.verification
    out = [f"log: table {report.recon.table or v.table or '?'}, {len(v.files)} file(s), {v.lines:,} lines, "
           f"seq {v.first_seq}..{v.last_seq}" + (f", {report.recon.first_ts} .. {report.recon.last_ts}" if report.recon.first_ts else "")]
    if v.signatures_checked:
        out.append(f"signatures: {signed_by(v)}; signed through seq {v.signed_seq}")
    else:
        out.append("signatures: NOT CHECKED (no --key): only the chain's consistency was verified")
    if report.anchored:
        out.append("anchor: checked against every checkpoint head the anchor file knows for this table")
    else:
        out.append("anchor: none given (--anchor FILE): a log cut short or replaced whole by an older log of the same "
                   "table and key cannot be detected")
    for f in v.findings:
        out.append(f"{'FAIL' if f.integrity else 'WARN'} [{f.kind}] {f}")
    if v.suppressed:
        out.append(f"... and {v.suppressed} more verification finding(s) of the same kinds")
    if not v.ok:
        out.append(f"verification: INTEGRITY FAILURE ({len(v.integrity_failures)} finding(s)); "
                   "what follows is read from a log that cannot be trusted")
    else:
        out.append("verification: OK" + (f", with {len(v.warnings)} warning(s)" if v.warnings else ""))
    return out


def summary_lines(report: ReviewReport) -> list[str]:
    recon = report.recon
    out: list[str] = []
    sessions = recon.sessions
    if sessions:
        s0 = next((s for s in sessions if s.game), sessions[0])
        out.append(f"table: {s0.game or '?'}, {s0.decks or '?'} deck(s) from {s0.source_kind or '?'} '{s0.source or '?'}', "
                   f"{s0.seats or '?'} seats, penetration cap {_pct(s0.cap)}")
        how = Counter(s.opened_by for s in sessions)
        out.append(f"sessions: {len(sessions)} ({', '.join(f'{n} {k}' for k, n in how.items())})")
        for s in sessions:
            out.append(f"  {s.index}: seq {s.start_seq}..{s.end_seq} {s.start_ts} -> {s.end_ts or '?'}; "
                       f"{s.rounds} round(s); ended: {s.ended_by}")
    for r in report.rules:
        out.append(f"rules: {r.game}: {r.source}")
    counts = report.round_counts()
    statuses = ", ".join(f"{v} {k.split(':', 1)[1]}" for k, v in counts.items() if k.startswith("status:"))
    checks = ", ".join(f"{v} {k.split(':', 1)[1].replace('_', ' ')}" for k, v in counts.items() if k.startswith("settlement:"))
    out.append(f"rounds: {counts['rounds']}" + (f" ({statuses}); settlement recomputed: {checks}" if counts["rounds"] else ""))
    tally = report.tally
    if tally.settled:
        out.append(f"  players' net over {tally.settled} settled round(s): {money(tally.net)}")
    for name, d in recon.devices.items():
        state = "each exactly once" if d.exactly_once else (
            f"{d.missing} missing in {len(d.gaps)} gap(s), {len(d.duplicates)} duplicate(s), {len(d.out_of_order)} out of order")
        out.append(f"device {name}: events {d.first}..{d.last} ({d.distinct:,} logged), {state}")
    if recon.shoes:
        out.append(f"shoes: {len(recon.shoes)}")
        out.append("  shoe        kind      session rounds cards  penetration cut card  ended")
        for shoe in recon.shoes[:MAX_SHOE_LINES]:
            out.append(f"  {str(shoe.shoe):<11} {str(shoe.kind):<9} {shoe.session:>7} {shoe.rounds:>6} {shoe.cards_drawn:>5}  "
                       f"{_pct(shoe.max_penetration):>11} {_pct(shoe.cut_card):>8}  {shoe.ended_by}")
        if len(recon.shoes) > MAX_SHOE_LINES:
            out.append(f"  ... and {len(recon.shoes) - MAX_SHOE_LINES} more (see --json or --html)")
    return out


def anomaly_lines(report: ReviewReport, limit: int = MAX_ANOMALY_LINES) -> list[str]:
    found = report.anomalies
    if not found:
        return ["anomalies: none"]
    kinds = Counter(a.kind for a in found)
    out = [f"anomalies: {len(found)} ({', '.join(f'{n} {k}' for k, n in kinds.most_common())})"]
    for a in found[:limit]:
        where = f"seq {a.seq}" if a.seq is not None else (a.where or "-")
        rnd = f" round {a.round}" if a.round else ""
        res = f" -- {a.resolution}" if a.resolution else ""
        out.append(f"  {where}{rnd} [{a.kind}] {a.detail}{res}")
    if len(found) > limit:
        out.append(f"  ... and {len(found) - limit} more (see --json)")
    return out


def quality_lines(report: ReviewReport) -> list[str]:
    if not report.quality:
        return []
    out = ["shuffle quality:"]
    for q in report.quality:
        out.append(f"  {q.scope}")
        for note in q.notes:
            out.append(f"    note: {note}")
        for r in q.results:
            figure = f"{r.figure:.4g} (perfect {r.expected:.4g})" if r.figure is not None and r.expected is not None else "-"
            p = f", p = {r.p_value:.3g}" if r.p_value is not None else ""
            out.append(f"    {r.verdict.upper():<4} {r.name}: {figure}{p}; {r.samples} sample(s). {r.detail}")
    return out


def result_line(report: ReviewReport) -> str:
    if not report.ok:
        return f"result: INTEGRITY FAILURE ({len(report.verification.integrity_failures)} finding(s))"
    if report.anomalies:
        return f"result: verified; {len(report.anomalies)} anomal{'y' if len(report.anomalies) == 1 else 'ies'} to review"
    return "result: verified; clean"


def round_lines(rnd: RoundRecord) -> list[str]:
    """One round in full."""
    out = [f"round {rnd.id} (session {rnd.session}, round {rnd.number}): {rnd.status}; settlement check: {rnd.settlement}",
           f"  seq {rnd.start_seq}..{rnd.end_seq}, {rnd.start_ts} -> {rnd.end_ts or '?'}; shoe {rnd.shoe}; dealer {rnd.dealer or '-'}"
           + ("; announced last round" if rnd.last_round else "")]
    if rnd.banker is not None:
        out.append(f"  banker: seat {rnd.banker}" + (f", stake {money(rnd.banker_stake)}" if rnd.banker_stake is not None else ""))
    if rnd.wagers is not None:
        for seat, w in rnd.wagers.items():
            out.append(f"  wagers seat {seat}: " + ", ".join(f"{bet} {money(v)}" for bet, v in w.items()))
    else:
        out.append("  wagers: not logged")
    out.append("  cards by position:")
    for pos, cards in rnd.positions.items():
        out.append(f"    {pos:<8} {' '.join(c or '??' for c in cards)}")
    if rnd.burns:
        out.append(f"    {'burn':<8} {' '.join(c or '??' for c in rnd.burns)}")
    if rnd.discards:
        out.append(f"    {'discard':<8} {' '.join(c or '??' for c in rnd.discards)}")
    for d in rnd.decisions:
        out.append(f"  decision: seat {d['seat']}{' (banker)' if d['banker'] else ''}: {d['decision']}")
    for c in rnd.corrections:
        out.append(f"  correction at seq {c['seq']}: {c['card']} from {c['from']} to {c['to']} ({c['reason']})")
    logged = rnd.logged
    again = rnd.recomputed or []
    if logged or again:
        out.append("  settlement: logged | recomputed with the rules engine")
        for i in range(max(len(logged), len(again))):
            a = _bet(logged[i]) if i < len(logged) else "-"
            b = _bet(again[i]) if i < len(again) else "-"
            out.append(f"    {a:<52} | {'same' if a == b else b}")
    for p in rnd.problems:
        out.append(f"  problem: {p}")
    if rnd.violations:
        out.append(f"  violations at seq {', '.join(map(str, rnd.violations))}")
    return out


def _bet(s: dict[str, Any]) -> str:
    pays = f" {s.get('pays')}" if s.get("pays") else ""
    return f"seat {s.get('seat')} {s.get('bet')} {money(s.get('stake'))}: {s.get('outcome')}{pays}, net {money(s.get('net'))}"


def render(report: ReviewReport, echo: Echo, *, rounds: Sequence[RoundRecord] = ()) -> None:
    """Print the report through *echo*, with *rounds* in full."""
    for block in (verification_lines(report), summary_lines(report), anomaly_lines(report), quality_lines(report)):
        for line in block:
            echo(line)
    for rnd in rounds:
        for line in round_lines(rnd):
            echo(line)
    echo(result_line(report))
