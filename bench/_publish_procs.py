"""What bench/publish.py stands on: the hub's processes it publishes through, and the CPU they spend.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Self

import grpc
import httpx

from devkit.pg import free_port
from devkit.processes import stop

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of user + system) of PID, from /proc; None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of ROOT and its live descendants (``hub api --workers N`` forks its workers)."""
    stats = {int(entry): _stat(int(entry)) for entry in os.listdir("/proc") if entry.isdigit()}
    children: dict[int, list[int]] = {}
    for pid, stat in stats.items():
        if stat is not None:
            children.setdefault(stat[0], []).append(pid)
    total, pending = 0.0, [root]
    while pending:
        pid = pending.pop()
        stat = stats.get(pid)
        total += stat[1] if stat else 0.0
        pending += children.get(pid, [])
    return total


class HubProcesses:
    """``hub api``, ``hub grpc``, INGEST_WORKERS ``hub ingest`` (two unless told) and the EXTRA commands on
    DATABASE_URL and topic PREFIX, on free ports, with SETTINGS added to their environment."""

    def __init__(self, database_url: str, prefix: str, *, extra: tuple[str, ...] = (),
                 settings: dict[str, str] | None = None, ingest_workers: int = 2) -> None:
        api_port, grpc_port = free_port(), free_port()
        self.rest, self.grpc = f"http://127.0.0.1:{api_port}", f"127.0.0.1:{grpc_port}"
        self.env = {**os.environ, "HUB_DATABASE_URL": database_url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
                    "HUB_LOG_LEVEL": "WARNING", "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
                    "HUB_API_PORT": str(api_port), "HUB_GRPC_PORT": str(grpc_port), **(settings or {})}
        self.commands = {"api": "api", "grpc": "grpc",
                         **{f"ingest-{n}": "ingest" for n in range(1, ingest_workers + 1)},
                         **{command: command for command in extra}}
        self.children: dict[str, subprocess.Popen] = {}

    def __enter__(self) -> Self:
        for name, command in self.commands.items():
            self.children[name] = subprocess.Popen([sys.executable, "-m", "workers.cli", command], env=self.env,
                                                   cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._wait_up()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        for child in self.children.values():
            stop(child)

    def _wait_up(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.rest}/healthz", timeout=1).status_code == 200:
                    with grpc.insecure_channel(self.grpc) as channel:
                        grpc.channel_ready_future(channel).result(timeout=2)
                    return
            except (httpx.HTTPError, grpc.FutureTimeoutError):
                pass
            time.sleep(0.3)
        raise RuntimeError("hub api / hub grpc did not come up")

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds spent so far by api (with its workers), grpc and the ingest workers together."""
        spent = {name: tree_cpu_seconds(child.pid) for name, child in self.children.items()}
        return {"api": spent["api"], "grpc": spent["grpc"],
                "ingest": sum(seconds for name, seconds in spent.items() if name.startswith("ingest-"))}

    def pids(self) -> dict[str, int]:
        """The children's pids (for py-spy)."""
        return {name: child.pid for name, child in self.children.items()}
