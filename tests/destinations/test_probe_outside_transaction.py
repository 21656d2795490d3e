"""The credential PUT, verify and ping run their probe with no transaction open and no lock held.

The services read on the request's session and end that transaction before the probe goes out
(module docstring of ``hub.destinations.service``). A broker stand-in looks at the database at the
moment the probe connects: no session of the test database is idle in a transaction, none holds a
lock on ``subscriptions``. It then hangs up, so the probe fails and nothing is stored.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from hub.db import get_engine
from tests.sinks.conftest import HOOK_HOST, ca, ca_bundle, hook_dns  # noqa: F401 (shared fixtures)
from tests.subscriptions.conftest import db_row

OPEN_TRANSACTIONS = text(
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
    "AND state LIKE 'idle in transaction%'"
)
# Only locks held by a session that is waiting between statements count: a statement running right
# now elsewhere (another thread's short read of ``subscriptions``) takes a lock for its own moment,
# which is not a lock held across the probe.
SUBSCRIPTION_LOCKS = text(
    "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
    "JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE c.relname = 'subscriptions' AND l.pid <> pg_backend_pid() "
    "AND a.datname = current_database() AND a.state <> 'active'"
)


class BrokerWitness:
    """A loopback listener that records the database's open transactions and locks per connection."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.seen: list[tuple[int, int]] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection, get_engine().connect() as db:
                self.seen.append((db.execute(OPEN_TRANSACTIONS).scalar_one(), db.execute(SUBSCRIPTION_LOCKS).scalar_one()))

    def uri(self) -> str:
        return f"amqp://hub:hub@127.0.0.1:{self.port}/%2F"

    def close(self) -> None:
        self.listener.close()
        self._thread.join(timeout=5)


@pytest.fixture
def witness(loopback_broker, override_settings) -> Iterator[BrokerWitness]:
    override_settings(rabbitmq_connect_timeout_seconds=2.0)
    broker = BrokerWitness()
    yield broker
    broker.close()


def _rabbit_sub(api) -> str:
    return api.subscription("rabbitmq", "orders-exchange/orders.created")


def test_credential_probe_runs_outside_any_transaction(api, witness):
    """R-putSubscriptionCredential-02: the candidate is probed while no transaction or row lock is held."""
    sub_id = _rabbit_sub(api)
    response = api.put_credential(sub_id, {"sinkConfig": {"uri": witness.uri()}})
    assert response.status_code == 200 and response.json()["outcome"] == "failed", response.text
    assert witness.seen and set(witness.seen) == {(0, 0)}, witness.seen
    assert db_row(sub_id)["credential_sealed"] is None


@pytest.mark.parametrize("route", ["verify", "ping"])
def test_webhook_probe_runs_outside_any_transaction(api, witness, hook_dns, route):
    """R-verifySubscription-*, R-pingSubscription-*: the endpoint is probed while no transaction or row
    lock is held (the stand-in hangs up before the TLS handshake, so the probe fails)."""
    sub_id = api.subscription("webhook", f"https://{HOOK_HOST}:{witness.port}/hooks")
    response = api.client.post(f"/v1/subscriptions/{sub_id}/{route}", headers=api.headers(None))
    assert response.status_code == 200 and response.json()["outcome"] == "failed", response.text
    assert witness.seen and set(witness.seen) == {(0, 0)}, witness.seen
