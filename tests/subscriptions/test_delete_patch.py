"""DELETE and PATCH /v1/subscriptions/{id} (R-deleteSubscription-*, R-updateSubscriptionSchemaMajor-*,
R-X-ORACLE-02, R-X-STATE-06) on the real database."""

from __future__ import annotations

import uuid

import pytest

from hub.ids import new_id
from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, db_row, new_key, problem, subscription_version, unique_source


def test_delete_soft_deletes_and_answers_204(api):
    """R-deleteSubscription-02, R-deleteSubscription-06: 204 no body; the row is kept with deleted_at; reads 404."""
    sub_id = api.created()["subscription"]["id"]
    version = subscription_version()
    response = api.delete(sub_id)
    assert response.status_code == 204 and response.content == b""
    assert db_row(sub_id)["deleted_at"] is not None and subscription_version() > version
    problem(api.get(sub_id), 404, "not_found")
    assert sub_id not in [row["id"] for row in api.list().json()["subscriptions"]]


def test_delete_is_idempotent_and_no_oracle(api, make_token):
    """R-deleteSubscription-03, R-X-ORACLE-02: absent, already deleted and foreign ids all answer 204,
    and a foreign delete leaves the other tenant's row alive."""
    mine = api.created()["subscription"]["id"]
    assert api.delete(mine).status_code == 204
    other = make_token(tenant_id=f"other-{uuid.uuid4().hex[:8]}")
    foreign = api.create({"name": "foreign", "sink_kind": "pull"}, token=other).json()["subscription"]["id"]
    for sub_id in (str(new_id()), mine, foreign, "not-a-uuid"):
        response = api.delete(sub_id)
        assert response.status_code == 204 and response.content == b""
    assert db_row(foreign)["deleted_at"] is None
    assert api.get(foreign, token=other).status_code == 200


def test_delete_requires_a_key(api):
    """R-deleteSubscription-04, R-X-IDEM-02: no X-Idempotency → 400 before any write; the row survives."""
    sub_id = api.created()["subscription"]["id"]
    problem(api.delete(sub_id, key=None), 400, "missing_idempotency_key")
    assert db_row(sub_id)["deleted_at"] is None


def test_delete_replay(api):
    """R-deleteSubscription-05, R-X-IDEM-10: a replay returns the original 204 with X-Idempotency-Replayed."""
    sub_id = api.created()["subscription"]["id"]
    key = new_key()
    first = api.delete(sub_id, key=key)
    assert first.status_code == 204 and "x-idempotency-replayed" not in first.headers
    again = api.delete(sub_id, key=key)
    assert again.status_code == 204 and again.headers["x-idempotency-replayed"] == "true" and again.content == b""


def test_deleting_the_holder_frees_the_name(api):
    """R-deleteSubscription-07: after delete, a create with the name and a new key succeeds."""
    holder = api.created(name="freed")["subscription"]["id"]
    problem(api.create({"name": "freed", "sink_kind": "pull"}), 409, "subscription_name_taken")
    api.delete(holder)
    assert api.create({"name": "freed", "sink_kind": "pull"}).status_code == 201


def test_patch_repins_and_null_clears(api):
    """R-updateSubscriptionSchemaMajor-02, R-updateSubscriptionSchemaMajor-08: an integer re-pins, null
    follows major 1; 200 with no body."""
    sub_id = api.created()["subscription"]["id"]
    response = api.patch(sub_id, {"schema_major": 3})
    assert response.status_code == 200 and response.content == b""
    assert api.get(sub_id).json()["subscription"]["schema_major"] == 3
    assert api.patch(sub_id, {"schema_major": None}).status_code == 200
    assert "schema_major" not in api.get(sub_id).json()["subscription"]
    assert db_row(sub_id)["schema_major"] is None


@pytest.mark.parametrize("major", [0, -1, 2147483648])
def test_patch_major_below_one_is_refused(api, major):
    """R-updateSubscriptionSchemaMajor-03: schema_major < 1 (or beyond int32) → 422 validation_error."""
    sub_id = api.created()["subscription"]["id"]
    problem(api.patch(sub_id, {"schema_major": major}), 422, "validation_error")


