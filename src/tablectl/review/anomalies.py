"""The anomaly list: everything in a log a reviewer must look at, one line each, in log order.

Kinds (``Anomaly.kind``):

| kind | from | means |
|---|---|---|
| ``violation`` | ``violation`` | a procedure violation; ``resolution`` says who resolved it and how (or ``unresolved``) |
| ``hold`` | ``state`` to ``held`` / ``device_fault`` | the table stopped; for how long, and why |
| ``device_fault`` | ``fault`` | a device fault (jam, door, sensor, power-up, disconnect, ...) and when it cleared |
| ``unclean_shutdown`` | ``recovery`` | the controller crashed (or lost power); what the next start found |
| ``event_gap`` / ``event_duplicate`` / ``event_out_of_order`` | device ``event_no`` | a device's events not logged exactly once, in order |
| ``settlement_mismatch`` | ``settled`` vs the rules engine | the logged settlement differs from the recomputed one |
| ``procedure_mismatch`` | card lines vs the deal script | the logged cards or decisions do not follow the game's procedure |
| ``round_interrupted`` / ``round_open`` / ``round_voided`` | round lines | a round that did not end normally |
| ``no_dealer`` | ``round_started`` | rounds dealt with no dealer signed in (one anomaly for each run of them) |
| ``written_off_returned`` | ``returned`` / ``identified`` with ``written_off`` | a card a supervisor wrote off (``card_not_returned`` resolved) came back into the continuous shuffler |
| ``alarm`` | ``alarm`` | e.g. a round started past the announced last round |
| ``internal_error`` | ``internal_error`` | the controller caught a bug of its own |
| ``supervisor_refused`` | ``supervisor_refused`` | a supervisor action refused at the display (unknown id, wrong credential); the id tried |
| ``unreadable_line`` | the file | a complete line that is not JSON (only in a log that fails verification) |
| ``partial_log`` | verification | the log given does not start at its first line |
| ``not_authenticated`` | verification | no trusted key (none in the keyring, no ``--key``), or no signed checkpoint |
| ``key_beside_log`` | ``--key`` | the key given lies in, inside or above the folder under review (as given, or where it leads), so it vouches for nothing |

Integrity findings (tampering, missing or unsigned lines) are not anomalies: they are the
verification's, and make review exit 3.
"""

from __future__ import annotations

from collections.abc import Callable

from tablectl.review.model import Anomaly
from tablectl.review.reconstruct import Reconstruction

Locate = Callable[[int | None], "tuple[str, int] | None"]

VIOLATION = "violation"
HOLD = "hold"
DEVICE_FAULT = "device_fault"
UNCLEAN_SHUTDOWN = "unclean_shutdown"
EVENT_GAP = "event_gap"
EVENT_DUPLICATE = "event_duplicate"
EVENT_OUT_OF_ORDER = "event_out_of_order"
SETTLEMENT_MISMATCH = "settlement_mismatch"
PROCEDURE_MISMATCH = "procedure_mismatch"
ROUND_INTERRUPTED = "round_interrupted"
ROUND_OPEN = "round_open"
ROUND_VOIDED = "round_voided"
NO_DEALER = "no_dealer"
ALARM = "alarm"
WRITTEN_OFF_RETURNED = "written_off_returned"
INTERNAL_ERROR = "internal_error"
SUPERVISOR_REFUSED = "supervisor_refused"
NOT_AUTHENTICATED = "not_authenticated"  # reviewed without a key, or no signed checkpoint
KEY_BESIDE_LOG = "key_beside_log"  # the only key given lies in the folder it vouches for
PARTIAL_LOG = "partial_log"


def _where(locate: Locate | None, seq: int | None) -> str | None:
    if locate is None:
        return None
    loc = locate(seq)
    return f"{loc[0]}:{loc[1]}" if loc else None


