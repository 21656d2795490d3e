"""One event's trace from its producer to the receiver's request, through real processes (N59).

The test is the producer: it calls ``POST /api/v1beta/events`` with a ``traceparent`` header. ``hub api``
records a request span under it, the event carries that span's context as its ``traceparent``
extension, ``hub ingest`` links its batch span to it, and ``hub deliver`` continues the trace with an
attempt span whose context reaches the webhook receiver as its ``traceparent`` header. The spans go over
OTLP/HTTP to a receiver written in the test.
"""

from __future__ import annotations

import json
import secrets
import time
import uuid

import httpx

from tests.deliver.conftest import insert_subscription, sql
from devkit.dnsserver import DnsServer
from tests.publisher.conftest import publisher_token
from tests.sinks.conftest import HOOK_HOST
from devkit.live import live_api
from devkit.otlp import OtlpReceiver, otlp_receiver
from devkit.processes import hub_process
from devkit.receiver import https_receiver

EVENT_TYPE = "trace.checked"


def wait_for(check, timeout: float = 60.0):  # noqa: ANN001, ANN201
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)
    return found


def spans_of(collector: OtlpReceiver, trace_id: str, prefix: str) -> list:
    return [span for span in collector.named(prefix) if span.trace_id == trace_id]


def test_one_trace_runs_from_the_producer_to_the_receiver(deliver_db: str, scratch_url: str, ca, ca_bundle,  # noqa: ANN001
                                                          hook_dns: DnsServer, tenant: str) -> None:
    trace_id, producer_span = secrets.token_hex(16), secrets.token_hex(8)
    prefix = f"t{uuid.uuid4().hex[:10]}."
    with otlp_receiver() as collector, https_receiver(ca, (HOOK_HOST,)) as receiver:
        env = {"HUB_DATABASE_URL": scratch_url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
               "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}", "HUB_DNS_NAMESERVERS": hook_dns.address,
               "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle),
               "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05", "HUB_LOG_LEVEL": "WARNING",
               "HUB_OTLP_ENDPOINT": f"http://127.0.0.1:{collector.port}", "OTEL_BSP_SCHEDULE_DELAY": "200"}
        subscription, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{receiver.port}/traced")
        sql(deliver_db, "UPDATE subscriptions SET event_types = %s WHERE id = %s", (json.dumps([EVENT_TYPE]), subscription))
        sql(deliver_db, "UPDATE subscription_versions SET version = version + 1 WHERE id = 1")
        with live_api(env) as base, hub_process("ingest", env), hub_process("deliver", env):
            answer = httpx.post(f"{base}/api/v1beta/events", timeout=30, json={"event": {
                "event_type": EVENT_TYPE, "message": {"n": 1}, "occurred_at": "2026-12-05T10:00:00Z"}},
                headers={"authorization": f"Bearer {publisher_token(tenant)}",
                         "traceparent": f"00-{trace_id}-{producer_span}-01"})
            assert answer.status_code == 200 and answer.json()["result"]["success"] is True, answer.text
            received = wait_for(lambda: [r for r in receiver.received if r.path == "/traced"], timeout=90)
            sent_trace, sent_parent = received[0].headers["traceparent"].split("-")[1:3]
            assert sent_trace == trace_id
            deliver = wait_for(lambda: spans_of(collector, trace_id, "deliver "), timeout=30)
            api = wait_for(lambda: spans_of(collector, trace_id, "POST "), timeout=30)
            batches = wait_for(lambda: [s for s in collector.named("ingest batch")
                                        if any(link[0] == trace_id for link in s.links)], timeout=30)
    outer = [span for span in api if span.parent_span_id == producer_span]
    assert len(outer) == 1 and outer[0].service == "streaming-hub-api"  # the request span, under the producer's
    assert answer.headers["x-trace-id"] == trace_id
    api_spans = {span.span_id for span in collector.spans if span.trace_id == trace_id
                 and span.service == "streaming-hub-api"}
    (event_context,) = {link[1] for link in batches[0].links if link[0] == trace_id}
    assert event_context in api_spans and batches[0].service == "streaming-hub-ingest"  # linked to the producer
    assert deliver[0].parent_span_id == event_context and deliver[0].service == "streaming-hub-deliver"
    assert deliver[0].span_id == sent_parent  # the receiver's traceparent names the attempt's span


def test_without_tracing_the_receiver_gets_the_producers_context() -> None:
    from hub.sinks.base import PreparedDelivery
    from hub.providers.webhook.sink import try_headers

    producer = f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01"
    delivery = PreparedDelivery(delivery_id="d", job_id=None, tenant_id="t", subscription_id=uuid.uuid4(),
                                sink_kind="webhook", endpoint="https://x.example/", body=b"{}",
                                attributes={"traceparent": producer}, headers=(("traceparent", "forged"),))
    assert try_headers(delivery, 0).getall("traceparent") == [producer]  # a static header never overrides it
    untraced = PreparedDelivery(delivery_id="d", job_id=None, tenant_id="t", subscription_id=uuid.uuid4(),
                                sink_kind="webhook", endpoint="https://x.example/", body=b"{}", attributes={})
    assert "traceparent" not in try_headers(untraced, 0)
