"""``hub dev``: the API and the workers as child processes, restarted when they die."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

from hub.auth.tokens import mint_token
from hub.config import get_settings
from hub.kafka import ensure_topics
from hub.preflight import require_dependencies

DEFAULT_PERMISSIONS = (
    "subscriptions:get", "subscriptions:post", "subscriptions:delete", "subscriptions:patch",
    "catalog:get", "events:get", "dashboard:get",
)


@dataclass
class Child:
    name: str
    argv: list[str]
    process: subprocess.Popen | None = None
    restarts: int = 0
    started_at: float = field(default=0.0)

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv)
        self.started_at = time.monotonic()


def _children(hub: list[str], ingest_workers: int, deliver_workers: int = 1) -> list[Child]:
    """The child processes, each started as HUB (the argv of the ``hub`` command line) and a command."""
    children = [Child("api", [*hub, "api"]), Child("grpc", [*hub, "grpc"]),
                Child("dlq-observer", [*hub, "dlq-observer"]), Child("sweep", [*hub, "sweep", "--loop"]),
                Child("consumer-relay", [*hub, "consumer-relay"])]
    children += [Child(f"ingest-{n}", [*hub, "ingest"]) for n in range(1, ingest_workers + 1)]
    children += [Child(f"deliver-{n}", [*hub, "deliver", "--index", str(n - 1)])
                 for n in range(1, deliver_workers + 1)]
    return children


def _print_welcome() -> None:
    settings = get_settings()
    token = mint_token(tenant="dev-tenant", permissions=list(DEFAULT_PERMISSIONS), operator=True,
                       ttl_seconds=12 * 3600)
    base = f"http://{settings.api_host}:{settings.api_port}"
    print("streaming-hub dev tree is up", flush=True)
    print(f"dev token (tenant dev-tenant, 12 h):\n{token}", flush=True)
    print(f"try:\ncurl -s -H 'Authorization: Bearer {token}' {base}/v1/catalog", flush=True)
    print(f"gRPC (seed 000 services, health) on {settings.grpc_host}:{settings.grpc_port}", flush=True)


def _wait_for_api(timeout_seconds: float = 30.0) -> bool:
    import httpx

    settings = get_settings()
    deadline = time.monotonic() + timeout_seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{settings.api_host}:{settings.api_port}/healthz", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            time.sleep(0.3)
    return False


def _supervise(children: list[Child]) -> None:
    while True:
        for child in children:
            assert child.process is not None
            if child.process.poll() is None:
                continue
            # Back off a child that dies right after starting, so a bad config does not spin.
            quick_death = time.monotonic() - child.started_at < 5
            child.restarts += 1
            print(f"hub dev: {child.name} exited ({child.process.returncode}); restarting", file=sys.stderr)
            time.sleep(min(30, 2 ** min(child.restarts, 5)) if quick_death else 0.5)
            child.start()
        time.sleep(0.5)


def run_dev_tree(*, ingest_workers: int, deliver_workers: int = 1, hub_argv: list[str]) -> None:
    """Start the tree and supervise it; HUB_ARGV starts the ``hub`` command line that has every command."""
    require_dependencies()
    settings = get_settings()
    ensure_topics([settings.dlq_topic])
    children = _children(hub_argv, ingest_workers, deliver_workers)
    stopping = {"flag": False}

    def stop(*_: object) -> None:
        stopping["flag"] = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    for child in children:
        child.start()
    try:
        if _wait_for_api():
            _print_welcome()
        else:
            print("hub dev: the API did not come up within 30 s; see its log above", file=sys.stderr)
        _supervise(children)
    except KeyboardInterrupt:
        pass
    finally:
        for child in children:
            if child.process and child.process.poll() is None:
                child.process.terminate()
        for child in children:
            if child.process:
                try:
                    child.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.process.kill()
