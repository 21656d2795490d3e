"""What a key answers after its mutation's outcome went unrecorded, and where a replay says so.

R-X-IDEM-06, R-createSubscription-30: a COMMIT whose outcome the hub cannot know answers 500
``idempotency_outcome_unrecorded``; the same key then answers 409 ``idempotency_outcome_unrecorded``
when the mutation did not land, and replays the answer when it did.
R-X-IDEM-10: ``X-Idempotency-Replayed`` is on replays of the statuses the contract declares it on.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from hub.config import get_settings
from hub.db import get_engine
from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, db_row, new_key, problem
from devkit.pgproxy import PgProxy, pg_proxy


@pytest.fixture
def proxied_database(override_settings) -> Iterator[PgProxy]:
    """The hub reaches PostgreSQL through a proxy that can cut a connection at COMMIT."""
    url = get_settings().database_url
    parts = urlsplit(url)
    with pg_proxy((parts.hostname, parts.port or 5432)) as proxy:
        host, port = proxy.address
        override_settings(database_url=url.replace(f"@{parts.hostname}:{parts.port}", f"@{host}:{port}", 1))
        get_engine.cache_clear()
        try:
            yield proxy
        finally:
            get_engine().dispose()
            get_engine.cache_clear()  # the next test builds its engine from the restored settings


def test_unlanded_commit_answers_409_unrecorded_for_its_key(api, allow_loopback, proxied_database):
    """The connection drops before the COMMIT reaches the server: 500 unrecorded (detail says to read
    first), nothing changed, and the same key now answers 409 idempotency_outcome_unrecorded."""
    sub_id = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]
    sealed_before = db_row(sub_id)["secret_rotated_at"]
    key = new_key()
    proxied_database.cut_next_commit(before=True)
    failed = problem(api.rotate(sub_id, key=key), 500, "idempotency_outcome_unrecorded")
    assert "read the resource" in failed["detail"] and proxied_database.cuts == 1
    assert db_row(sub_id)["secret_rotated_at"] == sealed_before
    retried = api.rotate(sub_id, key=key)
    assert "read the resource" in problem(retried, 409, "idempotency_outcome_unrecorded")["detail"]
    assert "x-idempotency-replayed" not in retried.headers
    assert db_row(sub_id)["secret_rotated_at"] == sealed_before
    assert api.rotate(sub_id).status_code == 200  # a new key re-drives it


def test_landed_commit_is_replayed_for_its_key(api, allow_loopback, proxied_database):
    """The COMMIT lands but its reply is lost: 500 unrecorded; the same key replays the stored 200
    (the new secret) with X-Idempotency-Replayed, so the client learns what happened."""
    sub_id = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]
    rotated_before, key = db_row(sub_id)["secret_rotated_at"], new_key()
    proxied_database.cut_next_commit(before=False)
    problem(api.rotate(sub_id, key=key), 500, "idempotency_outcome_unrecorded")
    assert db_row(sub_id)["secret_rotated_at"] != rotated_before
    replay = api.rotate(sub_id, key=key)
    assert replay.status_code == 200 and replay.headers["x-idempotency-replayed"] == "true"
    assert replay.json()["signingSecret"]


def test_replay_header_only_where_the_contract_declares_it(api, make_token):
    """R-X-IDEM-10: a stored 422 (rotate on a pull) and a stored 404 (patch of an absent id) replay the
    same bytes without X-Idempotency-Replayed; a stored 200/204/201/409 replay carries it."""
    pull = api.created()["subscription"]["id"]
    key = new_key()
    first = problem(api.rotate(pull, key=key), 422, "no_secret_to_rotate")
    replay = api.rotate(pull, key=key)
    assert replay.status_code == 422 and replay.json() == first and "x-idempotency-replayed" not in replay.headers
    absent, key = "01900000-0000-7000-8000-000000000000", new_key()
    first = problem(api.patch(absent, {"schema_major": 1}, key=key), 404, "not_found")
    replay = api.patch(absent, {"schema_major": 1}, key=key)
    assert replay.status_code == 404 and "x-idempotency-replayed" not in replay.headers
    key = new_key()
    assert api.patch(pull, {"schema_major": 2}, key=key).status_code == 200
    assert api.patch(pull, {"schema_major": 2}, key=key).headers["x-idempotency-replayed"] == "true"
    key = new_key()
    assert api.delete(pull, key=key).status_code == 204
    assert api.delete(pull, key=key).headers["x-idempotency-replayed"] == "true"
