"""The issue's scenario with real processes: a webhook created in the console's form, an event sent
with `hub send`, the delivery in the log; the receiver fails, and the failures show in the log and
the health chart; recover, and the re-delivery shows.

`hub api`, `hub ingest` and `hub deliver` run on a scratch database and a topic prefix of their own,
delivering to a real HTTPS receiver named by a loopback DNS server."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hub.auth.tokens import mint_token
from hub.kafka import ensure_topics
from tests.conftest import ALL_PERMISSIONS
from tests.console.conftest import Console, console_on
from tests.sinks.conftest import HOOK_HOST, ca, ca_bundle, hook_dns  # noqa: F401 (fixtures)
from devkit.live import live_api
from devkit.processes import hub_process
from devkit.receiver import Received, Reply, https_receiver
from devkit.scratchdb import migrated_scratch_database

ROOT = Path(__file__).resolve().parents[2]
FAST = {"HUB_DELIVER_RETRY_LADDER_SECONDS": "0.3,0.3", "HUB_DELIVER_RETRY_JITTER": "0",
        "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05", "HUB_DELIVER_HOLD_RECHECK_SECONDS": "0.2", "HUB_LOG_LEVEL": "WARNING"}


@pytest.fixture
def stack(ca_bundle: Path, hook_dns) -> Iterator[dict[str, str]]:  # noqa: ANN001
    """The three processes; yields their environment plus the API's base URL."""
    prefix = f"k{uuid.uuid4().hex[:10]}."
    ensure_topics([f"{prefix}ledger", f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=1)
    with ExitStack() as stack:
        url = stack.enter_context(migrated_scratch_database())
        env = {"HUB_DATABASE_URL": url, "HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
               "HUB_DNS_NAMESERVERS": hook_dns.address, "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8",
               "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle), **FAST}
        stack.enter_context(hub_process("ingest", env))
        stack.enter_context(hub_process("deliver", env))
        yield {**env, "base": stack.enter_context(live_api(env))}


def hub_send(env: dict[str, str], tenant: str, n: int) -> None:
    result = subprocess.run([sys.executable, "-m", "workers.cli", "send", "--tenant", tenant, "--data", f'{{"n": {n}}}'],
                            env={**os.environ, **env}, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def rows(console: Console) -> int:
    return console.page.evaluate("document.querySelectorAll('#delivery-log tbody tr').length")


def wait_for_log(console: Console, condition: str, timeout: float = 60) -> None:
    """Reload the log until CONDITION (a JS expression over `log`, the log's text) holds."""
    deadline = datetime.now(UTC) + timedelta(seconds=timeout)
    while True:
        console.page.click("#reload-log")
        console.page.locator("#delivery-log table, #delivery-log .empty").first.wait_for()
        if console.page.evaluate(f"(log => {condition})(document.querySelector('#delivery-log').innerText)"):
            return
        assert datetime.now(UTC) < deadline, console.page.locator("#delivery-log").inner_text()
        console.page.wait_for_timeout(500)


def create_in_form(console: Console, endpoint: str) -> str:
    console.goto("#/subscriptions/new")
    console.page.fill("#create-name", "scenario")
    console.page.fill("#create-endpoint", endpoint)
    console.page.fill("#create-event_types", "transaction.posted")
    console.page.get_by_role("button", name="Create").click()
    console.page.locator("#signing-secret").wait_for()
    console.page.click("#open-created")
    console.page.locator("h1", has_text="scenario").wait_for()
    return console.page.url.rsplit("/", 1)[1]


def test_send_fail_and_recover_as_the_console_shows_it(browser, stack: dict[str, str], ca) -> None:  # noqa: ANN001
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    failing = {"on": False}

    def script(item: Received) -> Reply:
        return Reply(503) if failing["on"] else Reply(200)

    with https_receiver(ca, (HOOK_HOST,), script) as receiver, console_on(browser, stack["base"]) as console:
        console.expect_failed_loads(503)
        console.open(mint_token(tenant=tenant, permissions=ALL_PERMISSIONS))
        create_in_form(console, f"https://{HOOK_HOST}:{receiver.port}/hook")
        console.page.click("#verify")
        console.page.locator("#notice", has_text="Verified").wait_for()
        hub_send(stack, tenant, 1)
        wait_for_log(console, "log.includes('delivered')")
        console.shot("scenario-delivered")

        failing["on"] = True
        hub_send(stack, tenant, 2)
        wait_for_log(console, "log.includes('dead_lettered') || log.includes('retrying')")
        wait_for_log(console, "log.includes('dead_lettered')")
        assert console.page.locator("#health-chart rect.bar-bad").count() >= 1
        assert "dead_lettered" in console.page.locator("#health").inner_text()
        console.shot("scenario-failing")

        failing["on"] = False
        before = rows(console)
        console.page.fill("#recover-since", (datetime.now(UTC) - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"))
        console.page.click("#recover")
        console.page.click("#recover-confirm")
        console.page.locator("#recovery", has_text="completed").wait_for(timeout=60_000)
        wait_for_log(console, f"document.querySelectorAll('#delivery-log tbody tr').length > {before}")
        wait_for_log(console, "log.split('delivered').length - 1 >= 2")
        console.shot("scenario-recovered")
