"""The ``ordering`` delivery option (N77) on PUT/GET …/delivery-options: its defaults, its checks in the D1
order, ``ordering_unsupported`` as the kind's provider says, and the version bump ingest reloads on."""

from __future__ import annotations

import pytest

from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, db_row, problem, subscription_version

DEFAULT = {"key": "partitionkey", "on_dead_letter": "block"}
QUEUES = {"sqs": "https://52.94.0.10/123456789012/orders.fifo", "rabbitmq": "orders/",
          "eventbridge": "orders-bus"}


@pytest.fixture
def webhook_id(api, allow_loopback) -> str:
    return api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]


def test_an_empty_ordering_takes_the_defaults_and_bumps_the_version(api, webhook_id):
    before = subscription_version()
    assert api.with_options(webhook_id, ordering={})["ordering"] == DEFAULT
    assert subscription_version() > before, "ingest and the workers reload the subscription"
    assert db_row(webhook_id)["ordering"] == DEFAULT
    assert api.options(webhook_id).json()["ordering"] == DEFAULT
    chosen = {"key": "accountid", "on_dead_letter": "skip"}
    assert api.with_options(webhook_id, ordering=chosen)["ordering"] == chosen


@pytest.mark.parametrize(("ordering", "location"), [
    ({"key": "Partition-Key"}, "ordering/key"), ({"key": ""}, "ordering/key"), ({"key": "k" * 21}, "ordering/key"),
    ({"key": 7}, "ordering/key"), ({"on_dead_letter": "drop"}, "ordering/on_dead_letter"),
    ({"keys": "partitionkey"}, "ordering/keys"), ("partitionkey", "ordering"),
])
def test_a_malformed_ordering_is_validation_error_naming_the_field(api, webhook_id, ordering, location):
    refused = problem(api.put_options(webhook_id, {"ordering": ordering}), 422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == [location]
    assert db_row(webhook_id)["ordering"] is None


@pytest.mark.parametrize("kind", ["eventbridge", "pull"])
def test_a_kind_that_cannot_keep_order_is_ordering_unsupported(api, kind):
    sub_id = api.created(sink_kind=kind, **({"endpoint": QUEUES[kind]} if kind in QUEUES else {}))["subscription"]["id"]
    refused = problem(api.put_options(sub_id, {"ordering": {}, "filter": {"type": "a.b"}}), 422, "ordering_unsupported")
    assert [error["location"] for error in refused["errors"]] == ["ordering"]
    assert kind in refused["detail"] or "EventBridge" in refused["detail"]
    assert db_row(sub_id)["ordering"] is None and db_row(sub_id)["payload_filter"] is None, "nothing written"


@pytest.mark.parametrize("kind", ["sqs", "rabbitmq"])
def test_the_queue_kinds_that_keep_order_take_it(api, kind):
    sub_id = api.created(sink_kind=kind, endpoint=QUEUES[kind])["subscription"]["id"]
    assert api.with_options(sub_id, ordering={"on_dead_letter": "skip"})["ordering"] == {
        "key": "partitionkey", "on_dead_letter": "skip"}


def test_checks_run_in_d1_order(api):
    """The row-free checks (a malformed key) before the row's kind; the kind checks in field order."""
    pull = api.created()["subscription"]["id"]
    first = problem(api.put_options(pull, {"ordering": {"key": "BAD"}}), 422, "validation_error")
    assert [error["location"] for error in first["errors"]] == ["ordering/key"]
    range_first = problem(api.put_options(pull, {"rate_limit_per_second": 0, "ordering": {}}), 422, "validation_error")
    assert [error["location"] for error in range_first["errors"]] == ["rate_limit_per_second"]
    kind_order = problem(api.put_options(pull, {"rate_limit_per_second": 5, "ordering": {}}), 422, "validation_error")
    assert [error["location"] for error in kind_order["errors"]] == ["rate_limit_per_second"]
