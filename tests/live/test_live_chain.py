"""The collector's decision for one table, from plain values: lines in, held / repeat / refused /
written out (tablectl.live.chain)."""

from __future__ import annotations

import pytest
from loghelpers import is_checkpoint, message, write_log

from tablectl.eventlog import generate_key
from tablectl.eventlog import logformat as fmt
from tablectl.eventlog.verify import LineVerifier
from tablectl.live import chain
from tablectl.live.chain import Head, TableChain, check_message


@pytest.fixture(scope="module")
def key():
    return generate_key()


@pytest.fixture(scope="module")
def lines(tmp_path_factory, key):
    return write_log(tmp_path_factory.mktemp("log"), "T1", key, restarts=1)


def fresh(key) -> TableChain:
    return TableChain("T1", LineVerifier(key.public_key()))


def feed(c: TableChain, items, redelivered: bool = False, now: float | None = None):
    """Offer every line (the stream's sequence numbers in this order), settle after each;
    return (written, refusals incl. notes)."""
    written, refused = [], []
    for stream_seq, (file, line) in enumerate(items, start=1):
        offer = c.offer(message("T1", file, line, stream_seq=stream_seq), redelivered)
        refused += offer.notes
        if offer.refusal is not None:
            refused.append(offer.refusal)
        settled = c.settle(now)
        written += settled.lines
        refused += settled.refusals
    return written, refused


def forged(line: bytes) -> bytes:
    """The line with its card changed (seq, ts and prev kept)."""
    for a, b in ((b'"card":"QH"', b'"card":"KS"'), (b'"card":"', b'"card":"A')):
        if a in line:
            return line.replace(a, b, 1)
    raise AssertionError("no card in the line")


def test_a_log_offered_in_order_is_written_whole_in_order(key, lines):
    written, refused = feed(fresh(key), lines)
    assert written == lines and not refused


def test_lines_are_held_until_a_checkpoint_signs_them(key, lines):
    c = fresh(key)
    upto = next(i for i, (_, line) in enumerate(lines) if is_checkpoint(line))
    written, _ = feed(c, lines[:upto])
    assert written == [] and c.held_lines == upto
    written, _ = feed(c, lines[upto:upto + 1])
    assert written == lines[:upto + 1] and c.held_lines == 0


def test_a_redelivered_line_is_dropped_quietly(key, lines):
    c = fresh(key)
    feed(c, lines[:20])
    file, line = lines[3]
    offer = c.offer(message("T1", file, line), redelivered=True)
    assert offer.outcome == "repeat" and offer.refusal is None


def test_a_line_sent_again_as_a_new_message_is_refused_as_replayed(key, lines):
    c = fresh(key)
    feed(c, lines[:20])
    for file, line in (lines[3], lines[19]):  # one in the copy, one held
        offer = c.offer(message("T1", file, line))
        assert offer.outcome == "refused" and offer.refusal.kind == chain.REPLAYED


def test_other_bytes_at_a_seq_the_copy_has_are_a_fork(key, lines):
    c = fresh(key)
    feed(c, lines[:20])
    file, line = lines[2]
    offer = c.offer(message("T1", file, forged(line)))
    assert offer.refusal.kind == chain.FORK


def test_a_line_not_linked_to_the_copys_last_line_is_refused_as_altered(key, lines):
    c = fresh(key)
    written, _ = feed(c, lines[:8])
    assert len(written) == 8  # seq 8 is a checkpoint
    file, line = lines[8]
    changed = line[:-66] + b"0" * 64 + b'"}'
    offer = c.offer(message("T1", file, changed))
    assert offer.refusal.kind == chain.ALTERED


def test_a_line_the_stream_stored_before_the_one_before_it_is_reordered_and_written_in_log_order(key, lines):
    order = lines[:10] + [lines[11], lines[10]] + lines[12:]
    written, refused = feed(fresh(key), order)
    assert written == lines
    assert [r.kind for r in refused] == [chain.REORDERED] and refused[0].seq == 12


def test_a_line_redelivered_late_is_not_reordered(key, lines):
    c = fresh(key)
    early = [(f, line) for f, line in lines[:10]] + [lines[11]]
    for i, (file, line) in enumerate(early, start=1):
        c.offer(message("T1", file, line, stream_seq=i + (1 if i == 11 else 0)))
    offer = c.offer(message("T1", *lines[10], stream_seq=11), redelivered=True)  # stored first, delivered late
    assert offer.outcome == "held" and not offer.notes


