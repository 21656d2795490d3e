"""Issue 41's seed 000 scenario with real processes (`hub api`, `hub grpc`, `hub ingest`,
`hub consumer-relay`): a durable queue created in the console, fed by the publisher, its event
dead-lettered by a gRPC consumer's nacks, replayed from the console's triage page, and then received by
the gRPC consumer."""

from __future__ import annotations

from typing import Any

from hub.auth.tokens import mint_token
from hub.consumer.access import TRIAGE, consumer_claims
from tests.conftest import ALL_PERMISSIONS
from tests.console.conftest import console_on
from tests.consumer.conftest import ConsumerHub, consumer_hub, consumer_token, stub, unique  # noqa: F401 (fixtures)
from tests.consumer.streams import events_of
from tests.consumer.test_durable_grpc import with_acks
from tests.consumer.test_triage import exhaust


def test_a_console_queue_is_fed_dead_lettered_replayed_and_received(browser, consumer_hub: ConsumerHub,  # noqa: ANN001
                                                                    stub: Any, tenant: str) -> None:
    token = mint_token(tenant=tenant, permissions=[*consumer_claims(ALL_PERMISSIONS, None)[0], TRIAGE])
    kind, queue_id = unique("myapp.order.placed"), unique("scenario")
    with console_on(browser, consumer_hub.rest) as console:
        console.open(token, "#/queues")
        page = console.page
        page.fill("#queue-id", queue_id)
        page.fill("#queue-groups", f'[{{"event_type": "{kind}"}}]')
        page.get_by_role("button", name="Create the queue").click()
        page.locator("h1", has_text=queue_id).wait_for()

        consumer_hub.publish(tenant, kind, {"order": 7})
        assert exhaust(stub, consumer_token(tenant), queue_id).message["order"] == 7

        console.goto("#/ops/dead-letters")
        row = page.locator("tr", has_text=queue_id)
        row.wait_for()
        assert "DELIVERY_LIMIT" in row.inner_text() and kind in row.inner_text()
        row.locator("input[name=pick]").check()
        page.click("#triage-replay")
        page.click("#triage-replay-confirm")
        row.locator(".outcome", has_text="REPLAYED").wait_for()

    _, reader = with_acks(stub, consumer_token(tenant), queue_id)
    (_, event), = events_of(reader, 1)
    assert event.event_type == kind and event.message["order"] == 7
    reader.close()
