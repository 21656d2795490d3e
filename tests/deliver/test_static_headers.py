"""Static headers per webhook subscription (N54), seen at a real HTTPS receiver through the real engine."""

from __future__ import annotations

import json

from standardwebhooks import Webhook

from hub.providers.webhook.headers import seal_headers
from hub.providers.registry import provider_for
from hub.providers.webhook.sink import CONTENT_TYPE, USER_AGENT
from tests.deliver.conftest import all_terminal, drive, hook_url, insert_events, insert_subscription, job_states, sql
from devkit.receiver import Receiver

HEADERS = [{"name": "X-Api-Key", "value": "k-secret-123", "secret": True},
           {"name": "X-Team", "value": "payments  core", "secret": False}]


def _store(url: str, sub_id, stored) -> None:  # noqa: ANN001
    sql(url, "UPDATE subscriptions SET custom_headers = %s WHERE id = %s", (json.dumps(stored), sub_id))


def test_static_headers_reach_the_receiver_and_secret_ones_are_sealed(deliver_db: str, scripted: Receiver,
                                                                     tenant: str) -> None:
    sub, (secret,) = insert_subscription(deliver_db, tenant, hook_url(scripted))
    stored = seal_headers(provider_for("webhook").check_headers(HEADERS), sub)
    _store(deliver_db, sub, stored)
    [(row,)] = sql(deliver_db, "SELECT custom_headers::text FROM subscriptions WHERE id = %s", (sub,))
    assert "k-secret-123" not in row and "payments" in row, "only the secret value is sealed"
    insert_events(deliver_db, tenant, [sub], 2)
    drive(all_terminal(deliver_db, tenant))
    assert job_states(deliver_db, tenant) == {"delivered": 2}
    for request in scripted.received:
        assert request.headers["x-api-key"] == "k-secret-123"
        assert request.headers["x-team"] == "payments  core"
        Webhook(f"whsec_{secret}").verify(request.body, request.headers)


def test_the_sink_never_lets_a_stored_header_override_the_hubs_own(deliver_db: str, scripted: Receiver,
                                                                    tenant: str) -> None:
    """Rows written around the API's checks still cannot replace the signature, content type, user agent
    or a webhook-* header: the sink drops such names (N54)."""
    sub, (secret,) = insert_subscription(deliver_db, tenant, hook_url(scripted))
    _store(deliver_db, sub, [
        {"name": name, "value": "forged", "secret": False}
        for name in ("Content-Type", "user-agent", "Webhook-Signature", "webhook-id", "webhook-timestamp", "Host")
    ] + [{"name": "X-Kept", "value": "yes", "secret": False}])
    insert_events(deliver_db, tenant, [sub], 1)
    drive(all_terminal(deliver_db, tenant))
    assert job_states(deliver_db, tenant) == {"delivered": 1}
    [request] = scripted.received
    assert request.headers["content-type"] == CONTENT_TYPE and request.headers["user-agent"] == USER_AGENT
    assert "forged" not in json.dumps(request.headers)
    assert request.headers["x-kept"] == "yes"
    Webhook(f"whsec_{secret}").verify(request.body, request.headers)


def test_a_header_that_cannot_be_opened_is_not_deliverable(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    """A secret header sealed for another row does not open: the job ends without a request."""
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    other, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    _store(deliver_db, sub, seal_headers(provider_for("webhook").check_headers(HEADERS[:1]), other))
    insert_events(deliver_db, tenant, [sub], 1)
    drive(all_terminal(deliver_db, tenant))
    assert scripted.received == []
    assert set(job_states(deliver_db, tenant)) <= {"dead_lettered", "failed"}
