"""``hub deliver``: push due delivery jobs to their destinations until SIGTERM or SIGINT.

``--processes N`` (N > 1) supervises N single worker processes and restarts one that dies.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable

from hub.config import get_settings
from workers.deliver.backlog import report_backlog
from workers.deliver import loop_errors
from workers.deliver.engine import Engine
from workers.deliver.loop import pipeline
from workers.deliver.wakeup import ClaimPacing, Wakeup
from workers.runtime import AsyncConnector, WorkerRuntime

log = logging.getLogger("hub.deliver")


async def serve(runtime: WorkerRuntime) -> None:
    """One worker: ``deliver_pipelines`` claim loops, their wake-up listener and the backlog reporter."""
    settings = get_settings()
    loop_errors.install(asyncio.get_running_loop())
    stop = runtime.async_stop_event()
    connect = runtime.async_connector()
    engine = Engine(settings=settings, tail_connect=runtime.async_connector(role="tails"))
    wakeup = Wakeup()
    pacing = ClaimPacing(settings.deliver_claim_interval_ms / 1000, settings.deliver_idle_poll_seconds)
    listeners = [wakeup.listen(stop, runtime.async_connector(role="wakeup"))] if settings.deliver_wakeup else []
    runtime.freeze_heap()
    try:
        await asyncio.gather(report_backlog(stop, connect, engine.shares, settings.deliver_metrics_top_tenants),
                             wakeup.release_on(stop), *listeners,
                             *(pipeline(engine, connect, stop, wakeup, pacing, bulk=bulk)
                               for bulk in lanes(settings.deliver_pipelines)), *express(engine, connect, stop, wakeup))
    finally:
        await engine.close()


def count_from_zero() -> None:
    """Every sink kind's (the provider registry's) auto-disable and attempt counters, exported at 0 from the
    start: ``increase()`` ignores a series' first sample, so a series born at its first increment would hide
    a mass auto-disable right after a restart from the alerts (N95)."""
    from hub.metrics import ATTEMPTS, AUTO_DISABLED
    from hub.providers.registry import kinds
    from hub.sinks.vocabulary import Outcome

    for kind in kinds():
        AUTO_DISABLED.labels(sink_kind=kind)
        for outcome in Outcome:
            ATTEMPTS.labels(sink_kind=kind, outcome=outcome.value)


def express(engine: Engine, connect: AsyncConnector, stop: asyncio.Event, wakeup: Wakeup) -> list[Awaitable[None]]:
    """The express claim loop (N98), with a pacing of its own (its claims never end the pipelines' backlog
    mode), live jobs only; none when ``deliver_express_busy`` is 0."""
    settings = engine.settings
    if settings.deliver_express_busy <= 0:
        return []
    pacing = ClaimPacing(settings.deliver_claim_interval_ms / 1000, settings.deliver_idle_poll_seconds)
    return [pipeline(engine, connect, stop, wakeup, pacing, bulk=False, express=True)]


def lanes(pipelines: int) -> list[bool]:
    """Whether each pipeline may claim bulk jobs (N58): with two or more, the first is the live lane, so
    a live job never waits for every pipeline to finish a batch of a recovery's jobs."""
    count = max(1, pipelines)
    return [count == 1 or index > 0 for index in range(count)]


def run(*, processes: int = 1, index: int = 0) -> None:
    """Entry point of ``hub deliver``."""
    if processes > 1:
        supervise(processes)
        return
    settings = get_settings()
    port = settings.deliver_metrics_port + index if settings.deliver_metrics_port else 0
    runtime = WorkerRuntime.start("deliver", log_level=settings.log_level, metrics_port=port,
                                  metrics_host=settings.deliver_metrics_host)
    count_from_zero()
    try:
        import uvloop
        uvloop.install()
    except ImportError:  # the standard loop works too, only slower
        pass
    asyncio.run(serve(runtime))


def _spawn(index: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "workers.cli", "deliver", "--index", str(index)], env=os.environ)


def supervise(processes: int) -> None:
    """Run ``processes`` workers; pass a stop signal on to them; restart one that dies."""
    runtime = WorkerRuntime("deliver-supervisor")
    runtime.install_signal_handlers()
    children = {index: _spawn(index) for index in range(processes)}
    while not runtime.stop_event.wait(0.5):
        for index, child in list(children.items()):
            if child.poll() is not None and not runtime.stop_event.is_set():
                print(f"hub deliver: worker {index} exited ({child.returncode}); restarting", file=sys.stderr)
                time.sleep(1.0)
                children[index] = _spawn(index)
    for child in children.values():
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)  # each worker finishes and records its batch
    for child in children.values():
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