def _duration(start: str | None, end: str | None) -> str:
    """``"for 12.3 s"`` between two log timestamps, or ""."""
    if not start or not end:
        return ""
    from datetime import datetime

    try:
        a = datetime.strptime(start, "%Y-%m-%dT%H:%M:%S.%fZ")
        b = datetime.strptime(end, "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        return ""
    seconds = (b - a).total_seconds()
    if seconds < 120:
        return f" for {seconds:.1f} s"
    if seconds < 7200:
        return f" for {seconds / 60:.1f} min"
    return f" for {seconds / 3600:.1f} h"


def collect(recon: Reconstruction, rounds: list[Anomaly], *, locate: Locate | None = None) -> list[Anomaly]:
    """The anomalies of a reconstructed log, with those of its rounds (``tablectl.review.tally``), in log order."""
    out: list[Anomaly] = []

    def rid(key: tuple[int, int] | None) -> str | None:
        return recon.round_id(*key) if key is not None else None

    for v in recon.violations:
        if v.resolved is not None:
            r = v.resolved
            how = f"resolved by {r.supervisor} at seq {r.seq}"
            if r.void_round:
                how += ", round voided"
            if r.note:
                how += f" ({r.note})"
        else:
            how = "unresolved"
        out.append(Anomaly(VIOLATION, v.seq, v.ts, f"{v.kind}: {v.detail}", rid(v.round_key), v.device, how,
                           _where(locate, v.seq)))
    for h in recon.holds:
        what = "held (violation)" if h.kind == "held" else "stopped by a device fault"
        if h.end_seq is not None:
            until = f"until seq {h.end_seq} ({h.ended_to}){_duration(h.start_ts, h.end_ts)}"
        else:
            until = {"crash": "until the controller crashed", "log end": "until the end of the log"}.get(
                str(h.ended_to), "until the controller stopped")
        vs = f"; violations at seq {', '.join(map(str, h.violations))}" if h.violations else ""
        out.append(Anomaly(HOLD, h.start_seq, h.start_ts, f"table {what} {until}{vs}", rid(h.round_key), None,
                           None, _where(locate, h.start_seq), h.end_seq, h.end_ts))
    for f in recon.faults:
        if f.cleared_seq is not None:
            how = f"cleared at seq {f.cleared_seq}{_duration(f.ts, f.cleared_ts)}"
        elif f.fault in ("misread", "power_up"):
            how = "notice (nothing to clear)"
        else:
            how = "not cleared in the log"
        number = f" (event {f.event_no})" if f.event_no else ""
        detail = f"{f.device}: {f.fault}{number}{': ' + f.detail if f.detail else ''}"
        out.append(Anomaly(DEVICE_FAULT, f.seq, f.ts, detail, None, f.device, how, _where(locate, f.seq),
                           f.cleared_seq, f.cleared_ts))
    for r in recon.recoveries:
        torn = r.torn
        torn_text = f"; a torn partial line ({torn.get('bytes')} bytes) set aside in {torn.get('moved_to')}" if torn else ""
        detail = (
            f"the controller stopped without closing the log after seq {r.last_seq} ({r.last_event}); "
            f"{r.unsigned or 0} line(s) after the last checkpoint were unsigned{torn_text}"
        )
        out.append(Anomaly(UNCLEAN_SHUTDOWN, r.seq, r.ts, detail, None, None, "recovered at the next start",
                           _where(locate, r.seq)))
    for nums in recon.devices.values():
        for a, b in nums.gaps:
            span = f"event {a}" if a == b else f"events {a}..{b} ({b - a + 1})"
            out.append(Anomaly(EVENT_GAP, None, None, f"{nums.device}: {span} never logged", None, nums.device))
        for d in nums.duplicates:
            out.append(Anomaly(EVENT_DUPLICATE, d["seq"], d.get("ts"), f"{nums.device}: event {d['event_no']} logged again",
                               None, nums.device, None, _where(locate, d["seq"])))
        for d in nums.out_of_order:
            out.append(Anomaly(EVENT_OUT_OF_ORDER, d["seq"], d.get("ts"), f"{nums.device}: event {d['event_no']} logged out of order",
                               None, nums.device, None, _where(locate, d["seq"])))
    out += rounds
    for alarm in recon.alarms:
        detail = alarm.kind
        if alarm.penetration is not None:
            detail += f" at penetration {alarm.penetration:.1%}"
        out.append(Anomaly(ALARM, alarm.seq, alarm.ts, detail, _round_of(recon, alarm.seq, alarm.round), None, None,
                           _where(locate, alarm.seq)))
    for r in recon.written_off_returns:
        detail = (f"{r.device}: {r.card} (event {r.event_no}) came back into the shuffler after a supervisor wrote it off "
                  "(card_not_returned resolved)")
        out.append(Anomaly(WRITTEN_OFF_RETURNED, r.seq, r.ts, detail, _round_of(recon, r.seq, r.round) if r.event == "identified" else None,
                           r.device, None, _where(locate, r.seq)))
    for e in recon.internal_errors:
        out.append(Anomaly(INTERNAL_ERROR, e.seq, e.ts, f"{e.error} (on {e.what})", None, None,
                           None, _where(locate, e.seq)))
    for r in recon.supervisor_refusals:
        detail = f"supervisor {r.supervisor!r}: {r.action or 'resolve'} refused" + (f" ({r.reason})" if r.reason else "")
        out.append(Anomaly(SUPERVISOR_REFUSED, r.seq, r.ts, detail, _round_of(recon, r.seq, r.round) if r.round else None,
                           None, None, _where(locate, r.seq)))
    for a in rounds:
        if a.where is None:
            a.where = _where(locate, a.seq)
    out.sort(key=lambda a: (a.seq is None, a.seq or 0))
    return out


def _round_of(recon: Reconstruction, seq: int, number: int | None) -> str | None:
    """The id of round *number* of the session the line at *seq* belongs to."""
    if number is None:
        return None
    best = None
    for s in recon.sessions:
        if s.start_seq <= seq:
            best = s.index
    return recon.round_id(best, number) if best is not None else None
