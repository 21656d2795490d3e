"""The SQS sink: the structured CloudEvent as the message body, its attributes as message attributes.

Several deliveries to one queue with one credential go out as ``SendMessageBatch`` calls of at most
10 entries and ``sqs_max_message_bytes`` in total. FIFO queues (``.fifo``) get as ``MessageGroupId`` an
ordered job's key (N78), else the ``partitionkey`` extension (the event ``source`` when there is none),
and the CloudEvent ``id`` as ``MessageDeduplicationId``, so a retried delivery of an event (or its resend)
is dropped by SQS inside its 5-minute window. SQS takes at most 128 of ASCII's letters, digits and
punctuation in either id: a value outside that goes as its SHA-256 (hex).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from hub.providers.aws.sink import AwsSinkBase, AwsStepFailed, classify_aws_code, classify_client_error
from hub.sinks.base import NOT_STARTED, AttemptResult, NotStarted, PreparedDelivery, elapsed_ms
from hub.sinks.batching import group_by, size_bounded_chunks
from hub.sinks.vocabulary import ErrorClass, SinkKind

ATTRIBUTE_PREFIX = "ce_"
MAX_ATTRIBUTES = 10  # SQS accepts at most 10 message attributes
MAX_BATCH = 10
# Which CloudEvent attributes become message attributes when there are more than SQS accepts; the
# body always carries all of them.
# What SQS accepts as a MessageGroupId or MessageDeduplicationId.
FIFO_ID = re.compile(r"[!-~]{1,128}")
ATTRIBUTE_ORDER = ("specversion", "id", "source", "type", "time", "tenantid", "schemaversion",
                   "partitionkey", "delegatedscope", "dataschema", "subject", "datacontenttype")


def message_attributes(attributes: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """Up to 10 ``ce_<name>`` String attributes, the routing-relevant ones first; empty values skipped."""
    ranked = sorted((name for name in attributes if name != "data"),
                    key=lambda name: (ATTRIBUTE_ORDER.index(name) if name in ATTRIBUTE_ORDER else len(ATTRIBUTE_ORDER),
                                      name))
    chosen: dict[str, dict[str, str]] = {}
    for name in ranked:
        value = attributes[name]
        if value is None or value == "" or len(chosen) == MAX_ATTRIBUTES:
            continue
        chosen[f"{ATTRIBUTE_PREFIX}{name}"] = {"DataType": "String", "StringValue": str(value)}
    return chosen


def message_size(delivery: PreparedDelivery, attributes: Mapping[str, Mapping[str, str]]) -> int:
    """SQS's count: the body plus each attribute's name, type and value."""
    extra = sum(len(name.encode()) + len(spec["DataType"]) + len(spec["StringValue"].encode())
                for name, spec in attributes.items())
    return len(delivery.body) + extra


def is_fifo(queue_url: str) -> bool:
    return queue_url.rstrip("/").endswith(".fifo")


def fifo_id(value: object) -> str:
    """``value`` as SQS takes a FIFO id: as it is when SQS accepts it, else its SHA-256 in hex."""
    text = str(value)
    return text if FIFO_ID.fullmatch(text) else hashlib.sha256(text.encode()).hexdigest()


def fifo_ids(delivery: PreparedDelivery) -> dict[str, str]:
    """A FIFO entry's group (the ordered key, the partition key, the source) and deduplication id (the event's)."""
    attributes = delivery.attributes
    group = delivery.ordering_key or attributes.get("partitionkey") or attributes.get("source") or delivery.tenant_id
    return {"MessageGroupId": fifo_id(group),
            "MessageDeduplicationId": fifo_id(attributes.get("id") or delivery.delivery_id)}


def entry_for(index: int, delivery: PreparedDelivery) -> dict[str, Any]:
    """One SendMessageBatch entry (``Id`` is its index in the chunk)."""
    attributes = message_attributes(delivery.attributes)
    entry: dict[str, Any] = {"Id": str(index), "MessageBody": delivery.body.decode("utf-8"),
                             "MessageAttributes": attributes}
    if is_fifo(delivery.endpoint):
        entry.update(fifo_ids(delivery))
    return entry


class SqsSink(AwsSinkBase):
    """Sends deliveries to SQS queues; one client per credential (or grant) and region, reused."""

    kind: ClassVar[SinkKind] = SinkKind.sqs
    batch_size: ClassVar[int] = MAX_BATCH  # one SendMessageBatch call

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        results: list[AttemptResult | None] = [None] * len(deliveries)
        sendable: list[int] = []
        for index, delivery in enumerate(deliveries):
            size = message_size(delivery, message_attributes(delivery.attributes))
            if size > self._settings.sqs_max_message_bytes:
                results[index] = AttemptResult.failure(
                    ErrorClass.payload_too_large,
                    f"the message is {size} bytes; SQS accepts {self._settings.sqs_max_message_bytes}", terminal=True)
            else:
                sendable.append(index)
        chunks = [chunk for indexes in group_by(sendable, lambda i: destination_key(deliveries[i]))
                  for chunk in size_bounded_chunks(
                      indexes, [message_size(deliveries[i], message_attributes(deliveries[i].attributes))
                                for i in indexes], MAX_BATCH, self._settings.sqs_max_message_bytes)]
        # Every batch call is in flight at once; the sink's thread pool bounds how many really are.
        answers = await asyncio.gather(*(self._send_chunk([deliveries[i] for i in chunk]) for chunk in chunks))
        for chunk, answered in zip(chunks, answers, strict=True):
            for i, result in zip(chunk, answered, strict=True):
                results[i] = result
        return [result if result is not None else AttemptResult.failure(ErrorClass.internal, "not sent")
                for result in results]

    async def _send_chunk(self, batch: list[PreparedDelivery]) -> list[AttemptResult]:
        started = time.perf_counter()
        try:
            return await self._aws.run(lambda: self._send_blocking(batch, started))
        except NotStarted:  # queued behind the other calls past the caller's START_BY: nothing sent
            return [NOT_STARTED] * len(batch)
        except Exception as exc:  # noqa: BLE001 (a sink never raises)
            return [classify_client_error(exc, "sqs:SendMessageBatch")] * len(batch)

    def _send_blocking(self, batch: list[PreparedDelivery], started: float) -> list[AttemptResult]:
        first = batch[0]
        try:
            client = self._aws.client_for("sqs", credential=first.credential, grant=first.grant,
                                          session_name=f"hub-{first.subscription_id}")
        except AwsStepFailed as failed:
            return [failed.result] * len(batch)
        step = "sqs:SendMessage" if len(batch) == 1 else "sqs:SendMessageBatch"
        try:
            if len(batch) == 1:
                entry = entry_for(0, first)
                entry.pop("Id")
                client.send_message(QueueUrl=first.endpoint, **entry)
                return [AttemptResult.success(latency_ms=elapsed_ms(started))]
            answer = client.send_message_batch(QueueUrl=first.endpoint,
                                               Entries=[entry_for(i, d) for i, d in enumerate(batch)])
        except Exception as exc:  # noqa: BLE001
            result = classify_client_error(exc, step)
            self._forget_refused_grant(first, result)
            return [result.timed(started)] * len(batch)
        return _batch_results(answer, len(batch), started)

    def _forget_refused_grant(self, delivery: PreparedDelivery, result: AttemptResult) -> None:
        if delivery.grant and result.error_class == ErrorClass.auth_failed.value:
            self._aws.forget_grant(delivery.grant)


def destination_key(delivery: PreparedDelivery) -> tuple[Any, ...]:
    """Deliveries that may share one batch call: same queue, same credential or grant."""
    credential = tuple(sorted((delivery.credential or {}).items()))
    grant = tuple(sorted((delivery.grant or {}).items()))
    return (delivery.endpoint, credential, grant)


def _batch_results(answer: Mapping[str, Any], count: int, started: float) -> list[AttemptResult]:
    latency = elapsed_ms(started)
    results = [AttemptResult.failure(ErrorClass.destination_error, "sqs:SendMessageBatch: entry not reported",
                                     latency_ms=latency)] * count
    for ok in answer.get("Successful", []):
        results[int(ok["Id"])] = AttemptResult.success(latency_ms=latency)
    for failed in answer.get("Failed", []):
        result = classify_aws_code(str(failed.get("Code", "Unknown")), str(failed.get("Message", "")),
                                   "sqs:SendMessageBatch")
        results[int(failed["Id"])] = result.timed(started)
    return results
