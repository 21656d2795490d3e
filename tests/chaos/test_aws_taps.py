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