def test_patch_timeout(api, allow_loopback):
    """R-updateSubscriptionSchemaMajor-04: omitted keeps, 0 returns to default, 1000–20000, webhook only."""
    hook = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK, timeout_ms=5000)["subscription"]["id"]
    api.patch(hook, {"schema_major": 1})
    assert api.get(hook).json()["subscription"]["timeout_ms"] == 5000
    assert api.patch(hook, {"schema_major": 1, "timeout_ms": 15000}).status_code == 200
    assert api.get(hook).json()["subscription"]["timeout_ms"] == 15000
    assert api.patch(hook, {"schema_major": 1, "timeout_ms": 0}).status_code == 200
    assert "timeout_ms" not in api.get(hook).json()["subscription"]
    problem(api.patch(hook, {"schema_major": 1, "timeout_ms": 500}), 422, "validation_error")
    pull = api.created()["subscription"]["id"]
    problem(api.patch(pull, {"schema_major": 1, "timeout_ms": 2000}), 422, "validation_error")
    assert api.patch(pull, {"schema_major": 1, "timeout_ms": 0}).status_code == 200


@pytest.mark.parametrize("body", [{}, {"name": "x", "schema_major": 1}, {"schema_major": 1, "endpoint": "y"},
                                  {"schema_major": 1, "event_majors": {}}, {"schema_major": "2"},
                                  {"timeout_ms": 1000}])
def test_patch_refuses_other_fields_and_empty_bodies(api, body):
    """R-updateSubscriptionSchemaMajor-05: other fields, wrong types or an empty body → 422 (schema rejection,
    N1: no code); nothing changes."""
    sub_id = api.created(schema_major=2)["subscription"]["id"]
    problem(api.patch(sub_id, body), 422, None)
    assert db_row(sub_id)["schema_major"] == 2


def test_patch_pin_must_keep_event_types_in_the_catalog(api, catalog):
    """R-updateSubscriptionSchemaMajor-06: a pin leaving a stored type without a catalog entry at its
    major → 422 unknown_event_type naming it; event_majors overrides are not moved; nothing changes."""
    source = unique_source()
    catalog.add(source, [(source, "posted", 1), (source, "posted", 2), (source, "voided", 1),
                         (source, "fixed", 1)])
    types = [f"{source}.posted", f"{source}.voided", f"{source}.fixed"]
    sub_id = api.created(event_types=types, event_majors={f"{source}.fixed": 1})["subscription"]["id"]
    refused = problem(api.patch(sub_id, {"schema_major": 2}), 422, "unknown_event_type")
    assert refused["errors"] == [{"location": "event_types/1",
                                  "message": f'"{source}.voided" has no catalog entry at schema major 2'}]
    assert db_row(sub_id)["schema_major"] is None
    catalog.add(source, [(source, "voided", 2)])
    assert api.patch(sub_id, {"schema_major": 2}).status_code == 200


def test_patch_is_not_a_destination_change(api, allow_loopback):
    """R-updateSubscriptionSchemaMajor-07, R-X-STATE-06: verification_state and secret are untouched; no secret echoed."""
    sub_id = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]
    before = db_row(sub_id)
    response = api.patch(sub_id, {"schema_major": 2})
    assert response.content == b""
    after = db_row(sub_id)
    assert after["verification_state"] == before["verification_state"] == "pending_verification"
    assert after["secret_current"] == before["secret_current"]
    assert after["updated_at"] > before["updated_at"]


def test_patch_idempotency(api):
    """R-updateSubscriptionSchemaMajor-09: key required; replay returns the 200; different body → conflict."""
    sub_id = api.created()["subscription"]["id"]
    problem(api.patch(sub_id, {"schema_major": 2}, key=None), 400, "missing_idempotency_key")
    assert db_row(sub_id)["schema_major"] is None
    key = new_key()
    assert api.patch(sub_id, {"schema_major": 2}, key=key).status_code == 200
    api.patch(sub_id, {"schema_major": 5})
    replay = api.patch(sub_id, {"schema_major": 2}, key=key)
    assert replay.status_code == 200 and replay.headers["x-idempotency-replayed"] == "true"
    assert db_row(sub_id)["schema_major"] == 5  # the handler did not run again
    problem(api.patch(sub_id, {"schema_major": 3}, key=key), 409, "idempotency_conflict")


def test_patch_unknown_ids_are_uniform_404(api, make_token):
    """R-updateSubscriptionSchemaMajor-10, R-X-ORACLE-01: absent, deleted and foreign ids → one 404."""
    deleted = api.created()["subscription"]["id"]
    api.delete(deleted)
    other = make_token(tenant_id=f"other-{uuid.uuid4().hex[:8]}")
    foreign = api.create({"name": "f", "sink_kind": "pull"}, token=other).json()["subscription"]["id"]
    details = {problem(api.patch(sub_id, {"schema_major": 2}), 404, "not_found")["detail"]
               for sub_id in (str(new_id()), deleted, foreign)}
    assert len(details) == 1 and db_row(foreign)["schema_major"] is None
