"""Issue 41's AWS scenario with real processes (`hub api`, `hub ingest`, `hub deliver` on a scratch
database and topic prefix; SQS, STS and IAM on moto): an SQS subscription onboarded in the console by
delegated grant, then an event sent with `hub send` arrives in the customer's queue."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from hub.auth.tokens import mint_token
from hub.kafka import ensure_topics
from tests.conftest import ALL_PERMISSIONS
from tests.console.conftest import console_on
from tests.console.test_onboarding import _create_queue_subscription, _role_from
from tests.console.test_scenario import FAST, hub_send
from devkit.destinations import aws_destinations, receive_all  # noqa: F401 (fixture)
from devkit.live import live_api
from devkit.processes import hub_process
from devkit.scratchdb import migrated_scratch_database


@pytest.fixture
def aws_stack() -> Iterator[dict[str, str]]:
    prefix = f"s{uuid.uuid4().hex[:10]}."
    ensure_topics([f"{prefix}ledger", f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=1)
    with ExitStack() as stack:
        env = {"HUB_DATABASE_URL": stack.enter_context(migrated_scratch_database()), "HUB_KAFKA_TOPIC_PREFIX": prefix,
               "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}", "AWS_ACCESS_KEY_ID": "testing",
               "AWS_SECRET_ACCESS_KEY": "testing", **FAST}
        stack.enter_context(hub_process("ingest", env))
        stack.enter_context(hub_process("deliver", env))
        yield {**env, "base": stack.enter_context(live_api(env))}


def test_an_sqs_subscription_onboarded_in_the_console_receives_its_first_event(browser, aws_stack, aws_destinations,  # noqa: ANN001
                                                                               tenant: str) -> None:
    queue_url = aws_destinations.queue()
    with console_on(browser, aws_stack["base"]) as console:
        console.open(mint_token(tenant=tenant, permissions=ALL_PERMISSIONS))
        _create_queue_subscription(console, "sqs", "first event", queue_url)
        page = console.page
        page.locator("#trust-policy").wait_for()
        page.fill("#grant-roleArn", _role_from(page.locator("#trust-policy").inner_text(), queue_url.rsplit("/", 1)[1]))
        page.fill("#grant-destination", queue_url)
        page.get_by_role("button", name="Register the grant").click()
        page.locator("#grant-registered").wait_for()
        page.click("#connect-verify")
        page.locator("#connect-state", has_text="active").wait_for()
    hub_send(aws_stack, tenant, 41)
    [message] = receive_all(queue_url, 1, rounds=60)
    body = json.loads(message["Body"])
    assert body["tenantid"] == tenant and body["data"] == {"n": 41}
