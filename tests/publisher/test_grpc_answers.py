"""The batch answer built in place (N63) is the message the servicer built before: one
``PublishingResult`` per event, in order, the event echoed, ``failure_reason`` only on a failure.
Pure logic, no service."""

from __future__ import annotations

from datetime import UTC, datetime

from hub.grpcapi.publisher import batch_response, pb
from hub.publisher.models import InvalidEvent, PublishEvent, PublishOutcome


def test_the_batch_answer_echoes_each_event_with_its_outcome_in_order() -> None:
    echoes = [pb.Event(event_type=f"t.{n}", resource=pb.EventResource(resource_id=f"/r/{n}")) for n in range(3)]
    events = [PublishEvent("t.0", {}, datetime.now(UTC), "/r/0", echoes[0]), InvalidEvent("bad", echoes[1]),
              PublishEvent("t.2", {}, datetime.now(UTC), None, echoes[2])]
    outcomes = [PublishOutcome(True), PublishOutcome(False, "Invalid event: bad"),
                PublishOutcome(False, "Unable to connect to message broker")]
    expected = pb.BatchPublishEventsResponse(results=[
        pb.PublishingResult(event=echo, success=outcome.success,
                            failure_reason="" if outcome.success else outcome.failure_reason)
        for echo, outcome in zip(echoes, outcomes, strict=True)])
    response = batch_response(events, outcomes)
    assert response == expected
    assert response.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)
