"""The async loop helpers the workers and the API's live feed share (hub/dataplane/reconnect.py, offered to
the workers by workers/runtime): sleep unless stopped, backoff, a round loop that reconnects."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from devkit.pg import free_port
from hub.db import libpq_url
from workers.runtime import TRANSIENT_DB_ERRORS, Backoff, async_connector, run_reconnecting, sleep_unless_stopped


def test_sleep_unless_stopped_sleeps_the_whole_time_when_not_stopped():
    async def go() -> tuple[bool, float]:
        loop = asyncio.get_running_loop()
        started = loop.time()
        stopped = await sleep_unless_stopped(asyncio.Event(), 0.05)
        return stopped, loop.time() - started

    stopped, elapsed = asyncio.run(go())
    assert not stopped and elapsed >= 0.05


def test_sleep_unless_stopped_ends_when_stop_is_set():
    async def go() -> tuple[bool, float, bool]:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        loop.call_later(0.05, stop.set)
        started = loop.time()
        stopped = await sleep_unless_stopped(stop, 30)
        elapsed = loop.time() - started
        return stopped, elapsed, await sleep_unless_stopped(stop, 30)  # already set: at once

    stopped, elapsed, again = asyncio.run(go())
    assert stopped and again and elapsed < 5


def test_backoff_doubles_up_to_its_most_and_a_reset_starts_over():
    async def go() -> list[float]:
        backoff, stop, seen = Backoff(first=0.01, most=0.04), asyncio.Event(), []
        for _ in range(4):
            await backoff.wait(stop)
            seen.append(backoff.seconds)
        backoff.reset()
        return [*seen, backoff.seconds]

    assert asyncio.run(go()) == [0.02, 0.04, 0.04, 0.04, 0.01]


def test_a_backoff_wait_ends_when_stop_is_set():
    async def go() -> float:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        loop.call_later(0.05, stop.set)
        started = loop.time()
        await Backoff(first=30).wait(stop)
        return loop.time() - started

    assert asyncio.run(go()) < 5


def _connector():  # noqa: ANN202
    return async_connector(libpq_url(), application_name="hub-runtime-test")


def test_a_round_that_breaks_its_connection_is_retried_on_a_new_one():
    """A transient error reaches on_error, the broken connection is closed and the next round connects anew."""
    pids: list[int] = []
    errors: list[Exception] = []
    connections: list[psycopg.AsyncConnection] = []

    async def go() -> None:
        stop = asyncio.Event()

        async def work(conn: psycopg.AsyncConnection) -> None:
            connections.append(conn)
            pids.append(conn.info.backend_pid)
            if len(pids) == 1:
                await conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
            stop.set()

        await run_reconnecting(stop, _connector(), work, on_error=errors.append, retry=TRANSIENT_DB_ERRORS,
                               backoff=Backoff(first=0.01))

    asyncio.run(go())
    assert len(pids) == 2 and pids[0] != pids[1]
    assert len(errors) == 1 and isinstance(errors[0], TRANSIENT_DB_ERRORS)
    assert all(conn.closed for conn in connections)  # the broken one, and the last one on the way out


def test_rounds_share_one_connection_while_they_succeed():
    pids: list[int] = []

    async def go() -> None:
        stop = asyncio.Event()

        async def work(conn: psycopg.AsyncConnection) -> None:
            cursor = await conn.execute("SELECT pg_backend_pid()")
            pids.append((await cursor.fetchone())[0])
            if len(pids) == 3:
                stop.set()

        await run_reconnecting(stop, _connector(), work, on_error=lambda exc: None)

    asyncio.run(go())
    assert len(pids) == 3 and len(set(pids)) == 1


def test_failed_connects_back_off_until_stopped():
    """Nothing listens: every connect fails, the waits double, and stop ends the loop."""
    dead = async_connector(f"postgresql://nobody@127.0.0.1:{free_port()}/none", application_name="hub-runtime-test",
                           connect_timeout=1)
    errors: list[Exception] = []
    backoff = Backoff(first=0.01, most=0.08)

    async def go() -> None:
        stop = asyncio.Event()

        def failed(exc: Exception) -> None:
            errors.append(exc)
            if len(errors) == 3:
                stop.set()

        await run_reconnecting(stop, dead, lambda conn: asyncio.sleep(0), on_error=failed, backoff=backoff)

    asyncio.run(go())
    assert len(errors) == 3 and all(isinstance(exc, psycopg.OperationalError) for exc in errors)
    assert backoff.seconds == 0.08  # 0.01 -> 0.02 -> 0.04 -> 0.08 after three failures


def test_a_successful_round_resets_the_backoff():
    backoff = Backoff(first=0.01, most=1.0)
    seen: list[float] = []

    async def go() -> None:
        stop = asyncio.Event()

        async def work(conn: psycopg.AsyncConnection) -> None:
            seen.append(backoff.seconds)
            if len(seen) <= 2:
                raise RuntimeError("a defect in the round")
            if len(seen) == 4:
                stop.set()

        await run_reconnecting(stop, _connector(), work, on_error=lambda exc: None, backoff=backoff)

    asyncio.run(go())
    assert seen == [0.01, 0.02, 0.04, 0.01]


def test_an_error_outside_retry_propagates_and_closes_the_connection():
    connections: list[psycopg.AsyncConnection] = []

    async def work(conn: psycopg.AsyncConnection) -> None:
        connections.append(conn)
        raise ValueError("not a database fault")

    async def go() -> None:
        await run_reconnecting(asyncio.Event(), _connector(), work, on_error=lambda exc: None,
                               retry=TRANSIENT_DB_ERRORS)

    with pytest.raises(ValueError, match="not a database fault"):
        asyncio.run(go())
    assert len(connections) == 1 and connections[0].closed


def test_a_stopped_loop_runs_no_round():
    rounds: list[object] = []

    async def go() -> None:
        stop = asyncio.Event()
        stop.set()
        await run_reconnecting(stop, _connector(), lambda conn: asyncio.sleep(0, rounds.append(conn)),
                               on_error=lambda exc: None)

    asyncio.run(go())
    assert rounds == []
