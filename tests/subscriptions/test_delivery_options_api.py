"""GET and PUT /v1/subscriptions/{id}/delivery-options (N67): the extension's own resource, with the contract's
gates (401, 403, uniform 404, X-Idempotency and its replay, rate-limit headers, problem+json), and the contract's
subscription operations left exactly as the contract gives them."""

from __future__ import annotations

import uuid

import pytest

from hub.ids import new_id
from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, OPTION_FIELDS, db_row, new_key, problem

FILTER = {"type": "order.created", "data.total": {"$gte": 100}}
TEAM = {"name": "X-Team", "value": "payments", "secret": False}
ORDERED = {"key": "partitionkey", "on_dead_letter": "block"}
FULL = {"filter": FILTER, "headers": [TEAM], "rate_limit_per_second": 25, "ordering": ORDERED}
NONE = {"filter": None, "headers": [], "rate_limit_per_second": None, "ordering": None}


@pytest.fixture
def webhook_id(api, allow_loopback) -> str:
    return api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]


def test_round_trip(api, webhook_id):
    assert api.options(webhook_id).json() == NONE, "a new subscription has no options"
    put = api.put_options(webhook_id, FULL)
    assert put.status_code == 200 and put.headers["content-type"].startswith("application/json")
    assert put.json() == FULL
    got = api.options(webhook_id)
    assert got.status_code == 200 and got.json() == FULL
    assert {"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"} <= set(got.headers), "reads are metered"
    row = db_row(webhook_id)
    assert (row["payload_filter"], row["rate_limit_per_second"], row["ordering"]) == (FILTER, 25, ORDERED)


def test_put_replaces_the_whole_set_and_an_omitted_field_is_null(api, webhook_id):
    api.with_options(webhook_id, **FULL)
    assert api.with_options(webhook_id, filter={"type": "a.b"}) == {**NONE, "filter": {"type": "a.b"}}
    api.with_options(webhook_id, **FULL)
    assert api.with_options(webhook_id) == NONE, "{} removes every option"
    assert api.options(webhook_id).json() == NONE


