"""A throwaway PostgreSQL cluster for tests that stop and start the database."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from devkit.poll import wait_until

PG_BIN_CANDIDATES = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pg_bin(name: str) -> str:
    for directory in PG_BIN_CANDIDATES:
        if (directory / name).exists():
            return str(directory / name)
    found = shutil.which(name)
    if not found:
        raise RuntimeError(f"{name} is not installed; run `make stack` first")
    return found


def _as_postgres(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


@dataclass
class ScratchPostgres:
    """A private cluster in a temporary folder, trust-authenticated on loopback."""

    root: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    @property
    def data(self) -> Path:
        return self.root / "data"

    @classmethod
    def create(cls) -> "ScratchPostgres":
        root = Path(tempfile.mkdtemp(prefix="hub-scratch-pg-"))
        os.chmod(root, 0o777)
        cluster = cls(root=root, port=free_port())
        subprocess.run(_as_postgres([_pg_bin("initdb"), "-D", str(cluster.data), "-U", "postgres",
                                     "--auth=trust", "-E", "UTF8"]), check=True, capture_output=True)
        return cluster

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(_as_postgres([_pg_bin("pg_ctl"), "-D", str(self.data), "-o", options,
                                     "-l", str(self.root / "log"), "-w", "start"]), check=True,
                       capture_output=True)
        wait_until(self._accepts, 20, 0.1, "scratch PostgreSQL to accept connections")

    def _accepts(self) -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", self.port)) == 0

    def stop(self, mode: str = "immediate") -> None:
        """``pg_ctl stop -m <mode>``: ``immediate`` (a crash), ``fast`` (sessions ended, a clean checkpoint)."""
        subprocess.run(_as_postgres([_pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"]),
                       check=False, capture_output=True)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
