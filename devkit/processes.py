"""Hub commands as real child processes, stopped politely and then firmly."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def start_hub(command: str, env: dict[str, str] | None = None, *, stderr: int = subprocess.DEVNULL) -> subprocess.Popen:
    """``hub <command>`` in a child process with ``env`` added to this process's environment."""
    return subprocess.Popen([sys.executable, "-m", "workers.cli", command], env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=stderr)


def stop(process: subprocess.Popen, timeout: float = 20.0) -> None:
    """SIGTERM, then SIGKILL when the child does not leave within ``timeout`` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()


@contextmanager
def hub_process(command: str, env: dict[str, str] | None = None, *,
                stderr: int = subprocess.DEVNULL) -> Iterator[subprocess.Popen]:
    process = start_hub(command, env, stderr=stderr)
    try:
        yield process
    finally:
        stop(process)
