"""End to end with real processes: Kafka → `hub ingest` → `hub deliver` → a real HTTPS receiver.

One subscription's endpoint keeps failing: after the (shortened) auto-disable window it is disabled,
and the `hub.destination.disabled` event travels the ingestion path to the tenant's other
subscription that asked for it. Rules: R-X-STATE-01 and the hub's auto-disable behaviour.
"""

from __future__ import annotations

import json
import time
import uuid

from cloudevents.core.bindings.kafka import to_structured_event
from cloudevents.core.v1.event import CloudEvent
from standardwebhooks import Webhook

from hub.kafka import ensure_topics, make_producer
from tests.deliver.conftest import insert_subscription, sql
from devkit.dnsserver import DnsServer
from tests.sinks.conftest import HOOK_HOST
from devkit.processes import hub_process
from devkit.receiver import Received, Reply, https_receiver


def wait_for(check, timeout: float = 90.0) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.3)


def test_event_reaches_the_receiver_and_auto_disable_is_announced(deliver_db: str, scratch_url: str, ca,  # noqa: ANN001
                                                                  ca_bundle, hook_dns: DnsServer,  # noqa: ANN001
                                                                  tenant: str) -> None:
    prefix = f"t{uuid.uuid4().hex[:10]}."
    env = {"HUB_DATABASE_URL": scratch_url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
           "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}", "HUB_DNS_NAMESERVERS": hook_dns.address,
           "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle),
           "HUB_DELIVER_RETRY_LADDER_SECONDS": ",".join(["0.5"] * 6), "HUB_DELIVER_AUTO_DISABLE_SECONDS": "1",
           "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05", "HUB_LOG_LEVEL": "WARNING"}
    topic = f"{prefix}ledger"
    ensure_topics([topic, f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=1)

    def script(item: Received) -> Reply:
        return Reply(500) if item.path == "/failing" else Reply(200)

    with https_receiver(ca, (HOOK_HOST,), script) as receiver:
        base = f"https://{HOOK_HOST}:{receiver.port}"
        failing, _ = insert_subscription(deliver_db, tenant, f"{base}/failing")
        watcher, (secret,) = insert_subscription(deliver_db, tenant, f"{base}/watcher")
        sql(deliver_db, "UPDATE subscriptions SET event_types = %s WHERE id = %s",
            (json.dumps(["transaction.posted"]), failing))
        sql(deliver_db, "UPDATE subscriptions SET event_types = %s WHERE id = %s",
            (json.dumps(["transaction.posted", "hub.destination.disabled"]), watcher))
        sql(deliver_db, "UPDATE subscription_versions SET version = version + 1 WHERE id = 1")
        producer = make_producer()

        def send(n: int) -> None:
            event = CloudEvent(attributes={"id": str(uuid.uuid4()), "source": "ledger", "type": "transaction.posted",
                                           "specversion": "1.0", "tenantid": tenant,
                                           "datacontenttype": "application/json"}, data={"n": n})
            message = to_structured_event(event)
            producer.produce(topic, value=message.value, key=message.key, headers=message.headers)
            assert producer.flush(15) == 0

        for n in range(3):
            send(n)
        with hub_process("ingest", env), hub_process("deliver", env):
            wait_for(lambda: sum(1 for r in receiver.received if r.path == "/watcher") >= 4)
            # An event that arrives while the subscription is disabled still gets a job, which ends
            # `disabled` with an attempt row instead of vanishing (N23).
            jobs_before = sql(deliver_db, "SELECT count(*) FROM delivery_jobs WHERE subscription_id = %s", (failing,))
            send(3)
            wait_for(lambda: sum(1 for r in receiver.received if r.path == "/watcher") >= 5)
            newest = "(SELECT id FROM delivery_jobs WHERE subscription_id = %s ORDER BY event_seq DESC LIMIT 1)"
            wait_for(lambda: sql(deliver_db, f"SELECT state FROM delivery_jobs WHERE id = {newest}",
                                 (failing,)) == [("disabled",)])
        assert sql(deliver_db, "SELECT count(*) FROM delivery_jobs WHERE subscription_id = %s",
                   (failing,))[0][0] == jobs_before[0][0] + 1
        assert sql(deliver_db, f"SELECT outcome FROM delivery_attempts WHERE job_id = {newest}", (failing,)) == [
            ("disabled",)]

    for request in (r for r in receiver.received if r.path == "/watcher"):
        Webhook(f"whsec_{secret}").verify(request.body, request.headers)
    watched = [json.loads(r.body) for r in receiver.received if r.path == "/watcher"]
    assert sorted(e["data"]["n"] for e in watched if e["type"] == "transaction.posted") == [0, 1, 2, 3]
    [notice] = [e for e in watched if e["type"] == "hub.destination.disabled"]
    assert notice["source"] == "streaming-hub" and notice["tenantid"] == tenant
    assert notice["data"]["subscriptionId"] == str(failing)
    assert notice["data"]["disabledReason"] == "sustained_failure_5d12h"
    assert sql(deliver_db, "SELECT enabled, disabled_reason FROM subscriptions WHERE id = %s", (failing,)) == [
        (False, "sustained_failure_5d12h")]
