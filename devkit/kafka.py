"""A throwaway Kafka broker (KRaft, broker and controller in one JVM) for tests that restart it.

It runs from the broker jars the local stack resolved (``deploy/kafka/pom.xml``): the directory
named by the ``kafka_libs_dir`` setting (``HUB_KAFKA_LIBS_DIR``), else ``<repo>/.local/kafka/libs``.
Storage is formatted with ``kafka.tools.StorageTool format --standalone`` in a temporary folder,
the broker listens on free loopback ports, and :meth:`ScratchKafka.stop` can SIGKILL it.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from confluent_kafka.admin import AdminClient

from hub.config import REPO_ROOT, get_settings
from devkit.pg import free_port
from devkit.poll import wait_until

LOG4J = """status = warn
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = ${sys:kafka.logs.dir}/broker.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.file.ref = FILE
"""


def kafka_libs() -> Path:
    """Where the broker jars are; raises with a hint when they are not there."""
    configured = get_settings().kafka_libs_dir
    candidates = [Path(configured)] if configured else []
    candidates.append(REPO_ROOT / ".local" / "kafka" / "libs")
    for candidate in candidates:
        if any(candidate.glob("kafka_2.13-*.jar")):
            return candidate
    raise RuntimeError("no Kafka broker jars found: run `make stack` once, or set HUB_KAFKA_LIBS_DIR")


def _properties(root: Path, port: int, controller_port: int) -> str:
    return "\n".join([
        "process.roles=broker,controller", "node.id=1",
        f"controller.quorum.bootstrap.servers=127.0.0.1:{controller_port}",
        f"listeners=PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controller_port}",
        f"advertised.listeners=PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controller_port}",
        "inter.broker.listener.name=PLAINTEXT", "controller.listener.names=CONTROLLER",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        f"log.dirs={root / 'data'}", "auto.create.topics.enable=false", "num.partitions=6",
        "default.replication.factor=1", "min.insync.replicas=1", "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=3", "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1", "share.coordinator.state.topic.replication.factor=1",
        "share.coordinator.state.topic.min.isr=1", "group.initial.rebalance.delay.ms=0",
        "group.min.session.timeout.ms=3000", "",
    ])


@dataclass
class ScratchKafka:
    """A private single-node cluster in a temporary folder."""

    root: Path
    port: int
    controller_port: int
    libs: Path
    process: subprocess.Popen | None = field(default=None, repr=False)

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def _props(self) -> Path:
        return self.root / "server.properties"

    def _java(self, *args: str) -> list[str]:
        return ["java", "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true", f"-Dkafka.logs.dir={self.root}",
                f"-Dlog4j2.configurationFile={self.root / 'log4j2.properties'}",
                "-cp", f"{self.libs}/*", *args]

    @classmethod
    def create(cls) -> "ScratchKafka":
        """Write the configuration and format the storage (does not start the broker)."""
        root = Path(tempfile.mkdtemp(prefix="hub-scratch-kafka-"))
        broker = cls(root=root, port=free_port(), controller_port=free_port(), libs=kafka_libs())
        broker._props.write_text(_properties(root, broker.port, broker.controller_port))
        (root / "log4j2.properties").write_text(LOG4J)
        cluster_id = subprocess.run(broker._java("kafka.tools.StorageTool", "random-uuid"), check=True,
                                    capture_output=True, text=True, timeout=120).stdout.strip().splitlines()[-1]
        subprocess.run(broker._java("kafka.tools.StorageTool", "format", "--standalone", "-t", cluster_id,
                                    "-c", str(broker._props)), check=True, capture_output=True, timeout=120)
        return broker

    def start(self, timeout_seconds: float = 90.0) -> None:
        """Start the broker and wait until it answers a metadata request."""
        log = open(self.root / "kafka.out", "ab")
        self.process = subprocess.Popen(self._java("kafka.Kafka", str(self._props)), stdout=log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        wait_until(self._up, timeout_seconds, 0.5, "scratch Kafka to answer a metadata request")

    def _up(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"scratch Kafka exited ({self.process.returncode}); see {self.root}/kafka.out")
        return self._answers()

    def _answers(self) -> bool:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", self.port)) != 0:
                return False
        try:
            metadata = AdminClient({"bootstrap.servers": self.bootstrap, "socket.timeout.ms": 2000,
                                    "log_level": 0}).list_topics(timeout=3)
        except Exception:  # noqa: BLE001 (not up yet)
            return False
        return bool(metadata.brokers) and metadata.controller_id >= 0

    def stop(self, *, kill: bool = True, timeout_seconds: float = 30.0) -> None:
        """SIGKILL (default) or SIGTERM the broker and wait for it to exit."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout_seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self, *, kill: bool = True) -> None:
        self.stop(kill=kill)
        self.start()

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
