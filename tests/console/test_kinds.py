"""The console learns the sink kinds from the hub (issue 50, N97): GET /console/kinds.json reads the provider
registry, and the kind lists of the subscriptions filter, the queue form and the grant form come from it."""

from __future__ import annotations

import re

import httpx

from hub.console.serve import STATIC_DIR
from hub.providers.registry import PROVIDERS, kinds
from tests.console.conftest import Console

# The pages that used to list kinds themselves.
LISTING_PAGES = ("subscriptions.js", "queue-create.js", "grant.js", "connect.js")


def test_kinds_json_is_the_registry(hub_base: str) -> None:
    answer = httpx.get(f"{hub_base}/console/kinds.json", timeout=10)
    assert answer.status_code == 200 and "default-src 'none'" in answer.headers["content-security-policy"]
    listed = answer.json()["kinds"]
    assert [info["kind"] for info in listed] == list(kinds())
    for info in listed:
        provider = PROVIDERS[info["kind"]]
        assert info["label"] == provider.label and info["queue"] == (provider.takes_credential or provider.takes_grant)


def test_the_listing_pages_name_no_kind() -> None:
    named = re.compile("['\"](" + "|".join(map(re.escape, kinds())) + ")['\"]")
    for page in LISTING_PAGES:
        text = (STATIC_DIR / "js" / "pages" / page).read_text()
        assert not named.findall(text), f"{page} names {named.findall(text)}"


def test_the_forms_offer_the_registrys_kinds(console: Console, tenant_token: str) -> None:
    console.open(tenant_token)
    page = console.page
    page.locator("select[name=sink_kind] option").first.wait_for(state="attached")
    assert page.locator("select[name=sink_kind] option").evaluate_all("(os) => os.map((o) => o.value)") == ["", *kinds()]
    console.goto("#/subscriptions/new-queue")
    page.locator("#queue-kind option").first.wait_for(state="attached")
    queue = [kind for kind, provider in PROVIDERS.items() if provider.takes_credential or provider.takes_grant]
    assert page.locator("#queue-kind option").evaluate_all("(os) => os.map((o) => o.value)") == queue
    assert page.locator("label[for=queue-endpoint]").inner_text() == PROVIDERS[queue[0]].endpoint_label
