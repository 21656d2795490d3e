"""A worker's liveness is its own loop's heartbeat (N94, issue 50): a blocked loop makes ``/livez`` fail
while ``/metrics``, served by the listener's own thread, still answers."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from devkit.pg import free_port
from workers import liveness


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """A loop and a listener in this process: no database."""


def ask(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def wait_until(check, timeout: float = 10.0):  # noqa: ANN001, ANN201
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    return found


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a thread of its own, as a worker's main loop runs."""
    running = asyncio.new_event_loop()
    thread = threading.Thread(target=running.run_forever, daemon=True)
    thread.start()
    yield running
    running.call_soon_threadsafe(running.stop)
    thread.join(10)
    running.close()


def test_a_blocked_loop_fails_liveness_while_metrics_still_answer(loop):
    liveness._last_beat = None  # noqa: SLF001 (a fresh process's heartbeat)
    port = free_port()
    server = liveness.serve(port, "127.0.0.1", stale_seconds=0.5)
    base = f"http://127.0.0.1:{port}"
    try:
        assert ask(f"{base}/livez") == (200, b'{"status": "starting"}')  # no beat yet: the loop is starting
        liveness.pulse(loop, every=0.1)
        wait_until(lambda: json.loads(ask(f"{base}/livez")[1])["status"] == "ok")
        loop.call_soon_threadsafe(time.sleep, 2.0)  # a coroutine that blocks the loop
        status, body = wait_until(lambda: (found := ask(f"{base}/livez"))[0] == 503 and found, timeout=5)
        assert json.loads(body)["status"] == "stuck" and json.loads(body)["heartbeat_age_seconds"] > 0.5
        assert ask(f"{base}/metrics")[0] == 200  # the old probe: still answering
        wait_until(lambda: ask(f"{base}/livez")[0] == 200, timeout=5)  # the loop runs again
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def restore_signals_and_loop():
    """Runs a coroutine in a fresh loop on the main thread (signal handlers need it), then restores SIGTERM/SIGINT."""
    import signal

    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    yield asyncio.run
    for signum, handler in saved.items():
        signal.signal(signum, handler)


def test_the_runtime_serves_liveness_and_its_loop_beats(restore_signals_and_loop):
    """`WorkerRuntime.serve_metrics` opens /livez, and `async_stop_event` makes the running loop beat."""
    from workers.runtime import WorkerRuntime

    liveness._last_beat = None  # noqa: SLF001
    port = free_port()
    runtime = WorkerRuntime("t")
    runtime.serve_metrics(port, "127.0.0.1")

    async def main() -> None:
        runtime.async_stop_event()
        await asyncio.sleep(0.2)

    restore_signals_and_loop(main())
    status, body = ask(f"http://127.0.0.1:{port}/livez")
    assert status == 200 and json.loads(body)["status"] == "ok"


def test_the_batch_loop_beats_each_batch_and_while_it_waits_out_a_fault():
    from workers.kafka_loop import BatchLoop

    liveness._last_beat = None  # noqa: SLF001
    stop = threading.Event()

    class Consumer:
        """No records, ever; the loop stops after a few batches."""

        calls = 0

        def consume(self, num_messages: int, timeout: float) -> list:
            Consumer.calls += 1
            if Consumer.calls > 3:
                stop.set()
            return []

        def commit(self, asynchronous: bool) -> None:
            return None

    BatchLoop(Consumer(), lambda batch: None, max_records=10, max_ms=10, retry_max_seconds=1, stop=stop).run()
    assert liveness.age() is not None and liveness.age() < 5
