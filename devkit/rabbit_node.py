"""A private RabbitMQ node for a test that restarts its broker (the shared one must stay up).

Started like deploy/local/stack.sh starts the stack's node (same environment variables), on free
loopback ports, with its data in a temporary folder. Only the Erlang port mapper is shared: a node
name registered there is harmless. ``guest``/``guest`` may log in from loopback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from devkit.destinations import free_port

SBIN_CANDIDATES = ("/usr/lib/rabbitmq/bin",)
START_TIMEOUT_SECONDS = 90


def rabbitmq_sbin() -> Path | None:
    for candidate in SBIN_CANDIDATES:
        if (Path(candidate) / "rabbitmq-server").exists():
            return Path(candidate)
    found = shutil.which("rabbitmq-server")
    return Path(found).parent if found else None


@dataclass
class RabbitNode:
    sbin: Path
    env: dict[str, str]
    node: str
    port: int

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}/%2F"

    def ctl(self, *args: str, timeout: float = 60) -> None:
        subprocess.run([str(self.sbin / "rabbitmqctl"), "-n", self.node, "-q", *args], env=self.env, check=True,
                       capture_output=True, timeout=timeout)

    def stop_app(self) -> None:
        """The broker goes away for clients (every connection is closed), the node keeps running."""
        self.ctl("stop_app")

    def start_app(self) -> None:
        self.ctl("start_app")
        self.ctl("await_startup", "--timeout", "60", timeout=70)


def _environment(folder: Path, node: str, port: int) -> dict[str, str]:
    for name in ("home", "mnesia", "log"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    (folder / "home").chmod(0o700)
    (folder / "rabbitmq.conf").write_text("log.console = false\ndisk_free_limit.absolute = 50MB\n")
    (folder / "enabled_plugins").write_text("[].\n")
    (folder / "advanced.config").write_text("[].\n")
    (folder / "rabbitmq-env.conf").write_text("# the test sets the environment\n")
    ctl_min = free_port()
    return {
        **{key: value for key, value in os.environ.items() if key in ("PATH", "LANG", "LC_ALL")},
        "HOME": str(folder / "home"), "RABBITMQ_NODENAME": node, "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
        "RABBITMQ_NODE_PORT": str(port), "RABBITMQ_DIST_PORT": str(free_port()),
        "RABBITMQ_CTL_DIST_PORT_MIN": str(ctl_min), "RABBITMQ_CTL_DIST_PORT_MAX": str(ctl_min + 10),
        "ERL_EPMD_PORT": os.environ.get("HUB_EPMD_PORT", "54369"), "ERL_EPMD_ADDRESS": "127.0.0.1",
        "RABBITMQ_MNESIA_BASE": str(folder / "mnesia"), "RABBITMQ_LOG_BASE": str(folder / "log"),
        "RABBITMQ_CONFIG_FILE": str(folder / "rabbitmq.conf"),
        "RABBITMQ_ADVANCED_CONFIG_FILE": str(folder / "advanced.config"),
        "RABBITMQ_ENABLED_PLUGINS_FILE": str(folder / "enabled_plugins"),
        "RABBITMQ_CONF_ENV_FILE": str(folder / "rabbitmq-env.conf"),
        "RABBITMQ_PID_FILE": str(folder / "node.pid"),
        "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": "-kernel inet_dist_use_interface {127,0,0,1}",
        "ERL_CRASH_DUMP": str(folder / "log" / "erl_crash.dump"),
    }


@contextmanager
def private_rabbit(folder: Path) -> Iterator[RabbitNode]:
    """Start a node, wait until it serves, and stop it (and only it) afterwards."""
    sbin = rabbitmq_sbin()
    if sbin is None:
        raise RuntimeError("rabbitmq-server is not installed (deploy/local/stack.sh installs it)")
    node_name = f"hubtest-{uuid.uuid4().hex[:8]}@localhost"
    port = free_port()
    env = _environment(folder, node_name, port)
    log = (folder / "log" / "startup.log").open("ab")
    process = subprocess.Popen([str(sbin / "rabbitmq-server")], env=env, cwd=folder, stdout=log, stderr=log,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    node = RabbitNode(sbin=sbin, env=env, node=node_name, port=port)
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not (folder / "node.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        node.ctl("wait", str(folder / "node.pid"), "--timeout", str(START_TIMEOUT_SECONDS),
                 timeout=START_TIMEOUT_SECONDS + 10)
        yield node
    finally:
        try:
            node.ctl("shutdown", timeout=60)
        except (subprocess.SubprocessError, OSError):
            pass
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)  # the process group this test started
            process.wait(timeout=10)
        log.close()
