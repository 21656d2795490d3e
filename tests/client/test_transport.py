"""The client's transport and problem hook on scripted answers (httpx's MockTransport): the same idempotency
key on every try of a mutation, waits as ``Retry-After`` says, and problems raised with their code (N73)."""

from __future__ import annotations

from email.utils import format_datetime
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from streaming_hub import HubProblem, HubTransport, connect
from streaming_hub_client.api.operational import get_liveness


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """No database: the hub is scripted here (tests/client/test_live.py runs the real one)."""


def scripted(*answers: httpx.Response) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    seen: list[httpx.Request] = []
    queue = list(answers)

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return queue.pop(0)

    return httpx.MockTransport(answer), seen


def busy(status: int, retry_after: str | None) -> httpx.Response:
    headers = {"content-type": "application/problem+json", **({"retry-after": retry_after} if retry_after else {})}
    return httpx.Response(status, headers=headers, json={"code": "rate_limited", "title": "Too Many Requests"})


def test_a_mutation_is_retried_after_retry_after_under_one_key() -> None:
    mock, seen = scripted(busy(429, "2"), busy(503, "1"), httpx.Response(201, json={}))
    waits: list[float] = []
    with httpx.Client(transport=HubTransport(mock, sleep=waits.append), base_url="http://hub") as client:
        assert client.post("/v1/subscriptions", json={}).status_code == 201
    assert waits == [2.0, 1.0]
    keys = {request.headers["x-idempotency"] for request in seen}
    assert len(seen) == 3 and len(keys) == 1 and keys != {""}


def test_an_http_date_is_a_wait_too_and_reads_get_no_key() -> None:
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    mock, seen = scripted(busy(503, later), httpx.Response(200, json={}))
    waits: list[float] = []
    with httpx.Client(transport=HubTransport(mock, sleep=waits.append), base_url="http://hub") as client:
        assert client.get("/v1/subscriptions").status_code == 200
    assert 25 < waits[0] <= 30
    assert "x-idempotency" not in seen[0].headers


@pytest.mark.parametrize(("answers", "tries"), [
    ([busy(503, None)], 1),  # no Retry-After: not retried
    ([busy(429, "600")], 1),  # a longer wait than the client accepts
    ([busy(429, "0")] * 4, 4),  # retried three times, then the problem
])
def test_what_is_not_retried_raises_the_problem(answers, tries) -> None:
    mock, seen = scripted(*answers)
    hub = connect("http://hub", "token", transport=mock, max_wait=60.0)
    with pytest.raises(HubProblem) as raised:
        get_liveness.sync(client=hub)
    assert raised.value.code == "rate_limited" and raised.value.status == answers[0].status_code
    assert len(seen) == tries


def test_the_async_transport_keys_mutations_and_retries_with_the_same_key():
    """`AsyncHubTransport` (what `connect` gives the async calls, N96): a key on a mutation, kept on the retry."""
    import asyncio

    from streaming_hub import AsyncHubTransport

    seen: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("X-Idempotency"))
        return httpx.Response(503, headers={"Retry-After": "0"}) if len(seen) == 1 else httpx.Response(201)

    async def no_wait(_: float) -> None:
        return None

    async def post() -> httpx.Response:
        transport = AsyncHubTransport(httpx.MockTransport(answer), sleep=no_wait)
        async with httpx.AsyncClient(transport=transport) as client:
            return await client.post("http://hub.invalid/v1/subscriptions", json={})

    assert asyncio.run(post()).status_code == 201
    assert len(seen) == 2 and seen[0] and seen[0] == seen[1]
