"""One event's trace from its producer to the receiver's request, through real processes (N59).

The test is the producer: it calls ``POST /api/v1beta/events`` with a ``traceparent`` header. ``hub api``
records a request span under it, the event carries that span's context as its ``traceparent``
extension, ``hub ingest`` links its batch span to it, and ``hub deliver`` continues the trace with an
attempt span whose context reaches the webhook receiver as its ``traceparent`` header. The spans go over
OTLP/HTTP to a receiver written in the test.

The first test switches tracing on by the hub's alias ``HUB_OTLP_ENDPOINT``; the second as a collector's
chart would, with only the standard ``OTEL_EXPORTER_OTLP_ENDPOINT`` and a ratio sampler (N71).
"""

from __future__ import annotations

import json
import secrets
import time
import uuid

import httpx
from opentelemetry.sdk.trace.sampling import TraceIdRatioBased

from devkit.dnsserver import DnsServer
from devkit.live import live_api
from devkit.otlp import OtlpReceiver, otlp_receiver
from devkit.processes import hub_process
from devkit.receiver import https_receiver
from tests.deliver.conftest import insert_subscription, sql
from tests.publisher.conftest import publisher_token
from tests.sinks.conftest import HOOK_HOST

EVENT_TYPE = "trace.checked"
RATIO = 0.5


def wait_for(check, timeout: float = 60.0):  # noqa: ANN001, ANN201
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)
    return found


def spans_of(collector: OtlpReceiver, trace_id: str, prefix: str) -> list:
    return [span for span in collector.named(prefix) if span.trace_id == trace_id]


def pipeline_env(scratch_url: str, hook_dns: DnsServer, ca_bundle) -> dict[str, str]:  # noqa: ANN001
    """The settings of one api, ingest and deliver on the scratch database and a topic prefix of their own."""
    prefix = f"t{uuid.uuid4().hex[:10]}."
    return {"HUB_DATABASE_URL": scratch_url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
            "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}", "HUB_DNS_NAMESERVERS": hook_dns.address,
            "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle),
            "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05", "HUB_LOG_LEVEL": "WARNING"}


def subscribe(db: str, tenant: str, endpoint: str, event_type: str) -> None:
    subscription, _ = insert_subscription(db, tenant, endpoint)
    sql(db, "UPDATE subscriptions SET event_types = %s WHERE id = %s", (json.dumps([event_type]), subscription))
    sql(db, "UPDATE subscription_versions SET version = version + 1 WHERE id = 1")