def test_a_dropped_line_stops_the_copy_at_the_checkpoint_before_it_and_is_a_gap(key, lines):
    written, refused = feed(fresh(key), lines[:30] + lines[31:], now=0.0)
    assert written == lines[:len(written)] and 0 < len(written) <= 30
    assert refused == []
    c = fresh(key)
    c.gap_after = 5.0
    feed(c, lines[:30] + lines[31:], now=0.0)
    assert c.settle(4.0).refusals == []
    (gap,) = c.settle(5.0).refusals
    assert (gap.kind, gap.seq) == (chain.GAP, 31)
    assert c.settle(9.0).refusals == []  # once


def test_an_injected_line_that_links_is_held_then_refused_when_the_signature_covers_the_genuine_one(key, lines):
    file, genuine = lines[9]
    seq, _, prev = fmt.split_head(genuine)
    fake = (b'{"seq":%d,"event":"dealt","ts":"2024-05-01T00:00:09.999999Z","table":"T1","card":"AS",'
            b'"to":"seat:1","prev":"%s"}' % (seq, prev.encode()))
    written, refused = feed(fresh(key), lines[:9] + [(file, fake)] + lines[9:])
    assert written == lines
    assert [(r.kind, r.seq) for r in refused] == [(chain.INJECTED, seq)]


def test_a_changed_copy_of_a_line_is_refused_as_changed(key, lines):
    file, line = lines[9]
    written, refused = feed(fresh(key), lines[:9] + [(file, forged(line))] + lines[9:])
    assert written == lines
    assert [r.kind for r in refused] == [chain.CHANGED]


def test_a_changed_line_alone_stops_the_copy_and_says_the_next_line_does_not_link(key, lines):
    file, line = lines[9]
    written, refused = feed(fresh(key), lines[:9] + [(file, forged(line))] + lines[10:])
    assert len(written) < 10
    assert [r.kind for r in refused] == [chain.ALTERED] and refused[0].seq == 11


def test_a_forged_checkpoint_is_refused_by_its_signature(key, lines):
    i = next(i for i, (_, line) in enumerate(lines) if is_checkpoint(line))
    file, cp = lines[i]
    at = cp.index(b'"sig":"') + 7
    bad = cp[:at] + (b"1" if cp[at:at + 1] == b"0" else b"0") + cp[at + 1:]
    written, refused = feed(fresh(key), lines[:i] + [(file, bad)] + lines[i:])
    assert written == lines
    assert [r.kind for r in refused] == ["bad_signature"]


def test_a_log_signed_by_an_untrusted_key_is_refused_at_its_first_checkpoint(key, lines, tmp_path):
    other = write_log(tmp_path, "T1", generate_key())
    written, refused = feed(fresh(key), other[:10])
    assert written == [] and refused and refused[0].kind == "wrong_key"


def test_a_line_labelled_for_another_file_is_refused_as_misfiled(key, lines):
    _file, line = lines[4]
    wrong = fmt.file_name("T1", 7)
    written, refused = feed(fresh(key), lines[:4] + [(wrong, line)] + lines[4:])
    assert written == lines
    assert [r.kind for r in refused] == [chain.MISFILED]


def test_files_follow_the_chain_across_rotations_and_restarts(key, lines):
    written, _ = feed(fresh(key), lines)
    files = sorted({f for f, _ in lines})
    assert sorted({f for f, _ in written}) == files == [fmt.file_name("T1", n) for n in range(1, len(files) + 1)]
    assert len(files) > 4


def test_going_on_from_a_head_takes_the_next_line_and_refuses_the_old(key, lines):
    c = fresh(key)
    feed(c, lines[:8])
    again = TableChain("T1", c.verifier, c.head)
    written, refused = feed(again, lines[8:])
    assert written == lines[8:] and not refused


@pytest.mark.parametrize("subject, mid, want", [
    ("tablectl.T1.log", None, chain.MISLABELLED),
    ("tablectl.T1.log", "T2:tablectl-T2-000001:1", chain.MISLABELLED),
    ("tablectl.T1.log", "T1:tablectl-T1-000001:2", chain.MISLABELLED),  # the line is seq 1
    ("tablectl.T1.log", "T1:tablectl-T2-000001:1", chain.MISLABELLED),  # another table's file
    ("other.subject", "T1:tablectl-T1-000001:1", chain.MISLABELLED),
])
def test_a_message_whose_id_or_subject_does_not_match_its_line_is_mislabelled(lines, subject, mid, want):
    got = check_message(subject, mid, lines[0][1])
    assert isinstance(got, chain.Refusal) and got.kind == want


