"""The sink contract every push kind meets, run against each kind's real destination (see conftest)."""

from __future__ import annotations

from hub.sinks.base import AttemptResult
from hub.sinks.vocabulary import ErrorClass
from tests.sinks.conftest import SinkTarget, cloudevent, run


def test_delivers_the_exact_bytes(sink_target: SinkTarget) -> None:
    """A delivery reaches the destination with the body exactly as prepared; success has no error class."""
    body, _ = cloudevent({"n": 1, "text": "ünïcode", "nested": {"a": [1, 2.50, None]}})
    sink = sink_target.make_sink()

    async def go() -> AttemptResult:
        try:
            return await sink.deliver(sink_target.delivery(body=body))
        finally:
            await sink.close()

    result = run(go())
    assert result.ok, result
    assert result.error_class == ""
    assert sink_target.seen_as(body) in sink_target.received(1)


def test_destination_down_is_a_classified_failure(sink_target: SinkTarget) -> None:
    """A destination that is down is an AttemptResult with a frozen error class, never an exception."""
    sink = sink_target.make_sink()

    async def go() -> AttemptResult:
        try:
            return await sink.deliver(sink_target.down_delivery())
        finally:
            await sink.close()

    result = run(go())
    assert not result.ok
    assert result.error_class in {member.value for member in ErrorClass}
    assert result.error_class != ErrorClass.internal.value
    assert result.detail


def test_deliver_many_answers_in_input_order(sink_target: SinkTarget) -> None:
    """deliver_many returns one result per delivery, in the order given, mixing success and failure."""
    sink = sink_target.make_sink()
    good = [sink_target.delivery(body=cloudevent({"i": i})[0]) for i in range(5)]

    async def go() -> list[AttemptResult]:
        try:
            return await sink.deliver_many([good[0], sink_target.down_delivery(), *good[1:]])
        finally:
            await sink.close()

    results = run(go())
    assert [r.ok for r in results] == [True, False, True, True, True, True]
    assert sorted(sink_target.received(len(good))) == sorted(sink_target.seen_as(d.body) for d in good)


def test_close_twice_is_harmless(sink_target: SinkTarget) -> None:
    sink = sink_target.make_sink()

    async def go() -> None:
        await sink.deliver(sink_target.delivery())
        await sink.close()
        await sink.close()

    run(go())