def test_an_unknown_field_or_no_body_is_validation_error(api, webhook_id):
    body = problem(api.put_options(webhook_id, {**FULL, "timeout_ms": 1000}), 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["timeout_ms"]
    empty = api.client.put(f"/v1/subscriptions/{webhook_id}/delivery-options", headers=api.headers())
    problem(empty, 422, "validation_error")
    assert api.options(webhook_id).json() == NONE


def test_without_a_token_both_are_401(api, webhook_id):
    problem(api.client.get(f"/v1/subscriptions/{webhook_id}/delivery-options"), 401, "AUT-0006")
    problem(api.client.put(f"/v1/subscriptions/{webhook_id}/delivery-options", json=FULL,
                           headers={"X-Idempotency": new_key()}), 401, "AUT-0006")
    assert db_row(webhook_id)["payload_filter"] is None


def test_reading_takes_get_and_replacing_takes_patch(api, make_token, webhook_id):
    """The permissions of reading and of updating a subscription (AUT-1020 naming the one missing)."""
    reader = make_token(permissions=["subscriptions:get"])
    assert api.options(webhook_id, token=reader).status_code == 200
    refused = problem(api.put_options(webhook_id, FULL, token=reader), 403, "AUT-1020")
    assert "subscriptions:patch" in refused["detail"]
    patcher = make_token(permissions=["subscriptions:patch"])
    assert "subscriptions:get" in problem(api.options(webhook_id, token=patcher), 403, "AUT-1020")["detail"]
    assert api.put_options(webhook_id, FULL, token=patcher).status_code == 200


def _gone_ids(api, make_token) -> dict[str, str]:  # noqa: ANN001
    """An absent id, a soft-deleted id, another tenant's id and a malformed one."""
    deleted = api.created()["subscription"]["id"]
    assert api.delete(deleted).status_code == 204
    other = make_token(tenant_id=f"other-{uuid.uuid4().hex[:8]}")
    foreign = api.create({"name": "foreign", "sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK},
                         token=other).json()["subscription"]["id"]
    return {"absent": str(new_id()), "deleted": deleted, "foreign": foreign, "malformed": "not-a-uuid"}


def test_other_tenants_absent_and_deleted_ids_are_one_uniform_404(api, make_token, allow_loopback):
    ids = _gone_ids(api, make_token)
    bodies = set()
    for sub_id in ids.values():
        for response in (api.options(sub_id), api.put_options(sub_id, FULL)):
            body = problem(response, 404, "not_found")
            bodies.add((body["title"], body["detail"], body["code"], body["type"]))
    assert len(bodies) == 1
    foreign = db_row(ids["foreign"])
    assert foreign["payload_filter"] is None and foreign["custom_headers"] is None, "nothing written to it"


def test_put_requires_x_idempotency_and_replays_its_answer(api, webhook_id):
    problem(api.put_options(webhook_id, FULL, key=None), 400, "missing_idempotency_key")
    assert api.options(webhook_id).json() == NONE
    key = new_key()
    first = api.put_options(webhook_id, FULL, key=key)
    assert first.status_code == 200 and "x-idempotency-replayed" not in first.headers
    api.with_options(webhook_id)  # changed since, under another key
    again = api.put_options(webhook_id, FULL, key=key)
    assert again.status_code == 200 and again.headers["x-idempotency-replayed"] == "true"
    assert again.content == first.content
    assert api.options(webhook_id).json() == NONE, "a replay does not run the operation again"
    problem(api.put_options(webhook_id, {"filter": None}, key=key), 409, "idempotency_conflict")


def test_the_kind_is_judged_against_the_row(api):
    pull = api.created()["subscription"]["id"]
    for body, location in (({"headers": [TEAM]}, "headers"), ({"rate_limit_per_second": 5}, "rate_limit_per_second")):
        refused = problem(api.put_options(pull, body), 422, "validation_error")
        assert [error["location"] for error in refused["errors"]] == [location]
    assert api.with_options(pull, filter=FILTER) == {**NONE, "filter": FILTER}


# The contract's own operations, exactly as the contract gives them.

@pytest.mark.parametrize("field", sorted(OPTION_FIELDS))
def test_create_refuses_the_options_and_creates_nothing(api, allow_loopback, field):
    body = {"name": f"opt-{field}", "sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK, field: FULL[field]}
    refused = problem(api.create(body), 422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == [field]
    assert "delivery-options" in refused["errors"][0]["message"]
    assert api.list(name=f"opt-{field}").json()["subscriptions"] == []
    null = problem(api.create({**body, field: None}), 422, "validation_error")
    assert [error["location"] for error in null["errors"]] == [field], "even null: the field is not the body's"


def test_create_still_ignores_a_tenant_id(api):
    """R-createSubscription-03: the only unknown field the create body takes silently."""
    assert api.create({"name": "t", "sink_kind": "pull", "tenant_id": "someone-else"}).status_code == 201


@pytest.mark.parametrize("field", sorted(OPTION_FIELDS))
def test_patch_refuses_the_options_like_any_unknown_field(api, webhook_id, field):
    """R-updateSubscriptionSchemaMajor-05: any field the PATCH body does not name is 422 validation_error."""
    refused = problem(api.patch(webhook_id, {"schema_major": None, field: FULL[field]}), 422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == [field]
    assert api.options(webhook_id).json() == NONE


def test_the_contract_projections_never_carry_the_options(api, webhook_id):
    api.with_options(webhook_id, **FULL)
    created = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]
    listed = {row["id"]: row for row in api.list(limit=200).json()["subscriptions"]}
    for shown in (created, api.get(webhook_id).json()["subscription"], listed[webhook_id]):
        assert not OPTION_FIELDS & set(shown)
