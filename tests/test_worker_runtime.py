"""The shared worker runtime: stop signals, the metrics listener, connections that reconnect. The async loop
helpers it offers (sleep unless stopped, backoff, a round loop that reconnects) are tests/test_reconnect.py."""

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
    ReconnectingConnection, WorkerRuntime,
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