def publish(base: str, tenant: str, event_type: str, n: int, traceparent: str | None = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {publisher_token(tenant)}"}
    if traceparent:
        headers["traceparent"] = traceparent
    answer = httpx.post(f"{base}/api/v1beta/events", timeout=30, headers=headers, json={"event": {
        "event_type": event_type, "message": {"n": n}, "occurred_at": "2026-12-05T10:00:00Z"}})
    assert answer.status_code == 200 and answer.json()["result"]["success"] is True, answer.text
    return answer


def sampled_flag(traceparent: str) -> bool:
    """The ``sampled`` bit of a traceparent's flags (other bits, like Trace Context 2's ``random``, may be set)."""
    return bool(int(traceparent.rsplit("-", 1)[1], 16) & 1)


def kept_by_ratio(trace_id: str) -> bool:
    """The SDK's ratio sampler's decision on a root span of TRACE_ID (its low 64 bits under the bound)."""
    return int(trace_id, 16) & TraceIdRatioBased.TRACE_ID_LIMIT < TraceIdRatioBased.get_bound_for_rate(RATIO)


def test_one_trace_runs_from_the_producer_to_the_receiver(deliver_db: str, scratch_url: str, ca, ca_bundle,  # noqa: ANN001
                                                          hook_dns: DnsServer, tenant: str) -> None:
    trace_id, producer_span = secrets.token_hex(16), secrets.token_hex(8)
    with otlp_receiver() as collector, https_receiver(ca, (HOOK_HOST,)) as receiver:
        env = {**pipeline_env(scratch_url, hook_dns, ca_bundle),
               # The hub's default sampler would keep 1 ingest batch in 10: this test follows every span.
               "HUB_OTLP_ENDPOINT": f"http://127.0.0.1:{collector.port}", "OTEL_BSP_SCHEDULE_DELAY": "200",
               "OTEL_TRACES_SAMPLER": "always_on"}
        subscribe(deliver_db, tenant, f"https://{HOOK_HOST}:{receiver.port}/traced", EVENT_TYPE)
        with live_api(env) as base, hub_process("ingest", env), hub_process("deliver", env):
            answer = publish(base, tenant, EVENT_TYPE, 1, f"00-{trace_id}-{producer_span}-01")
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


def test_the_standard_variables_alone_export_sampled_traces(deliver_db: str, scratch_url: str, ca,  # noqa: ANN001
                                                           ca_bundle, hook_dns: DnsServer, tenant: str) -> None:
    """Only OTEL_EXPORTER_OTLP_ENDPOINT and a parent-based ratio sampler: each process exports under its own
    name; a root trace is kept as the ratio decides, a producer's decision is followed either way."""
    event_type = "trace.sampled"
    forced_in = (f"{secrets.token_hex(8)}{'f' * 16}", "01")  # the ratio would drop it; its parent keeps it
    forced_out = (f"{secrets.token_hex(8)}{'0' * 16}", "00")  # the ratio would keep it; its parent drops it
    with otlp_receiver() as collector, https_receiver(ca, (HOOK_HOST,)) as receiver:
        env = {**pipeline_env(scratch_url, hook_dns, ca_bundle),
               "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{collector.port}",
               "OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": str(RATIO)}
        subscribe(deliver_db, tenant, f"https://{HOOK_HOST}:{receiver.port}/sampled", event_type)
        with live_api(env) as base, hub_process("ingest", env), hub_process("deliver", env):
            roots, sent = [], {}
            for n, parent in enumerate([None] * 16 + [forced_in, forced_out]):
                traceparent = f"00-{parent[0]}-{secrets.token_hex(8)}-{parent[1]}" if parent else None
                answer = publish(base, tenant, event_type, n, traceparent)
                roots += [] if parent else [answer.headers["x-trace-id"]]
                # One event at a time, so that ingest stores it in a batch (a root span) of its own.
                request = wait_for(lambda n=n: [r for r in receiver.received if r.path == "/sampled"][n:], 30)[0]
                sent[answer.headers["x-trace-id"]] = sampled_flag(request.headers["traceparent"])
            kept = {trace for trace in roots if kept_by_ratio(trace)} | {forced_in[0]}
            for prefix in ("deliver ", "POST "):  # each process exports on its own schedule (5 s by default)
                wait_for(lambda prefix=prefix: kept <= {span.trace_id for span in collector.named(prefix)}, 30)
            wait_for(lambda: kept <= linked_from(collector.named("ingest batch")), 30)
            time.sleep(1)  # what else the processes exported meanwhile
    ours = set(sent)
    assert 0 < len(kept & set(roots)) < len(roots)  # the ratio kept some roots and dropped others
    assert {trace for trace, flag in sent.items() if flag} == kept  # the receivers' sampled flags
    for prefix, service in (("POST ", "api"), ("deliver ", "deliver")):
        spans = [span for span in collector.named(prefix) if span.trace_id in ours]
        assert {span.trace_id for span in spans} == kept, prefix
        assert {span.service for span in spans} == {f"streaming-hub-{service}"}
    batches = collector.named("ingest batch")
    assert batches and {span.service for span in batches} == {"streaming-hub-ingest"}
    # Roots of their own: kept by the ratio, or because they link a context the producer sampled (N92).
    assert all(kept_by_ratio(span.trace_id) or {link[0] for link in span.links} & kept for span in batches)
    assert kept <= linked_from(batches)  # every sampled trace keeps its ingest stage


def linked_from(spans: list) -> set[str]:
    """The trace ids the SPANS link to."""
    return {link[0] for span in spans for link in span.links}


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
