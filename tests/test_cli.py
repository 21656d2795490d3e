"""The ``hub`` console script composes the hub's commands and the worker commands, without a back-arrow."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from hub.cli import app as hub_commands
from workers.cli import app

ROOT = Path(__file__).resolve().parents[1]
HUB_COMMANDS = {"api", "grpc", "sweep", "send", "listen", "migrate", "token", "openapi", "rekey"}
WORKER_COMMANDS = {"ingest", "deliver", "dlq-observer", "consumer-relay", "dev"}


def _names(typer_app) -> set[str]:
    return {command.name or command.callback.__name__ for command in typer_app.registered_commands}


def test_the_console_script_is_the_composing_command_line() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"hub": "workers.cli:app"}
    assert _names(app) == HUB_COMMANDS | WORKER_COMMANDS
    assert _names(hub_commands) == HUB_COMMANDS


def test_every_command_answers_its_help_as_a_child_process() -> None:
    for command in sorted(HUB_COMMANDS | WORKER_COMMANDS):
        result = subprocess.run([sys.executable, "-m", "workers.cli", command, "--help"], capture_output=True,
                                text=True, timeout=60, cwd=ROOT)
        assert result.returncode == 0, (command, result.stderr)
        assert "Usage:" in result.stdout


def test_token_prints_the_token_alone_on_stdout_and_a_console_link_on_stderr() -> None:
    result = subprocess.run([sys.executable, "-m", "workers.cli", "token", "--tenant", "acme"], capture_output=True,
                            text=True, timeout=60, cwd=ROOT, env={**os.environ, "HUB_API_HOST": "127.0.0.1", "HUB_API_PORT": "8123"})
    assert result.returncode == 0, result.stderr
    token = result.stdout.strip()
    assert token.count(".") == 2 and "\n" not in token
    assert f"console: http://127.0.0.1:8123/console/#token={token}" in result.stderr


def _spawned_workers(pid: int) -> list[int]:
    """Children of PID that multiprocessing spawned (uvicorn's worker processes)."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            parent = int(Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()[1])
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if parent == pid and b"spawn_main" in command:
            found.append(int(entry))
    return found


def test_api_serves_with_the_configured_worker_processes() -> None:
    """N61: HUB_API_WORKERS is how many uvicorn workers `hub api` serves its one port with."""
    import httpx

    from devkit.pg import free_port
    from devkit.poll import wait_until
    from devkit.processes import start_hub, stop

    port = free_port()
    process = start_hub("api", {"HUB_API_WORKERS": "2", "HUB_API_HOST": "127.0.0.1", "HUB_API_PORT": str(port)})
    try:
        def healthy() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(healthy, 60, 0.3, "hub api to answer /healthz")
        workers = wait_until(lambda: len(found := _spawned_workers(process.pid)) == 2 and found, 30, 0.3,
                             "two uvicorn workers")
    finally:
        stop(process, timeout=20)
    wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), 20, 0.3,
               "the workers to leave with it")


def test_dev_runs_one_ingest_process_and_one_deliver_process_by_default() -> None:
    """N85: `hub dev` starts one ingest worker unless told otherwise (a second one only held the lifecycle topic)."""
    from hub.devtools.tree import _children
    from workers.cli import dev

    defaults = {name: param.default for name, param in inspect.signature(dev).parameters.items()}
    assert defaults == {"ingest_workers": 1, "deliver_workers": 1}
    names = [child.name for child in _children(["hub"], defaults["ingest_workers"], defaults["deliver_workers"])]
    assert [name for name in names if name.startswith(("ingest", "deliver"))] == ["ingest-1", "deliver-1"]
