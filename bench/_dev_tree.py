"""``hub dev`` as the benches' hub: the tree exactly as ``make dev`` runs it, on a scratch database (issue 53).

Not a bench of its own (``make bench`` skips ``bench/_*.py``). Every child of ``hub dev`` runs with its
default settings; only what keeps the run apart from anything else on the machine is set: the database,
the topic prefix, the consumer groups, and free ports for the API and gRPC.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Self

import grpc
import httpx

from devkit.pg import free_port
from devkit.processes import stop

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("api", "grpc", "dlq-observer", "sweep", "consumer-relay", "ingest", "deliver")


def child_name(pid: int) -> str | None:
    """The ``hub`` command PID runs (``api``, ``ingest``...), from its command line; None when gone."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return None
    return next((arg for arg in argv if arg in COMMANDS), None)


def children_of(parent: int) -> list[int]:
    """The live direct children of PARENT."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(stat[1]) == parent:
            found.append(int(entry))
    return found


class DevTree:
    """``hub dev`` (every child, default settings) on DATABASE_URL and topic PREFIX, on free ports."""

    def __init__(self, database_url: str, prefix: str, *, settings: dict[str, str] | None = None) -> None:
        api_port, grpc_port = free_port(), free_port()
        self.rest, self.grpc = f"http://127.0.0.1:{api_port}", f"127.0.0.1:{grpc_port}"
        # Not even the log level is set: `make dev` logs at its default (INFO), and so does this tree.
        env = {name: value for name, value in os.environ.items() if name != "HUB_LOG_LEVEL"}
        self.env = {**env, "HUB_DATABASE_URL": database_url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
                    "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
                    "HUB_KAFKA_DLQ_GROUP": f"dlq-{prefix}", "HUB_API_HOST": "127.0.0.1",
                    "HUB_API_PORT": str(api_port), "HUB_GRPC_HOST": "127.0.0.1", "HUB_GRPC_PORT": str(grpc_port),
                    **(settings or {})}
        self.process: subprocess.Popen | None = None
        # Held for the tree's life, shown when it fails to come up; closed in __exit__.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115

    def __enter__(self) -> Self:
        self.process = subprocess.Popen([sys.executable, "-m", "workers.cli", "dev"], env=self.env, cwd=ROOT,
                                        stdout=subprocess.DEVNULL, stderr=self._log)
        try:
            self._wait_up()
        except BaseException:
            self._log.seek(0)
            sys.stderr.write(self._log.read().decode(errors="replace")[-4000:])
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.process is not None:
            stop(self.process, timeout=30)  # hub dev stops its children on SIGTERM
        for line in self.restarts():
            print(f"  {line}", file=sys.stderr)
        self._log.close()

    def restarts(self) -> list[str]:
        """The supervisor's lines about children that exited (a restart is a stall of its own)."""
        self._log.seek(0)
        lines = self._log.read().decode(errors="replace").splitlines()
        self._log.seek(0, os.SEEK_END)
        return [line for line in lines if line.startswith("hub dev:")]

    def _wait_up(self) -> None:
        deadline = time.monotonic() + 240  # a loaded machine imports slowly
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError("hub dev exited")
            try:
                if httpx.get(f"{self.rest}/healthz", timeout=1).status_code == 200:
                    with grpc.insecure_channel(self.grpc) as channel:
                        grpc.channel_ready_future(channel).result(timeout=2)
                    if len(self.pids()) >= len(COMMANDS):
                        return
            except (httpx.HTTPError, grpc.FutureTimeoutError):
                pass
            time.sleep(0.3)
        raise RuntimeError("hub dev did not come up")

    def pids(self) -> dict[str, int]:
        """The tree's children by command (``ingest`` and ``deliver`` numbered when there are several)."""
        assert self.process is not None
        named: dict[str, int] = {}
        for pid in sorted(children_of(self.process.pid)):
            name = child_name(pid)
            if name is not None:
                key = name if name not in named else f"{name}-{pid}"
                named[key] = pid
        return named
