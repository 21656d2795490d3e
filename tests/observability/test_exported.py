"""Every metric the alerting rules and the dashboard read is one the hub exports: the names come from the
``/metrics`` of real processes (``hub api`` and the workers the rules watch), not from the source (N72)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from devkit.live import live_api
from devkit.pg import free_port
from devkit.processes import hub_process
from tests.observability.exprs import dashboard_exprs, metric_names, rule_exprs

# The series names a family of each type exposes (the client names a counter's family without `_total`).
SERIES = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_count", "_sum", "_created"),
          "summary": ("", "_count", "_sum", "_created"), "gauge": ("",), "info": ("_info",), "unknown": ("",)}
# The series Prometheus makes itself for every target (the rules' per-process `up` alerts read them).
PROMETHEUS_OWN = {"up"}
# Each worker and the setting that opens its /metrics listener.
WORKERS = {"ingest": "HUB_INGEST_METRICS_PORT", "deliver": "HUB_DELIVER_METRICS_PORT",
           "consumer-relay": "HUB_INGEST_METRICS_PORT"}


def exported_names(text: str) -> set[str]:
    return {family.name + suffix for family in text_string_to_metric_families(text)
            for suffix in SERIES[family.type]}


def scrape(url: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            answer = httpx.get(url, timeout=2)
            if answer.status_code == 200:
                return answer.text
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, f"no /metrics at {url}"
        time.sleep(0.3)


@pytest.fixture(scope="module")
def scraped() -> Iterator[dict[str, set[str]]]:
    """The series names each process exposes, its /readyz asked once first (the API's readiness gauge)."""
    prefix = f"obs{uuid.uuid4().hex[:8]}."
    env = {"HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
           "HUB_INGEST_METRICS_HOST": "127.0.0.1", "HUB_DELIVER_METRICS_HOST": "127.0.0.1", "HUB_LOG_LEVEL": "WARNING"}
    ports = {name: free_port() for name in WORKERS}
    with ExitStack() as processes:  # the workers start while the API does
        for name, setting in WORKERS.items():
            processes.enter_context(hub_process(name, {**env, setting: str(ports[name])}))
        base = processes.enter_context(live_api(env))
        httpx.get(f"{base}/readyz", timeout=30)
        found = {"api": exported_names(scrape(f"{base}/metrics"))}
        RAW.update({name: scrape(f"http://127.0.0.1:{port}/metrics") for name, port in ports.items()})
        found.update({name: exported_names(text) for name, text in RAW.items()})
        LIVEZ.update({name: heartbeat(f"http://127.0.0.1:{port}/livez") for name, port in ports.items()})
    yield found


RAW: dict[str, str] = {}  # each worker's /metrics text, scraped before any traffic
LIVEZ: dict[str, dict] = {}  # each worker's /livez answer, read while the `scraped` processes ran


def heartbeat(url: str, timeout: float = 60.0) -> dict:
    """The /livez answer once the worker's loop has beaten its heartbeat (N94)."""
    deadline = time.monotonic() + timeout
    while (answer := httpx.get(url, timeout=2)).json()["status"] == "starting":
        assert time.monotonic() < deadline, f"no heartbeat at {url}"
        time.sleep(0.3)
    return {"code": answer.status_code, **answer.json()}


def test_deliver_counts_every_kind_from_zero(scraped):
    """Before any delivery: a 0 for every registered kind, so the alerts' increase() sees the first disables (N95)."""
    from hub.providers.registry import kinds

    samples = {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
               for family in text_string_to_metric_families(RAW["deliver"]) for sample in family.samples}
    # Present for every kind from the start (what increase() needs). The value is not asserted: the worker
    # shares the suite's database and may already have ended jobs other tests left due (the fair claim, N98,
    # takes every lane's due work in its first claim).
    for kind in kinds():
        assert ("streaming_hub_subscriptions_auto_disabled_total", (("sink_kind", kind),)) in samples, kind
        dead = (("outcome", "dead_lettered"), ("sink_kind", kind))
        assert ("streaming_hub_delivery_attempts_total", dead) in samples, kind


def test_each_workers_loop_beats_its_heartbeat(scraped):
    """Thread-based (ingest's batch loop) and asyncio (deliver, the relay) alike: /livez is 200 and fresh."""
    assert set(LIVEZ) == set(WORKERS)
    for name, answer in LIVEZ.items():
        assert answer["code"] == 200 and answer["status"] == "ok" and answer["heartbeat_age_seconds"] < 5, name


def test_every_process_exports_the_hubs_metrics(scraped):
    for process, names in scraped.items():
        assert "streaming_hub_build_info" in names, process


@pytest.mark.parametrize(("where", "expr"), sorted({**rule_exprs(), **dashboard_exprs()}.items()))
def test_every_metric_read_is_exported(scraped, where, expr):
    exported = set().union(*scraped.values())
    assert metric_names(expr) - PROMETHEUS_OWN <= exported, f"{where}: {metric_names(expr) - exported} not exported"


def test_the_watched_gauges_come_from_their_process(scraped):
    """The relay's gauges from `hub consumer-relay`, the readiness gauge from `hub api` (labelled by check,
    so present only once /readyz ran), the backlog and the ordered keys' gauges (N77) from `hub deliver`."""
    assert {"streaming_hub_consumer_relay_lag_events", "streaming_hub_consumer_queue_deepest_messages",
            "streaming_hub_consumer_queued_messages"} <= scraped["consumer-relay"]
    assert {"streaming_hub_ready", "streaming_hub_api_request_seconds_count"} <= scraped["api"]
    assert {"streaming_hub_delivery_backlog", "streaming_hub_ordered_blocked_keys",
            "streaming_hub_ordered_oldest_wait_seconds"} <= scraped["deliver"]
