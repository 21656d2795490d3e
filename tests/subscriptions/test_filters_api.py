"""Payload filters on the delivery-options resource (N53, N67): stored, read back, replaced, and the 422 errors[]."""

from __future__ import annotations

from tests.subscriptions.conftest import db_row, problem, subscription_version

FILTER = {"data.order.total": {"$gte": 100}, "$or": [{"subject": {"$prefix": "eu-"}}, {"data.vip": True}]}


def test_filter_is_stored_and_read_back(api):
    sub_id = api.created()["subscription"]["id"]
    assert api.with_options(sub_id, filter=FILTER)["filter"] == FILTER
    assert api.options(sub_id).json()["filter"] == FILTER
    assert db_row(sub_id)["payload_filter"] == FILTER
    assert "filter" not in api.get(sub_id).json()["subscription"], "the contract's projection never carries it"


def test_no_filter_reads_as_null(api):
    sub_id = api.created()["subscription"]["id"]
    assert api.options(sub_id).json()["filter"] is None
    for body in ({}, {"filter": None}):
        assert api.with_options(sub_id, **body)["filter"] is None
        assert db_row(sub_id)["payload_filter"] is None


def test_a_bad_filter_is_refused_with_every_fault_located(api):
    sub_id = api.created()["subscription"]["id"]
    response = api.put_options(sub_id, {"filter": {
        "data.total": {"$gt": "100"}, "Type": "x", "$or": [{"data.a": {"$in": []}}, {"data.b": {"$regex": "x"}}]}})
    body = problem(response, 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == [
        "filter/data.total/$gt", "filter/Type", "filter/$or/0/data.a/$in", "filter/$or/1/data.b/$regex"]
    assert all(error["message"] for error in body["errors"])
    assert db_row(sub_id)["payload_filter"] is None


def test_a_filter_that_is_not_an_object_is_a_schema_error(api):
    sub_id = api.created()["subscription"]["id"]
    body = problem(api.put_options(sub_id, {"filter": ["data.a"]}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["filter"]


def test_put_replaces_and_removes_the_filter(api):
    sub_id = api.created(schema_major=2)["subscription"]["id"]
    version = subscription_version()
    api.with_options(sub_id, filter=FILTER)
    assert subscription_version() > version, "ingest reloads its cache on the change"
    assert api.with_options(sub_id, filter={"type": "a.b"})["filter"] == {"type": "a.b"}
    assert api.options(sub_id).json()["filter"] == {"type": "a.b"}
    assert api.with_options(sub_id)["filter"] is None, "a PUT without filter removes it"
    assert db_row(sub_id)["schema_major"] == 2, "the options leave the subscription's own fields alone"


def test_a_refused_filter_writes_nothing(api):
    sub_id = api.created()["subscription"]["id"]
    api.with_options(sub_id, filter={"type": "a.b"})
    body = problem(api.put_options(sub_id, {"filter": {"data.x": {"$lt": None}}}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["filter/data.x/$lt"]
    assert db_row(sub_id)["payload_filter"] == {"type": "a.b"}
