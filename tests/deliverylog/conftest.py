"""Fixtures of the delivery-log tests: a tenant's API, webhook subscriptions, jobs with attempts."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text

from hub.db import get_engine
from hub.sinks.vocabulary import Outcome
from tests.dashboard.conftest import webhook
from tests.subscriptions.conftest import Api
from devkit.deliveries import add_event, add_job, now, record_attempt


@pytest.fixture
def api(client, make_token) -> Api:  # noqa: ANN001
    return Api(client=client, token=make_token())


@pytest.fixture
def sub(api: Api) -> str:
    return webhook(api)


def ce_id(tenant: str, seq: int) -> str:
    with get_engine().connect() as connection:
        return connection.execute(text("SELECT ce_id FROM event_log WHERE tenant_id = :t AND seq = :s"),
                                  {"t": tenant, "s": seq}).scalar_one()


def seed_job(tenant: str, sub_id: str, *, at: datetime, outcomes: tuple[Outcome, ...] = (),
             event_type: str = "transaction.posted") -> dict[str, Any]:
    """An event, its job created at ``at``, and one attempt per outcome (a second apart)."""
    seq = add_event(tenant, received_at=at, event_type=event_type)
    job = add_job(tenant, sub_id, event_seq=seq, created_at=at)
    for number, outcome in enumerate(outcomes, start=1):
        record_attempt(tenant, sub_id, outcome, at=at + timedelta(seconds=number), job_id=job, event_seq=seq,
                       attempt_no=number)
    return {"id": str(job), "seq": seq, "ce_id": ce_id(tenant, seq)}


def seed_many(tenant: str, sub_id: str, count: int, *, start: datetime | None = None) -> list[str]:
    """``count`` pending jobs a minute apart (oldest first); returns their ids."""
    base = start or now() - timedelta(days=1)
    return [seed_job(tenant, sub_id, at=base + timedelta(minutes=i))["id"] for i in range(count)]


def deliveries(api: Api, sub_id: str, **params: Any) -> Any:
    return api.client.get(f"/v1/subscriptions/{sub_id}/deliveries", params=params, headers=api.headers(None))


def walk(api: Api, sub_id: str, between: Any = None, **params: Any) -> list[str]:
    """Every job id, page after page; ``between()`` runs after each page."""
    seen: list[str] = []
    cursor = ""
    while True:
        page = deliveries(api, sub_id, **params, **({"after": cursor} if cursor else {}))
        assert page.status_code == 200, page.text
        seen += [job["id"] for job in page.json()["deliveries"]]
        cursor = page.json()["next_cursor"]
        if between is not None:
            between()
        if not cursor:
            return seen


def new_tenant_api(client, make_token) -> Api:  # noqa: ANN001
    return Api(client=client, token=make_token(tenant_id=f"t-{uuid.uuid4().hex[:12]}"))
