"""The console on a phone (issue 50): at 375 px the subscriptions list is a column of cards, each field led
by its column's heading; nothing runs off the screen and the health badge stays in view."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.console.api import create_webhook
from tests.console.conftest import Console, _collect

PHONE = {"width": 375, "height": 740}


@pytest.fixture
def phone(browser, hub_base: str) -> Iterator[Console]:  # noqa: ANN001
    context = browser.new_context(viewport=PHONE, timezone_id="UTC", device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(15_000)
    current = Console(base=hub_base, page=page)
    _collect(current, page)
    try:
        yield current
    finally:
        context.close()
    assert current.unexpected_errors() == [], current.errors


def test_the_subscriptions_list_is_cards_within_the_screen(phone: Console, tenant_token: str) -> None:
    names = [create_webhook(phone.base, tenant_token, name=f"a-rather-long-subscription-name-{n}")["subscription"]["name"]
             for n in range(2)]
    phone.open(tenant_token)
    page = phone.page
    for name in names:
        page.get_by_role("link", name=name).wait_for()
    page.wait_for_function("() => ![...document.querySelectorAll('td .badge')].some(b => b.textContent === '…')")
    overflow = page.evaluate("""() => {
        const wrap = document.querySelector('.table-wrap');
        const outside = [...document.querySelectorAll('td')].filter((td) => {
            const box = td.getBoundingClientRect();
            return box.width > 0 && (box.left < 0 || box.right > window.innerWidth + 0.5);
        }).map((td) => td.dataset.label);
        return {page: document.documentElement.scrollWidth, wrap: wrap.scrollWidth - wrap.clientWidth, outside};
    }""")
    assert overflow == {"page": PHONE["width"], "wrap": 0, "outside": []}, overflow
    health = page.locator("tr", has_text=names[0]).locator("td[data-label='Health'] .badge").last
    box = health.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    label = page.evaluate("(el) => getComputedStyle(el, '::before').content",
                          page.locator("tr", has_text=names[0]).locator("td[data-label='Health']").element_handle())
    assert label == '"Health"'  # each field led by its heading
    phone.shot("subscriptions-375")
