"""The hub under test: private PostgreSQL and Kafka (restartable without touching the shared stack)
and several ``hub api`` / ``hub ingest`` / ``hub deliver`` processes, each killable with kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import httpx

from devkit.kafka import ScratchKafka
from devkit.pg import ScratchPostgres, free_port
from devkit.processes import stop
from devkit.scratchdb import migrated_scratch_cluster

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class HubProcess:
    """One ``hub <command>`` child, its stderr in LOG; ``port`` is the API's port (0 for workers)."""

    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    port: int = 0
    process: subprocess.Popen | None = None
    unplanned_exits: int = 0

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "workers.cli", *self.command], cwd=ROOT,
                                            env=self.env, stdout=subprocess.DEVNULL, stderr=log)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill9(self) -> None:
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            assert self.process is not None
            stop(self.process)  # SIGTERM, then SIGKILL after 20 s


@dataclass
class Cluster:
    """The private services and the hub processes, by kind (``api``, ``ingest``, ``deliver``)."""

    postgres: ScratchPostgres
    kafka: ScratchKafka
    env: dict[str, str]
    logs: Path
    processes: dict[str, list[HubProcess]] = field(default_factory=dict)

    def add(self, kind: str, port: int = 0) -> HubProcess:
        """Start one more process of KIND (an API or the gRPC server on PORT)."""
        number = len(self.processes.setdefault(kind, [])) + 1
        command = {"api": ["api", "--port", str(port)], "ingest": ["ingest"], "grpc": ["grpc"],
                   "deliver": ["deliver", "--index", str(number - 1)], "relay": ["consumer-relay"]}[kind]
        env = {**self.env, "HUB_GRPC_PORT": str(port)} if kind == "grpc" else self.env
        child = HubProcess(f"{kind}-{number}", command, env, self.logs / f"{kind}-{number}.log", port)
        child.start()
        self.processes[kind].append(child)
        return child

    def api_ports(self) -> list[int]:
        return [child.port for child in self.processes.get("api", [])]

    def grpc_address(self) -> str:
        return f"127.0.0.1:{self.processes['grpc'][0].port}"

    def revive(self) -> list[str]:
        """Restart any process that died on its own (an orchestrator would); returns their names."""
        revived = []
        for children in self.processes.values():
            for child in children:
                if child.process is not None and not child.alive():
                    child.unplanned_exits += 1
                    revived.append(child.name)
                    child.start()
        return revived

    def restart_postgres(self, down_seconds: float) -> None:
        """An immediate stop (a crash for the clients), DOWN_SECONDS, then a start."""
        self.postgres.stop("immediate")
        time.sleep(down_seconds)
        self.postgres.start()

    def restart_kafka(self, down_seconds: float) -> None:
        """SIGKILL the broker, DOWN_SECONDS, then start it on the same ports and data."""
        self.kafka.stop(kill=True)
        time.sleep(down_seconds)
        self.kafka.start()

    def stop_kind(self, kind: str) -> None:
        """Stop every process of KIND (SIGTERM: a worker finishes and records what it holds)."""
        for child in self.processes.get(kind, []):
            child.stop()

    def stop_all(self) -> None:
        for children in self.processes.values():
            for child in children:
                child.process = child.process if child.alive() else None
                child.stop()


def hub_env(postgres_url: str, kafka: ScratchKafka, tag: str, extra: dict[str, str]) -> dict[str, str]:
    """The environment every hub process of the run shares (the runner uses it too)."""
    return {**os.environ, "HUB_DATABASE_URL": postgres_url, "HUB_KAFKA_BOOTSTRAP": kafka.bootstrap,
            "HUB_KAFKA_TOPIC_PREFIX": f"chaos{tag}.", "HUB_KAFKA_CONSUMER_GROUP": f"chaos-{tag}",
            "HUB_KAFKA_DLQ_GROUP": f"chaos-{tag}-dlq", "HUB_INGEST_METRICS_PORT": "0",
            "HUB_DELIVER_METRICS_PORT": "0", "HUB_LOG_LEVEL": "WARNING", **extra}


@contextmanager
def private_services() -> Iterator[tuple[ScratchPostgres, ScratchKafka]]:
    """A migrated scratch PostgreSQL and a scratch Kafka broker, destroyed on exit."""
    with ExitStack() as stack:
        postgres = stack.enter_context(migrated_scratch_cluster())
        kafka = ScratchKafka.create()
        stack.callback(kafka.destroy)
        kafka.start()
        yield postgres, kafka


def wait_for_apis(ports: list[int], timeout: float = 90.0) -> None:
    """Wait until every API answers ``/healthz``."""
    deadline = time.monotonic() + timeout
    pending = set(ports)
    while pending:
        for port in list(pending):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    pending.discard(port)
            except httpx.HTTPError:
                pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the APIs on {sorted(pending)} did not come up")
        time.sleep(0.3)


def api_port() -> int:
    return free_port()


def wait_for_grpc(address: str, timeout: float = 60.0) -> None:
    """Wait until the gRPC server at ADDRESS accepts a connection."""
    with grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=timeout)
