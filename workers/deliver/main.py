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

from hub.buildinfo import build_identity
from hub.config import get_settings
from hub.logs import configure_logging
from hub.metrics import set_build_info
from workers.deliver.engine import Engine, pipeline
from workers.deliver.process import connect, install_stop_signals, report_backlog, serve_metrics

log = logging.getLogger("hub.deliver")


async def serve() -> None:
    """One worker: ``deliver_pipelines`` claim loops and the backlog reporter, until stopped."""
    settings = get_settings()
    stop = asyncio.Event()
    install_stop_signals(stop)
    engine = Engine(settings=settings)
    try:
        await asyncio.gather(report_backlog(stop),
                             *(pipeline(engine, connect, stop) for _ in range(max(1, settings.deliver_pipelines))))
    finally:
        await engine.close()


def run(*, processes: int = 1, index: int = 0) -> None:
    """Entry point of ``hub deliver``."""
    if processes > 1:
        supervise(processes)
        return
    settings = get_settings()
    configure_logging(settings.log_level)
    set_build_info(build_identity()["commit"])
    if settings.deliver_metrics_port:
        serve_metrics(settings.deliver_metrics_port + index, settings.deliver_metrics_host)
    try:
        import uvloop
        uvloop.install()
    except ImportError:  # the standard loop works too, only slower
        pass
    asyncio.run(serve())


def _spawn(index: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hub.cli", "deliver", "--index", str(index)], env=os.environ)


def supervise(processes: int) -> None:
    """Run ``processes`` workers; forward a stop signal to them; restart one that dies."""
    children = {index: _spawn(index) for index in range(processes)}
    stopping = {"flag": False}

    def stop(signum: int, _frame: object) -> None:
        stopping["flag"] = True
        for child in children.values():
            child.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping["flag"]:
        for index, child in list(children.items()):
            if child.poll() is not None and not stopping["flag"]:
                print(f"hub deliver: worker {index} exited ({child.returncode}); restarting", file=sys.stderr)
                time.sleep(1.0)
                children[index] = _spawn(index)
        time.sleep(0.5)
    for child in children.values():
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
