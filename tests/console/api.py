"""Making the console tests' data through the hub's API (httpx, the tenant's token)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import text

from hub.db import get_engine
from hub.sinks.vocabulary import Outcome
from tests.subscriptions.conftest import PUBLIC_WEBHOOK
from devkit.deliveries import add_event, add_job, now, record_attempt


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "X-Idempotency": str(uuid.uuid4())}


def create_webhook(base: str, token: str, **fields: Any) -> dict[str, Any]:
    """A webhook subscription made through POST /v1/subscriptions; returns its 201 body."""
    body = {"sink_kind": "webhook", "name": f"sub-{uuid.uuid4().hex[:8]}", "endpoint": PUBLIC_WEBHOOK, **fields}
    answer = httpx.post(f"{base}/v1/subscriptions", json=body, headers=headers(token), timeout=30)
    assert answer.status_code == 201, answer.text
    return answer.json()


def delivery_options(base: str, token: str, sub_id: str) -> dict[str, Any]:
    """GET /v1/subscriptions/{id}/delivery-options (N67)."""
    answer = httpx.get(f"{base}/v1/subscriptions/{sub_id}/delivery-options",
                       headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def activate(sub_id: str) -> None:
    """Mark the subscription verified, as a successful verification would (resend needs it active)."""
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE subscriptions SET verification_state = 'active', enabled = true WHERE id = :id"),
                           {"id": sub_id})


def failed_job(tenant: str, sub_id: str, *, event_type: str = "transaction.posted", detail: str | None = None) -> str:
    """An event, its job and one failed attempt (what the engine records), an hour ago; the job id."""
    at = now() - timedelta(hours=1)
    seq = add_event(tenant, received_at=at, event_type=event_type)
    job = add_job(tenant, sub_id, event_seq=seq, created_at=at)
    record_attempt(tenant, sub_id, Outcome.failed, at=at + timedelta(seconds=1), job_id=job, event_seq=seq)
    if detail is not None:
        with get_engine().begin() as connection:
            connection.execute(text("UPDATE delivery_attempts SET detail = :d WHERE job_id = :j"), {"d": detail, "j": job})
    return str(job)
