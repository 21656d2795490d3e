"""Rate limits on the delivery-options resource (N56, N67): stored, read back, replaced, and the 422 errors[]."""

from __future__ import annotations

import pytest

from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, db_row, problem, subscription_version


def _webhook(api) -> str:  # noqa: ANN001
    return api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]


def test_rate_limit_is_stored_and_read_back(api, allow_loopback):
    sub_id = _webhook(api)
    assert api.with_options(sub_id, rate_limit_per_second=50)["rate_limit_per_second"] == 50
    assert api.options(sub_id).json()["rate_limit_per_second"] == 50
    assert db_row(sub_id)["rate_limit_per_second"] == 50, "the column the delivery workers pace by"


def test_no_rate_limit_reads_as_null(api, allow_loopback):
    sub_id = _webhook(api)
    assert api.options(sub_id).json()["rate_limit_per_second"] is None
    for body in ({}, {"rate_limit_per_second": None}):
        assert api.with_options(sub_id, **body)["rate_limit_per_second"] is None
        assert db_row(sub_id)["rate_limit_per_second"] is None
    assert api.options(api.created()["subscription"]["id"]).json()["rate_limit_per_second"] is None


@pytest.mark.parametrize("value", [0, -1, 10_001, 1.5, "50", True, [50], {"per_second": 50}])
def test_a_bad_rate_limit_is_refused(api, allow_loopback, value):
    sub_id = _webhook(api)
    body = problem(api.put_options(sub_id, {"rate_limit_per_second": value}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["rate_limit_per_second"]
    assert all(error["message"] for error in body["errors"])
    assert db_row(sub_id)["rate_limit_per_second"] is None


@pytest.mark.parametrize("value", [1, 10_000])
def test_the_range_ends_are_accepted(api, allow_loopback, value):
    assert api.with_options(_webhook(api), rate_limit_per_second=value)["rate_limit_per_second"] == value


def test_every_push_kind_takes_a_rate_limit_and_pull_does_not(api):
    queue = api.created(sink_kind="rabbitmq", endpoint="orders/")["subscription"]["id"]
    assert api.with_options(queue, rate_limit_per_second=5)["rate_limit_per_second"] == 5
    pull = api.created()["subscription"]["id"]
    refused = problem(api.put_options(pull, {"rate_limit_per_second": 5}), 422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == ["rate_limit_per_second"]
    assert api.with_options(pull, rate_limit_per_second=None)["rate_limit_per_second"] is None


def test_checks_follow_the_field_order(api, allow_loopback):
    """D1: the filter, then the rate limit's range (no row needed), then the row's kind for the headers."""
    sub_id = _webhook(api)
    body = problem(api.put_options(sub_id, {"filter": {"$bad": 1}, "rate_limit_per_second": 0}), 422,
                   "validation_error")
    assert body["errors"][0]["location"].startswith("filter")
    body = problem(api.put_options(sub_id, {"headers": [{"name": "Webhook-Id", "value": "x"}],
                                            "rate_limit_per_second": 0}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["rate_limit_per_second"]
    body = problem(api.put_options(sub_id, {"headers": [{"name": "Webhook-Id", "value": "x"}],
                                            "rate_limit_per_second": 5}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["headers/0/name"]


def test_put_sets_replaces_and_removes_the_rate_limit(api, allow_loopback):
    sub_id = _webhook(api)
    version = subscription_version()
    api.with_options(sub_id, rate_limit_per_second=20)
    assert subscription_version() > version
    assert api.with_options(sub_id, rate_limit_per_second=30)["rate_limit_per_second"] == 30
    assert api.with_options(sub_id)["rate_limit_per_second"] is None, "a PUT without it removes it"
