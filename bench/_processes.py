"""Real hub processes for the benches: ``hub ingest`` workers, any worker command, waiting for ``hub api``.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from bench._ingest_setup import ROOT, Scratch

@contextmanager
def ingest_workers(scratch: Scratch, prefix: str, group: str, count: int, profile: str = "") -> Iterator[list]:
    """``count`` real ``hub ingest`` processes on the scratch database; their logs shown on failure."""
    env = {**os.environ, "HUB_DATABASE_URL": scratch.url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
           "HUB_KAFKA_CONSUMER_GROUP": group, "HUB_KAFKA_DLQ_GROUP": f"{group}-dlq",
           "HUB_INGEST_METRICS_PORT": "0", "HUB_LOG_LEVEL": "WARNING"}
    def command(i: int) -> list[str]:
        if not profile:
            return [sys.executable, "-m", "workers.cli", "ingest"]
        out = Path(profile) / f"ingest-{group}-{i}.prof"
        return [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "workers.cli", "ingest"]

    with worker_processes([command(i) for i in range(count)], env) as procs:
        yield procs


@contextmanager
def worker_processes(commands: list[list[str]], env: dict[str, str]) -> Iterator[list[subprocess.Popen]]:
    """One real process per command; each one's stderr is shown if the block fails, all stopped at exit."""
    logs = [tempfile.TemporaryFile() for _ in commands]
    procs = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
             for command, log in zip(commands, logs)]
    try:
        yield procs
    except BaseException:
        for log in logs:
            log.seek(0)
            sys.stderr.write(log.read().decode(errors="replace")[-4000:])
        raise
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGCONT)  # a paused worker must run to handle SIGTERM
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()


def wait_for_api(base: str, *, seconds: float, process: subprocess.Popen | None = None) -> None:
    """Return once ``hub api`` at BASE answers ``/healthz`` 200; raise when PROCESS exits or SECONDS pass."""
    deadline = time.monotonic() + seconds
    while True:
        if process is not None and process.poll() is not None:
            detail = process.stderr.read().decode()[-2000:] if process.stderr else ""
            raise RuntimeError(f"hub api exited: {detail}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("hub api did not come up")
        time.sleep(0.25)
