"""The shared worker runtime: stop signals, the metrics listener, connections that reconnect, and the async
loop helpers (sleep unless stopped, backoff, a round loop that reconnects)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request

import psycopg
import pytest

import hub.metrics  # noqa: F401  (registers the hub_* metrics)
from hub.db import libpq_url
from devkit.pg import free_port
from workers.kafka_loop import TransientError
from workers.runtime import (
    TRANSIENT_DB_ERRORS, Backoff, ReconnectingConnection, WorkerRuntime, async_connector, run_reconnecting,
    sleep_unless_stopped,
)


@pytest.fixture
def restore_signals():
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_sets_the_stop_event(signum, restore_signals):
    runtime = WorkerRuntime("test")
    runtime.install_signal_handlers()
    assert not runtime.stop_event.is_set()
    os.kill(os.getpid(), signum)
    assert runtime.stop_event.wait(5)


def test_the_metrics_listener_serves_prometheus_text():
    port = free_port()
    WorkerRuntime("test").serve_metrics(port, "127.0.0.1")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        assert response.status == 200
        assert b"hub_" in response.read()


def test_a_broken_connection_raises_transient_and_the_next_run_reconnects():
    db = ReconnectingConnection(libpq_url(), application_name="hub-runtime-test")
    try:
        pid = db.run(lambda conn: conn.execute("SELECT pg_backend_pid()").fetchone()[0])
        with psycopg.connect(libpq_url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(TransientError, match="PostgreSQL unavailable"):
            db.run(lambda conn: conn.execute("SELECT 1").fetchone())
        again = db.run(lambda conn: conn.execute("SELECT pg_backend_pid()").fetchone()[0])
        assert again != pid
    finally:
        db.close()


def test_on_connect_runs_once_per_new_connection():
    seen: list[int] = []
    db = ReconnectingConnection(libpq_url(), application_name="hub-runtime-test",
                                on_connect=lambda conn: seen.append(conn.info.backend_pid))
    try:
        db.run(lambda conn: None)
        db.run(lambda conn: None)
        assert len(seen) == 1
        db.close()
        db.run(lambda conn: None)
        assert len(seen) == 2
    finally:
        db.close()


def test_a_failing_transaction_rolls_back_and_keeps_the_connection():
    db = ReconnectingConnection(libpq_url(), application_name="hub-runtime-test")
    try:
        pid = db.run(lambda conn: conn.info.backend_pid)
        with pytest.raises(psycopg.errors.DivisionByZero):
            db.run(lambda conn: conn.execute("SELECT 1 / 0"))
        assert db.run(lambda conn: conn.info.backend_pid) == pid
    finally:
        db.close()


def test_a_stop_signal_sets_the_async_stop_event_of_a_waiting_loop(restore_signals):
    """An asyncio worker (``hub deliver``) waiting on its loop wakes on SIGTERM, and stop_event is set too."""
    import asyncio

    runtime = WorkerRuntime("test")

    async def wait_for_stop() -> bool:
        stop = runtime.async_stop_event()
        asyncio.get_running_loop().call_later(0.1, os.kill, os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(stop.wait(), 5)
        return stop.is_set()

    loop = asyncio.new_event_loop()
    try:
        assert loop.run_until_complete(wait_for_stop())
    finally:
        loop.close()
    assert runtime.stop_event.is_set()


def test_a_stop_requested_from_another_thread_reaches_the_loop():
    import asyncio

    runtime = WorkerRuntime("test")

    async def wait_for_stop() -> None:
        stop = runtime.async_stop_event()
        threading.Timer(0.1, runtime.request_stop).start()
        await asyncio.wait_for(stop.wait(), 5)

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(wait_for_stop())
    finally:
        loop.close()


def test_the_async_connector_names_the_connection_after_the_worker():
    import asyncio

    async def application_name() -> str:
        conn = await WorkerRuntime("deliver").async_connector()()
        try:
            cursor = await conn.execute("SELECT current_setting('application_name')")
            return (await cursor.fetchone())[0]
        finally:
            await conn.close()

    assert asyncio.run(application_name()) == "hub-deliver"


def test_freezing_the_heap_takes_the_started_worker_out_of_full_collections():
    """After freeze_heap, a full collection no longer walks the imported modules: it tracks only what came later."""
    script = (
        "import gc, json\n"
        "import hub.cli, workers.deliver.engine, workers.ingest.worker\n"  # a started worker's imports
        "from workers.runtime import WorkerRuntime\n"
        "WorkerRuntime.freeze_heap()\n"
        "print(json.dumps({'frozen': gc.get_freeze_count(), 'tracked': len(gc.get_objects())}))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    figures = json.loads(result.stdout)
    assert figures["frozen"] > 50_000, "the imported heap is frozen"
    assert figures["tracked"] < figures["frozen"] / 20, "only a sliver is still tracked by the collector"


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
