"""POST /v1/subscriptions/{id}/secret/rotate (R-rotateSubscriptionSecret-*, R-X-SEC-*) on the real database."""

from __future__ import annotations

import base64
import uuid
from datetime import datetime, timedelta

import pytest
from sqlalchemy import text

from hub.db import get_engine
from hub.ids import new_id
from hub.secrets import unseal
from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, db_row, new_key, problem, subscription_version


def _parse(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


@pytest.fixture
def hook(api, allow_loopback) -> dict:
    return api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)


def test_rotation_mints_a_new_current_and_demotes_the_old(api, hook):
    """R-rotateSubscriptionSecret-02, R-X-SEC-03: new secret returned and stored sealed as current; the old
    one is kept sealed as previous."""
    sub_id, old = hook["subscription"]["id"], hook["signingSecret"]
    version = subscription_version()
    response = api.rotate(sub_id)
    assert response.status_code == 200, response.text
    new = response.json()["signingSecret"]
    assert new != old and len(base64.b64decode(new, validate=True)) == 32
    row = db_row(sub_id)
    assert unseal(row["secret_current"], context=f"{sub_id}:secret_current").decode() == new
    assert unseal(row["secret_previous"], context=f"{sub_id}:secret_previous").decode() == old
    assert new not in str(row) and old not in str(row) and subscription_version() > version


def test_overlap_is_24_hours_utc(api, hook):
    """R-rotateSubscriptionSecret-03: overlapUntil is a UTC date-time 24 h after the rotation."""
    before = datetime.now().astimezone()
    until = _parse(api.rotate(hook["subscription"]["id"]).json()["overlapUntil"])
    assert until.utcoffset() == timedelta(0)
    assert timedelta(hours=23, minutes=59) < until - before < timedelta(hours=24, minutes=1)


@pytest.mark.parametrize("kind, endpoint", [("pull", None), ("sqs", "https://52.94.0.10/123456789012/q"),
                                            ("rabbitmq", "orders/"), ("eventbridge", "bus")])
def test_kinds_without_a_signing_secret_are_refused(api, kind, endpoint):
    """R-rotateSubscriptionSecret-04, N5: pull and queue kinds → 422 no_secret_to_rotate; nothing stored."""
    sub_id = api.created(sink_kind=kind, **({"endpoint": endpoint} if endpoint else {}))["subscription"]["id"]
    problem(api.rotate(sub_id), 422, "no_secret_to_rotate")
    assert db_row(sub_id)["secret_current"] is None


def test_rotate_body_shape_and_cache_control(api, hook):
    """R-rotateSubscriptionSecret-05, R-rotateSubscriptionSecret-06, R-X-SEC-02: exactly {signingSecret,
    overlapUntil} and Cache-Control: private, no-store."""
    response = api.rotate(hook["subscription"]["id"])
    assert set(response.json()) == {"signingSecret", "overlapUntil"}
    assert response.headers["cache-control"] == "private, no-store"


def test_rotate_replay_returns_the_same_secret_without_rotating(api, hook):
    """R-rotateSubscriptionSecret-06, R-X-SEC-01, R-X-IDEM-03: same key → same bytes, no second rotation;
    no read route returns the new secret."""
    sub_id, key = hook["subscription"]["id"], new_key()
    first = api.rotate(sub_id, key=key)
    stored = db_row(sub_id)["secret_current"]
    again = api.rotate(sub_id, key=key)
    assert again.content == first.content and again.headers["x-idempotency-replayed"] == "true"
    assert again.headers["cache-control"] == "private, no-store"
    assert db_row(sub_id)["secret_current"] == stored
    secret = first.json()["signingSecret"]
    for response in (api.get(sub_id), api.list(), api.reveal(sub_id)):
        assert secret not in response.text


def test_rotate_requires_a_key(api, hook):
    """R-rotateSubscriptionSecret-07: no X-Idempotency → 400 and the secret is not rotated."""
    sub_id = hook["subscription"]["id"]
    stored = db_row(sub_id)["secret_current"]
    problem(api.rotate(sub_id, key=None), 400, "missing_idempotency_key")
    assert db_row(sub_id)["secret_current"] == stored


def test_read_projection_reports_rotation_and_restarts_the_window(api, hook):
    """R-rotateSubscriptionSecret-08, R-X-READ-05: secret_rotated_at moves, secret_overlap_until is the open
    window's end; a second rotation inside the window replaces previous and restarts it."""
    sub_id = hook["subscription"]["id"]
    first = api.rotate(sub_id).json()
    read = api.get(sub_id).json()["subscription"]
    assert _parse(read["secret_overlap_until"]) == _parse(first["overlapUntil"])
    assert _parse(read["secret_rotated_at"]) > _parse(hook["subscription"]["created_at"])
    second = api.rotate(sub_id).json()
    assert _parse(second["overlapUntil"]) > _parse(first["overlapUntil"])
    row = db_row(sub_id)
    assert unseal(row["secret_previous"], context=f"{sub_id}:secret_previous").decode() == first["signingSecret"]
    assert _parse(api.get(sub_id).json()["subscription"]["secret_overlap_until"]) == _parse(second["overlapUntil"])


def test_closed_window_reads_null(api, hook):
    """R-X-READ-05: once the overlap has passed, secret_overlap_until reads null again."""
    sub_id = hook["subscription"]["id"]
    api.rotate(sub_id)
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE subscriptions SET secret_overlap_until = now() - interval '1 minute' "
                                "WHERE id = :id"), {"id": sub_id})
    assert api.get(sub_id).json()["subscription"]["secret_overlap_until"] is None


def test_rotate_unknown_ids_are_uniform_404(api, make_token, hook):
    """R-rotateSubscriptionSecret-01, R-X-ORACLE-01: absent, deleted, foreign ids → the same 404."""
    deleted = hook["subscription"]["id"]
    api.delete(deleted)
    other = make_token(tenant_id=f"other-{uuid.uuid4().hex[:8]}")
    foreign = api.create({"name": "f", "sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK},
                         token=other).json()["subscription"]["id"]
    stored = db_row(foreign)["secret_current"]
    for sub_id in (str(new_id()), deleted, foreign):
        problem(api.rotate(sub_id), 404, "not_found")
    assert db_row(foreign)["secret_current"] == stored
