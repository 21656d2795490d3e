"""The chaos run's AWS destinations (chaos.aws): a moto server in a child process, an SQS queue and an
EventBridge bus read back by CloudEvent id while they fill, and emptied as they are read."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from chaos.aws import QueueTap, eventbridge_key, moto_process, sqs_key
from devkit.destinations import AwsDestinations, aws


def test_taps_count_sqs_and_eventbridge_messages_by_cloudevent_id(
        tmp_path: Path, override_settings: Callable[..., None]) -> None:
    with moto_process(tmp_path) as url:
        override_settings(aws_endpoint_url=url)
        destinations = AwsDestinations()
        queue = destinations.queue()
        bus, bus_tap = destinations.bus_with_tap()
        sqs, events = aws("sqs"), aws("events")
        for ce_id in ("a", "b", "a"):  # "a" twice: a duplicate is counted twice
            sqs.send_message(QueueUrl=queue, MessageBody=json.dumps({"id": ce_id, "data": {}}))
        entries = [{"EventBusName": bus, "Source": "ledger", "DetailType": "transaction.posted",
                    "Detail": json.dumps({"n": n, "ceId": ce_id})} for n, ce_id in enumerate(("c", "d"))]
        assert events.put_events(Entries=entries)["FailedEntryCount"] == 0
        # The patched counter is the queue's length (moto's own walks every message).
        assert sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["ApproximateNumberOfMessages"])[
            "Attributes"]["ApproximateNumberOfMessages"] == "3"
        taps = [QueueTap(queue, sqs_key), QueueTap(bus_tap, eventbridge_key)]
        for tap in taps:
            tap.start()
        got = [tap.received() for tap in taps]
        assert got[0] == {"a": 2, "b": 1}
        assert got[1] == {"c": 1, "d": 1}
        assert all(tap.errors == 0 for tap in taps)
        for emptied in (queue, bus_tap):  # read and deleted: nothing comes back
            assert sqs.receive_message(QueueUrl=emptied, WaitTimeSeconds=0).get("Messages", []) == []


def test_a_fifo_tap_notes_each_groups_messages_in_order_and_a_batch_delete_refuses_unknown_handles(
        tmp_path: Path, override_settings: Callable[..., None]) -> None:
    from chaos.ordering import Receipts

    with moto_process(tmp_path) as url:
        override_settings(aws_endpoint_url=url)
        queue = AwsDestinations().queue(fifo=True)
        sqs = aws("sqs")
        sent = [(f"k{n % 3}", f"e{n}") for n in range(60)]  # read by several readers at once
        for key, ce_id in [*sent, sent[0]]:  # the first one twice: the second send is deduplicated
            sqs.send_message(QueueUrl=queue, MessageBody=json.dumps({"id": ce_id, "partitionkey": key}),
                             MessageGroupId=key, MessageDeduplicationId=ce_id)
        tap = QueueTap(queue, sqs_key, Receipts())
        tap.start()
        assert tap.received() == {ce_id: 1 for _, ce_id in sent}
        # Read and deleted, the id is still remembered for the deduplication interval (as on AWS).
        key, ce_id = sent[0]
        sqs.send_message(QueueUrl=queue, MessageBody=json.dumps({"id": ce_id, "partitionkey": key}),
                         MessageGroupId=key, MessageDeduplicationId=ce_id)
        assert sqs.receive_message(QueueUrl=queue, WaitTimeSeconds=0).get("Messages", []) == []
        assert tap.receipts is not None
        assert len(tap.threads) > 1
        for key in ("k0", "k1", "k2"):
            assert [c for k, c in tap.receipts.arrivals if k == key] == [c for k, c in sent if k == key]
        answer = sqs.delete_message_batch(QueueUrl=queue, Entries=[{"Id": "x", "ReceiptHandle": "no-such-handle"}])
        assert [failed["Code"] for failed in answer["Failed"]] == ["ReceiptHandleIsInvalid"]
