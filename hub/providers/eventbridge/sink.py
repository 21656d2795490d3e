"""The EventBridge sink: ``PutEvents`` with Source = event source, DetailType = event key, Detail = payload.

The endpoint is ``"<bus name>[/<detail-type>]"``; a detail-type written there replaces the event
key. ``Detail`` is the event's ``data`` when it is a JSON object, else ``{"data": <value>}`` (AWS
only accepts an object). An entry over ``eventbridge_max_entry_bytes`` by AWS's size formula is
dead-lettered unsent (``payload_too_large``, terminal); several entries to one bus share a call of
at most 10 entries within the same byte bound. A failed entry carries the AWS error code in its detail.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

import orjson

from hub.providers.aws.sink import AwsSinkBase, AwsStepFailed, classify_aws_code, classify_client_error
from hub.sinks.base import NOT_STARTED, AttemptResult, NotStarted, PreparedDelivery, elapsed_ms
from hub.sinks.batching import group_by, size_bounded_chunks
from hub.providers.sqs.sink import destination_key
from hub.sinks.vocabulary import ErrorClass, SinkKind

MAX_BATCH = 10
TIME_FIELD_BYTES = 14  # AWS counts a present Time as 14 bytes


def detail_of(body: bytes) -> str:
    """The event payload as an EventBridge ``Detail`` JSON object (a non-object is wrapped)."""
    event = orjson.loads(body)
    data = event.get("data") if isinstance(event, dict) else None
    if isinstance(data, dict):
        return orjson.dumps(data).decode("utf-8")
    if data is None and isinstance(event, dict) and "data_base64" in event:
        return orjson.dumps({"data_base64": event["data_base64"]}).decode("utf-8")
    return orjson.dumps({"data": data}).decode("utf-8")


def bus_and_detail_type(endpoint: str, attributes: Mapping[str, Any]) -> tuple[str, str]:
    bus, _, detail_type = endpoint.partition("/")
    return bus, detail_type or str(attributes.get("type") or "")


def entry_for(delivery: PreparedDelivery) -> dict[str, Any]:
    bus, detail_type = bus_and_detail_type(delivery.endpoint, delivery.attributes)
    entry: dict[str, Any] = {"EventBusName": bus, "Source": str(delivery.attributes.get("source") or ""),
                             "DetailType": detail_type, "Detail": detail_of(delivery.body)}
    event_time = _parse_time(delivery.attributes.get("time"))
    if event_time is not None:
        entry["Time"] = event_time
    return entry


def entry_size(entry: Mapping[str, Any]) -> int:
    """AWS's PutEvents entry size: Time (14), Source, DetailType, Detail and Resources in UTF-8."""
    size = TIME_FIELD_BYTES if "Time" in entry else 0
    for field in ("Source", "DetailType", "Detail"):
        size += len(str(entry.get(field) or "").encode("utf-8"))
    return size + sum(len(resource.encode("utf-8")) for resource in entry.get("Resources", []))


def _parse_time(value: Any) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


class EventBridgeSink(AwsSinkBase):
    """Puts deliveries on EventBridge buses; one client per credential (or grant) and region, reused."""

    kind: ClassVar[SinkKind] = SinkKind.eventbridge
    batch_size: ClassVar[int] = MAX_BATCH  # one PutEvents call

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        limit = self._settings.eventbridge_max_entry_bytes
        results: list[AttemptResult | None] = [None] * len(deliveries)
        entries: dict[int, dict[str, Any]] = {}
        for index, delivery in enumerate(deliveries):
            try:
                entry = entry_for(delivery)
            except orjson.JSONDecodeError:
                results[index] = AttemptResult.failure(ErrorClass.internal, "the event body is not JSON")
                continue
            size = entry_size(entry)
            if size > limit:
                results[index] = AttemptResult.failure(
                    ErrorClass.payload_too_large, f"the entry is {size} bytes; EventBridge accepts {limit}",
                    terminal=True)
            else:
                entries[index] = entry
        chunks = [chunk for indexes in group_by(list(entries), lambda i: destination_key(deliveries[i]))
                  for chunk in size_bounded_chunks(indexes, [entry_size(entries[i]) for i in indexes], MAX_BATCH, limit)]
        # Every PutEvents call is in flight at once; the sink's thread pool bounds how many really are.
        answers = await asyncio.gather(*(self._put(deliveries[chunk[0]], [entries[i] for i in chunk])
                                         for chunk in chunks))
        for chunk, answered in zip(chunks, answers, strict=True):
            for i, result in zip(chunk, answered, strict=True):
                results[i] = result
        return [result if result is not None else AttemptResult.failure(ErrorClass.internal, "not sent")
                for result in results]

    async def _put(self, first: PreparedDelivery, entries: list[dict[str, Any]]) -> list[AttemptResult]:
        started = time.perf_counter()
        try:
            return await self._aws.run(lambda: self._put_blocking(first, entries, started))
        except NotStarted:  # queued behind the other calls past the caller's START_BY: nothing sent
            return [NOT_STARTED] * len(entries)
        except Exception as exc:  # noqa: BLE001 (a sink never raises)
            return [classify_client_error(exc, "events:PutEvents")] * len(entries)

    def _put_blocking(self, first: PreparedDelivery, entries: list[dict[str, Any]],
                      started: float) -> list[AttemptResult]:
        try:
            client = self._aws.client_for("events", credential=first.credential, grant=first.grant,
                                          session_name=f"hub-{first.subscription_id}")
            answer = client.put_events(Entries=entries)
        except AwsStepFailed as failed:
            return [failed.result] * len(entries)
        except Exception as exc:  # noqa: BLE001
            result = classify_client_error(exc, "events:PutEvents")
            if first.grant and result.error_class == ErrorClass.auth_failed.value:
                self._aws.forget_grant(first.grant)
            return [result] * len(entries)
        latency = elapsed_ms(started)
        return [_entry_result(reported, latency) for reported in _padded(answer.get("Entries", []), len(entries))]


def _padded(reported: list[Mapping[str, Any]], count: int) -> list[Mapping[str, Any]]:
    missing = {"ErrorCode": "EntryNotReported", "ErrorMessage": ""}
    return list(reported[:count]) + [missing] * (count - len(reported))


def _entry_result(reported: Mapping[str, Any], latency: int) -> AttemptResult:
    code = reported.get("ErrorCode")
    if not code:
        return AttemptResult.success(latency_ms=latency)
    result = classify_aws_code(str(code), str(reported.get("ErrorMessage") or ""), "events:PutEvents")
    return AttemptResult(ok=False, error_class=result.error_class, detail=result.detail, latency_ms=latency,
                         terminal=result.terminal)