def test_a_line_of_another_table_on_a_tables_subject_is_refused(lines):
    got = check_message("tablectl.T2.log", "T2:tablectl-T2-000001:1", lines[0][1])
    assert isinstance(got, chain.Refusal) and got.kind == chain.WRONG_TABLE


def test_a_message_of_two_lines_is_malformed(lines):
    got = check_message("tablectl.T1.log", "T1:tablectl-T1-000001:1", lines[0][1] + b"\n" + lines[1][1])
    assert isinstance(got, chain.Refusal) and got.kind == chain.MALFORMED


def test_a_good_message_names_its_table_file_and_seq(lines):
    got = check_message("tablectl.T1.log", "T1:tablectl-T1-000001:1", lines[0][1])
    assert isinstance(got, chain.Message) and (got.table, got.file, got.seq) == ("T1", "tablectl-T1-000001.jsonl", 1)


def test_the_first_line_must_be_in_file_one(key, lines):
    file, line = lines[0]
    c = fresh(key)
    c.offer(message("T1", fmt.file_name("T1", 2), line))
    assert not c.settle().lines and chain.fits(Head(), chain.Held.of(file, line))


def test_a_line_in_the_message_it_was_taken_from_is_a_quiet_repeat_in_a_new_message_replayed(key, lines):
    c = fresh(key)
    written, _ = feed(c, lines[:20])  # stream sequence numbers 1..20
    assert 0 < len(written) < 20
    for stream_seq in (4, 20):  # one in the copy, one held; the broker lost its consumer's count of deliveries
        offer = c.offer(message("T1", *lines[stream_seq - 1], stream_seq=stream_seq))
        assert offer.outcome == "repeat" and offer.refusal is None
        offer = c.offer(message("T1", *lines[stream_seq - 1], stream_seq=21))  # the same line published again
        assert offer.outcome == "refused" and offer.refusal.kind == chain.REPLAYED


def test_after_a_restart_a_copied_line_is_a_repeat_if_the_stream_stored_it_before_the_copys_last_line(key, lines):
    c = fresh(key)
    feed(c, lines[:8])  # seq 8 is a checkpoint: the copy ends there, taken from stream sequence 8
    copied = {fmt.split_head(line)[0]: fmt.digest(line) for _, line in lines[:8]}
    again = TableChain("T1", c.verifier, c.head, copied.get)  # the copy read back: only its head remembered
    assert again.head.stream_seq == 8
    assert again.offer(message("T1", *lines[3], stream_seq=4)).outcome == "repeat"
    offer = again.offer(message("T1", *lines[3], stream_seq=9))
    assert offer.outcome == "refused" and offer.refusal.kind == chain.REPLAYED


def _far_ahead(line: bytes) -> bytes:
    seq = fmt.split_head(line)[0]
    return line.replace(b'{"seq":%d,' % seq, b'{"seq":1000000000,', 1)


def test_a_held_line_is_reported_ahead_once_when_the_lines_before_it_keep_coming_without_reaching_it(key, lines):
    dropped = TableChain("T1", LineVerifier(key.public_key()), gap_after=5.0)
    feed(dropped, lines[:30] + lines[31:40], now=0.0)  # seq 31 dropped: a gap, the lines after it stand still
    assert [(r.kind, r.seq) for r in dropped.settle(6.0).refusals] == [(chain.GAP, 31)]
    c = TableChain("T1", LineVerifier(key.public_key()), gap_after=5.0)
    file, line = lines[5]
    feed(c, lines[:10], now=0.0)
    c.offer(message("T1", file, _far_ahead(line), stream_seq=11))
    assert c.settle(0.0).refusals == []
    written, refused = feed(c, lines[10:30], now=4.0)
    assert written and refused == []
    (ahead,) = c.settle(5.0).refusals
    assert (ahead.kind, ahead.seq, ahead.table) == (chain.AHEAD, 1_000_000_000, "T1")
    assert f"the copy is at seq {c.head.seq}" in ahead.message and c.head.seq > 10
    _, later = feed(c, lines[30:40], now=9.0)
    assert chain.AHEAD not in [r.kind for r in later + c.settle(20.0).refusals]  # once
