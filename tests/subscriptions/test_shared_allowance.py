"""Allowance A is one budget for the catalog and the subscription reads (R-X-RATE-01, R-getCatalog-05)."""

from __future__ import annotations

from tests.subscriptions.conftest import problem


def test_catalog_and_subscription_reads_draw_on_one_allowance(api, override_settings, make_token):
    """R-X-RATE-01, R-X-RATE-02: with A = 4 per window, two catalog reads and two subscription reads spend
    it (Remaining counts down across both); then both the catalog and every subscription read get 429,
    while another tenant's allowance is untouched and mutations are not metered."""
    sub_id = api.created()["subscription"]["id"]
    override_settings(rate_limit_reads=4, rate_limit_window_seconds=3600)
    headers = api.headers(None)
    remaining = []
    for response in (api.client.get("/v1/catalog", headers=headers), api.list(), api.client.get(
            "/v1/catalog", headers=headers), api.get(sub_id)):
        assert response.status_code == 200, response.text
        assert response.headers["X-RateLimit-Limit"] == "4"
        remaining.append(int(response.headers["X-RateLimit-Remaining"]))
    assert remaining == [3, 2, 1, 0]
    for refused in (api.client.get("/v1/catalog", headers=headers), api.list(), api.get(sub_id), api.reveal(sub_id)):
        problem(refused, 429, "rate_limited")
        assert refused.headers["X-RateLimit-Remaining"] == "0" and int(refused.headers["Retry-After"]) >= 1
    assert api.patch(sub_id, {"schema_major": 2}).status_code == 200
    other = {"Authorization": f"Bearer {make_token(tenant_id='t-other-' + sub_id[-12:])}"}
    assert api.client.get("/v1/catalog", headers=other).status_code == 200
