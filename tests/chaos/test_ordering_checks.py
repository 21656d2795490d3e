"""The ordering ledger's per-key checks (chaos.ordering.check_key), on receipts built by hand."""

from __future__ import annotations

from chaos.ordering import KeyFaults, Receipts, check_key

EXPECTED = [("e1", "delivered"), ("e2", "delivered"), ("e3", "delivered")]


def checked(arrivals: list[str], expected: list[tuple[str, str]] = EXPECTED) -> KeyFaults:
    faults = KeyFaults()
    check_key("k", expected, arrivals, faults)
    return faults


def test_receipts_in_log_order_with_a_repeat_of_the_latest_pass():
    faults = checked(["e1", "e2", "e2", "e3"])
    assert (faults.out_of_order, faults.gaps, faults.stray_repeats, faults.repeats) == (0, 0, 0, 1)


def test_an_event_received_before_an_earlier_one_is_out_of_order():
    faults = checked(["e2", "e1", "e3"])
    assert faults.out_of_order == 1 and faults.examples == ["k: e1 after e2"]


def test_a_repeat_of_an_older_event_is_stray():
    assert checked(["e1", "e2", "e1", "e3"]).stray_repeats == 1


def test_a_missing_event_is_a_gap_unless_its_job_dead_lettered():
    assert checked(["e1", "e3"]).gaps == 1
    skipped = checked(["e1", "e3"], [("e1", "delivered"), ("e2", "dead_lettered"), ("e3", "delivered")])
    assert (skipped.gaps, skipped.skipped, skipped.out_of_order) == (0, 1, 0)


def test_receipts_read_the_key_and_id_from_the_structured_body_and_ignore_other_bodies():
    receipts = Receipts()
    receipts.note(b'{"id": "e1", "partitionkey": "account-7", "data": {}}')
    receipts.note(b"not json")
    assert receipts.arrivals == [("account-7", "e1")]
