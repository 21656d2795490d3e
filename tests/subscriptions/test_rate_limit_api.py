"""Rate limits on the subscription routes (N56): create, read shape, PATCH, and the 422 errors[]."""

from __future__ import annotations

import pytest

from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, db_row, problem, subscription_version


def _webhook(api, **body):  # noqa: ANN001, ANN202
    return api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK, **body)["subscription"]


def test_rate_limit_is_stored_and_read_back(api, allow_loopback):
    created = _webhook(api, rate_limit_per_second=50)
    assert created["rate_limit_per_second"] == 50
    assert api.get(created["id"]).json()["subscription"]["rate_limit_per_second"] == 50
    listed = {row["id"]: row for row in api.list(limit=200).json()["subscriptions"]}
    assert listed[created["id"]]["rate_limit_per_second"] == 50
    assert db_row(created["id"])["rate_limit_per_second"] == 50


def test_no_rate_limit_reads_as_null(api, allow_loopback):
    for body in ({}, {"rate_limit_per_second": None}):
        sub = _webhook(api, **body)
        assert sub["rate_limit_per_second"] is None
        assert api.get(sub["id"]).json()["subscription"]["rate_limit_per_second"] is None
        assert db_row(sub["id"])["rate_limit_per_second"] is None
    assert api.created()["subscription"]["rate_limit_per_second"] is None


@pytest.mark.parametrize("value", [0, -1, 10_001, 1.5, "50", True, [50], {"per_second": 50}])
def test_create_refuses_a_bad_rate_limit(api, allow_loopback, value):
    response = api.create({"name": "r", "sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK,
                           "rate_limit_per_second": value})
    body = problem(response, 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["rate_limit_per_second"]
    assert all(error["message"] for error in body["errors"])
    assert api.list(name="r").json()["subscriptions"] == []


@pytest.mark.parametrize("value", [1, 10_000])
def test_the_range_ends_are_accepted(api, allow_loopback, value):
    assert _webhook(api, rate_limit_per_second=value)["rate_limit_per_second"] == value


def test_every_push_kind_takes_a_rate_limit_and_pull_does_not(api):
    queue = api.created(sink_kind="rabbitmq", endpoint="orders/", rate_limit_per_second=5)["subscription"]
    assert queue["rate_limit_per_second"] == 5
    refused = problem(api.create({"name": "p", "sink_kind": "pull", "rate_limit_per_second": 5}), 422,
                      "validation_error")
    assert [error["location"] for error in refused["errors"]] == ["rate_limit_per_second"]


def test_rate_limit_checks_follow_the_other_field_checks(api, allow_loopback):
    """D1: body checks in field order; a blank name, then a bad header, are reported before the rate limit."""
    base = {"sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK, "rate_limit_per_second": 0}
    body = problem(api.create({**base, "name": " "}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["name"]
    body = problem(api.create({**base, "name": "h", "headers": [{"name": "Webhook-Id", "value": "x"}]}), 422,
                   "validation_error")
    assert [error["location"] for error in body["errors"]] == ["headers/0/name"]


def test_patch_sets_replaces_and_removes_the_rate_limit(api, allow_loopback):
    sub_id = _webhook(api)["id"]
    version = subscription_version()
    assert api.patch(sub_id, {"schema_major": None, "rate_limit_per_second": 20}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["rate_limit_per_second"] == 20
    assert subscription_version() > version
    assert api.patch(sub_id, {"schema_major": None}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["rate_limit_per_second"] == 20, "absent leaves it"
    refused = problem(api.patch(sub_id, {"schema_major": None, "rate_limit_per_second": 0}), 422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == ["rate_limit_per_second"]
    assert db_row(sub_id)["rate_limit_per_second"] == 20
    assert api.patch(sub_id, {"schema_major": None, "rate_limit_per_second": None}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["rate_limit_per_second"] is None


def test_patch_checks_schema_major_first_and_the_kind_last(api):
    """D1: schema_major is checked before the extension; a pull row refuses a rate limit (its kind, in the service)."""
    sub_id = api.created()["subscription"]["id"]
    both = problem(api.patch(sub_id, {"schema_major": 0, "rate_limit_per_second": 0}), 422, "validation_error")
    assert [error["location"] for error in both["errors"]] == ["schema_major"]
    refused = problem(api.patch(sub_id, {"schema_major": None, "rate_limit_per_second": 5}), 422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == ["rate_limit_per_second"]
    assert api.patch(sub_id, {"schema_major": None, "rate_limit_per_second": None}).status_code == 200
