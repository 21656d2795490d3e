"""Real processes for tests: the API served by uvicorn on a free loopback port."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from devkit.pg import free_port
from devkit.poll import wait_until
from devkit.processes import start_hub, stop


@contextmanager
def live_api(env: dict[str, str] | None = None) -> Iterator[str]:
    """Start ``hub api`` in a child process and yield its base URL."""
    port = free_port()
    child_env = {**(env or {}), "HUB_API_PORT": str(port), "HUB_API_HOST": "127.0.0.1"}
    process = start_hub("api", child_env, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        def healthy() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"hub api exited: {process.stderr.read().decode()[-2000:]}")
            try:
                return httpx.get(f"{base}/healthz", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(healthy, 30, 0.2, "hub api to answer /healthz")
        yield base
    finally:
        stop(process, timeout=10)
