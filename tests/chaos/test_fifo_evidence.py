"""The FIFO queue held to SQS FIFO's promises (chaos.fifotap), the queue's redeliveries told apart from the
hub's sends (chaos.ordering.Receipts), and the hub's own send order and pace read from its attempt log
(chaos.evidence), named by a failing check."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson

from chaos import evidence
from chaos.aws import moto_process, moto_timings, sqs_key, timings_line
from chaos.fifotap import FifoTap
from chaos.ordering import KeyFaults, Receipts, _example, check_key
from devkit.destinations import AwsDestinations, aws

T0 = datetime(2026, 12, 7, 4, 0, tzinfo=UTC)


def body(key: str, ce_id: str) -> bytes:
    return orjson.dumps({"id": ce_id, "partitionkey": key, "data": {}})


def attempt(key: str, seq: int, at: float, outcome: str = "delivered", latency_ms: int = 100,
            job: str | None = None, error: str = "") -> evidence.Attempt:
    return evidence.Attempt(key, seq, f"e{seq}", job or f"job{seq}", "delivered", 1, outcome, error, "",
                            latency_ms, T0 + timedelta(seconds=at))


def test_a_message_the_queue_hands_out_again_is_its_redelivery_not_a_send_of_the_hub():
    receipts = Receipts()
    receipts.note_message(body("k", "e1"), "m1", 1, 1000)
    receipts.note_message(body("k", "e2"), "m2", 1, 1001)
    receipts.note_message(body("k", "e1"), "m1", 2, 1000)  # a delete that did not reach the queue
    receipts.note_message(body("k", "e2"), "m2", 2, 1001)
    receipts.note_message(body("k", "e2"), "m3", 1, 1500)  # a second message: the hub sent e2 again
    assert receipts.arrivals == [("k", "e1"), ("k", "e2"), ("k", "e2")]
    assert receipts.redeliveries == 2 and len(receipts.messages) == 5
    faults = KeyFaults()
    check_key("k", [("e1", "delivered"), ("e2", "delivered")], [ce for _, ce in receipts.arrivals], faults)
    assert (faults.stray_repeats, faults.repeats, faults.out_of_order) == (0, 1, 0)


def message(group: str, message_id: str) -> dict[str, object]:
    return {"MessageId": message_id, "Attributes": {"MessageGroupId": group}}


def test_the_tap_counts_a_groups_message_handed_out_while_an_earlier_one_is_in_flight():
    tap = FifoTap("queue", sqs_key, Receipts())
    tap._hand_out([message("g", "a1"), message("g", "a2"), message("h", "b1")])  # one receive: in order
    assert tap.receipts is not None and tap.receipts.breaches == []
    tap._hand_out([message("g", "a3")])  # a1 and a2 still in flight: SQS FIFO would not hand a3 out
    assert len(tap.receipts.breaches) == 1 and "group g: a3" in tap.receipts.breaches[0]


def test_the_fifo_tap_reads_every_group_in_order_with_no_breach(
        tmp_path: Path, override_settings: Callable[..., None]) -> None:
    with moto_process(tmp_path) as url:
        override_settings(aws_endpoint_url=url)
        queue = AwsDestinations().queue(fifo=True)
        sqs = aws("sqs")
        sent = [(f"k{n % 4}", f"e{n}") for n in range(80)]
        for key, ce_id in sent:
            sqs.send_message(QueueUrl=queue, MessageBody=json.dumps({"id": ce_id, "partitionkey": key}),
                             MessageGroupId=key, MessageDeduplicationId=ce_id)
        tap = FifoTap(queue, sqs_key, Receipts())
        tap.start()
        assert tap.received() == {ce_id: 1 for _, ce_id in sent}
        assert tap.receipts is not None
        for key in ("k0", "k1", "k2", "k3"):
            assert [ce for k, ce in tap.receipts.arrivals if k == key] == [ce for k, ce in sent if k == key]
        assert (tap.receipts.breaches, tap.receipts.redeliveries, tap.errors) == ([], 0, 0)
        assert all(m["receive_count"] == 1 and m["sent_ms"] > 0 for m in tap.receipts.messages)
        # moto's own time per call, apart from the client's: every send counted, each under its maximum.
        timings = moto_timings(url)
        sends = timings["actions"]["SendMessage"]
        assert sends["calls"] == 80 and 0 < sends["p50"] <= sends["max"] and timings["busiest"] >= 1
        assert timings_line(timings).startswith("SendMessage 80 calls p50 ")


def test_the_attempt_log_shows_a_send_of_an_earlier_event_after_a_later_one():
    in_order = {"k": [attempt("k", 1, 0, "failed", error="timeout"), attempt("k", 1, 2), attempt("k", 2, 3)]}
    assert evidence.send_order_breaches(in_order) == []
    late = {"k": [attempt("k", 1, 0), attempt("k", 2, 1), attempt("k", 1, 9)]}
    breaches = evidence.send_order_breaches(late)
    assert len(breaches) == 1 and breaches[0].startswith("k: e1 #1 04:00:09.000 delivered") and "after e2" in breaches[0]


def test_the_pace_figures_split_a_heads_retry_waits_from_its_keys_waits():
    by_key = {"k": [attempt("k", 1, 0, "failed", 1000, error="timeout"), attempt("k", 1, 4, latency_ms=1000),
                    attempt("k", 2, 15, latency_ms=3000)],
              "j": [attempt("j", 3, 0, latency_ms=1000)]}
    pace = evidence.pace(by_key, lease_seconds=5.0)
    assert pace["attempts"] == 4 and pace["retries"] == 1
    assert pace["retry_wait_seconds"]["max"] == 3.0  # the head's try ended at 1 s, its retry began at 4 s
    assert pace["key_wait_seconds"]["max"] == 10.0  # e1 ended at 5 s, e2's first try began at 15 s
    assert pace["sends_longer_than_half_the_lease"] == 1 and pace["span_seconds"] == 18.0
    assert pace["outcomes"] == {"delivered": 3, "failed timeout": 1}


def test_a_failing_check_names_the_key_the_event_its_attempts_and_the_kept_detail(tmp_path: Path):
    faults = KeyFaults()
    check_key("k", [("e1", "delivered"), ("e2", "delivered")], ["e1", "e2", "e1"], faults)
    attempts = {"k": [attempt("k", 1, 0), attempt("k", 2, 1)]}
    kept = evidence.write(tmp_path, "sqs-fifo", {"keys": [evidence.key_detail(
        "k", [("e1", "delivered"), ("e2", "delivered")], attempts["k"], [], ["e1", "e2", "e1"])]})
    line = _example(faults, "repeat", attempts, kept)
    assert _example(faults, "gap", attempts, kept) == "" and _example(faults, "early", attempts, kept) == ""
    assert line.startswith(" (e.g. k: e1 again after e2; ") and "e1: 1 attempt(s): #1 04:00:00.000 delivered 100 ms" in line
    assert "ordering-sqs-fifo.json" in line
    detail = orjson.loads((tmp_path / "ordering-sqs-fifo.json").read_bytes())["keys"][0]
    assert detail["events"][0] == {"ce_id": "e1", "job_state": "delivered",
                                   "attempts": ["#1 04:00:00.000 delivered 100 ms"]}
