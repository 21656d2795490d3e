"""Payload filters on the subscription routes (N53): create, read shape, PATCH, and the 422 errors[]."""

from __future__ import annotations

from tests.subscriptions.conftest import db_row, problem, subscription_version

FILTER = {"data.order.total": {"$gte": 100}, "$or": [{"subject": {"$prefix": "eu-"}}, {"data.vip": True}]}


def test_filter_is_stored_and_read_back(api):
    created = api.created(filter=FILTER)["subscription"]
    assert created["filter"] == FILTER
    assert api.get(created["id"]).json()["subscription"]["filter"] == FILTER
    listed = {row["id"]: row for row in api.list(limit=200).json()["subscriptions"]}
    assert listed[created["id"]]["filter"] == FILTER
    assert db_row(created["id"])["payload_filter"] == FILTER


def test_no_filter_reads_as_null(api):
    for body in ({}, {"filter": None}):
        sub = api.created(**body)["subscription"]
        assert sub["filter"] is None
        assert api.get(sub["id"]).json()["subscription"]["filter"] is None
        assert db_row(sub["id"])["payload_filter"] is None


def test_create_refuses_a_bad_filter_with_every_fault_located(api):
    response = api.create({"name": "filtered", "sink_kind": "pull", "filter": {
        "data.total": {"$gt": "100"}, "Type": "x", "$or": [{"data.a": {"$in": []}}, {"data.b": {"$regex": "x"}}]}})
    body = problem(response, 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == [
        "filter/data.total/$gt", "filter/Type", "filter/$or/0/data.a/$in", "filter/$or/1/data.b/$regex"]
    assert all(error["message"] for error in body["errors"])
    assert api.list(name="filtered").json()["subscriptions"] == []


def test_a_filter_that_is_not_an_object_is_a_schema_error(api):
    body = problem(api.create({"name": "f", "sink_kind": "pull", "filter": ["data.a"]}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["filter"]


def test_filter_checks_follow_the_other_field_checks(api):
    """D1: body checks in field order; a blank name is reported before the filter."""
    body = problem(api.create({"name": " ", "sink_kind": "pull", "filter": {"$bad": 1}}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["name"]


def test_patch_sets_replaces_and_removes_the_filter(api):
    sub_id = api.created(schema_major=2)["subscription"]["id"]
    version = subscription_version()
    assert api.patch(sub_id, {"schema_major": 2, "filter": FILTER}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["filter"] == FILTER
    assert subscription_version() > version, "ingest reloads its cache on the change"
    assert api.patch(sub_id, {"schema_major": 2}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["filter"] == FILTER, "an absent filter leaves it as it is"
    assert api.patch(sub_id, {"schema_major": 2, "filter": {"type": "a.b"}}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["filter"] == {"type": "a.b"}
    assert api.patch(sub_id, {"schema_major": 2, "filter": None}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["filter"] is None


def test_patch_refuses_a_bad_filter_and_writes_nothing(api):
    sub_id = api.created(filter={"type": "a.b"})["subscription"]["id"]
    body = problem(api.patch(sub_id, {"schema_major": 3, "filter": {"data.x": {"$lt": None}}}), 422,
                   "validation_error")
    assert [error["location"] for error in body["errors"]] == ["filter/data.x/$lt"]
    row = db_row(sub_id)
    assert row["payload_filter"] == {"type": "a.b"} and row["schema_major"] is None


def test_patch_keeps_the_contract_body(api):
    """schema_major stays required (R-updateSubscriptionSchemaMajor-05), with or without a filter."""
    sub_id = api.created()["subscription"]["id"]
    body = problem(api.patch(sub_id, {"filter": {"type": "a.b"}}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["schema_major"]
    assert db_row(sub_id)["payload_filter"] is None
