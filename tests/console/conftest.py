"""The console in a real browser: Debian's chromium driven by Playwright, against ``hub api`` served
in a child process on the test database. Data is made through the API (and, for delivery jobs and
attempts, by the helpers that write what the engine writes)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hub.auth.tokens import mint_token
from tests.conftest import ALL_PERMISSIONS
from devkit.live import live_api

CHROMIUM = "/usr/bin/chromium"
# No sandbox (tests run as root in containers), no GPU, and nothing that phones home.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / ".local" / "console-screenshots"


@dataclass
class Console:
    """One browser page on the console, with every console error and page error it produced."""

    base: str
    page: object
    errors: list[str] = field(default_factory=list)
    expected: list[str] = field(default_factory=list)

    def expect_failed_loads(self, status: int) -> None:
        """Chromium logs every non-2xx fetch as a console error; a test provoking STATUS allows those."""
        self.expected.append(f"status of {status}")

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(allowed in e for allowed in self.expected)]

    def open(self, token: str, route: str = "") -> None:
        """Hand the token over in the fragment (never a query string), then go to ROUTE."""
        self.page.goto(f"{self.base}/console/#token={token}")
        self.page.wait_for_selector("main h1")
        if route:
            self.goto(route)

    def goto(self, route: str) -> None:
        self.page.evaluate("route => { window.location.hash = route; }", route)
        self.page.wait_for_function("route => window.location.hash === route", arg=route)

    def shot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="package")
def hub_base() -> Iterator[str]:
    """``hub api`` on a free port, on this run's database (HUB_DATABASE_URL). The hub's own AWS identity
    (for STS) is a test key moto accepts; the local broker's loopback address is allowed, the way a
    private deployment allows its own ranges (the RabbitMQ credential probe reaches it)."""
    env = {"HUB_DATABASE_URL": os.environ["HUB_DATABASE_URL"], "AWS_ACCESS_KEY_ID": "testing",
           "AWS_SECRET_ACCESS_KEY": "testing", "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8"}
    with live_api(env) as base:
        yield base


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    # Package scope, not session: Playwright's sync API keeps an event loop running in this thread
    # until it stops, and every later test's asyncio.run() would fail while it runs.
    # Fails (never skips) without the browser: `make test` installs it with deploy/local/tools.sh.
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run `bash deploy/local/tools.sh chromium`"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _collect(console: Console, page: object) -> None:
    page.on("console", lambda msg: msg.type == "error" and console.errors.append(msg.text))
    page.on("pageerror", lambda exc: console.errors.append(f"pageerror: {exc}"))
    # A dialog would mean injected script ran (the console itself never opens one).
    page.on("dialog", lambda dialog: (console.errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))


@contextmanager
def console_on(browser, base: str) -> Iterator[Console]:  # noqa: ANN001
    """A fresh browser context (empty sessionStorage) on the console at BASE; asserts no console error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="UTC")
    page = context.new_page()
    page.set_default_timeout(15_000)
    current = Console(base=base, page=page)
    _collect(current, page)
    try:
        yield current
    finally:
        context.close()
    assert current.unexpected_errors() == [], current.errors


@pytest.fixture
def console(browser, hub_base: str) -> Iterator[Console]:  # noqa: ANN001
    with console_on(browser, hub_base) as current:
        yield current


@pytest.fixture
def tenant_token(tenant: str) -> str:
    return mint_token(tenant=tenant, permissions=ALL_PERMISSIONS)


def fresh_tenant() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"
