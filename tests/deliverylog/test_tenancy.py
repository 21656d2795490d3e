"""Every delivery-log route answers the uniform 404 for another tenant's (or another subscription's) ids."""

from __future__ import annotations

from datetime import timedelta

import pytest

from hub.sinks.vocabulary import Outcome
from tests.dashboard.conftest import webhook
from tests.deliverylog.conftest import new_tenant_api, seed_job
from devkit.deliveries import now
from tests.subscriptions.conftest import Api


def _calls(sub: str, job: str, recovery: str) -> list[tuple[str, str, dict | None]]:
    base = f"/v1/subscriptions/{sub}"
    return [("GET", f"{base}/deliveries", None), ("GET", f"{base}/deliveries/{job}", None),
            ("POST", f"{base}/deliveries/{job}/resend", None),
            ("POST", f"{base}/recover", {"since": (now() - timedelta(days=1)).isoformat()}),
            ("GET", f"{base}/recoveries/{recovery}", None)]


def _call(api: Api, method: str, path: str, body: dict | None):  # noqa: ANN202
    return api.client.request(method, path, json=body, headers=api.headers("new" if method == "POST" else None))


@pytest.fixture
def owned(api: Api, sub: str, tenant: str) -> tuple[str, str, str]:
    job = seed_job(tenant, sub, at=now() - timedelta(hours=1), outcomes=(Outcome.dead_lettered,))
    accepted = _call(api, "POST", f"/v1/subscriptions/{sub}/recover",
                     {"since": (now() - timedelta(days=1)).isoformat()})
    assert accepted.status_code == 202, accepted.text
    return sub, job["id"], accepted.json()["recovery"]["id"]


def test_another_tenant_gets_the_uniform_404_on_every_route(client, make_token, owned) -> None:  # noqa: ANN001
    stranger = new_tenant_api(client, make_token)
    for method, path, body in _calls(*owned):
        answer = _call(stranger, method, path, body)
        assert answer.status_code == 404, (method, path, answer.text)
        assert answer.json()["code"] == "not_found"


def test_another_subscriptions_job_and_recovery_are_not_found(api: Api, owned) -> None:  # noqa: ANN001
    _, job, recovery = owned
    other = webhook(api)
    for method, path, body in _calls(other, job, recovery)[1:]:
        if path.endswith("/recover"):
            continue
        answer = _call(api, method, path, body)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", (method, path)


def test_malformed_ids_are_the_uniform_404(api: Api, sub: str) -> None:
    for method, path, body in _calls(sub, "not-a-uuid", "nor-this"):
        if path.endswith(("/deliveries", "/recover")):
            continue
        answer = _call(api, method, path, body)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", (method, path)
