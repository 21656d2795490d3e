"""Serves the console's static files at ``/console`` with a strict Content-Security-Policy.

The console is plain ES modules, CSS and one HTML page: no build step and no inline script, so the
policy allows scripts, styles and API calls from this origin only.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC_DIR = Path(__file__).parent / "static"
MOUNT_PATH = "/console"

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
))

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    # The token travels in the fragment, which never leaves the browser; no-referrer keeps even
    # the console's own paths out of other sites' logs.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


class ConsoleFiles(StaticFiles):
    """StaticFiles whose every answer (files, 404s) carries the console's security headers."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(SECURITY_HEADERS)
        return response


def install_console(app: FastAPI) -> None:
    """Mount the console under ``/console`` (kept out of the OpenAPI document)."""

    @app.get(MOUNT_PATH, include_in_schema=False)
    async def console_root() -> Response:
        # Relative module URLs in index.html resolve against /console/, so the bare path redirects.
        return RedirectResponse(f"{MOUNT_PATH}/", status_code=308, headers=SECURITY_HEADERS)

    @app.get(f"{MOUNT_PATH}/kinds.json", include_in_schema=False)
    async def console_kinds() -> Response:
        return JSONResponse({"kinds": kinds_for_console()}, headers=SECURITY_HEADERS)

    app.mount(f"{MOUNT_PATH}/", ConsoleFiles(directory=STATIC_DIR, html=True), name="console")


def kinds_for_console() -> list[dict[str, object]]:
    """Every kind of the provider registry, in its order, with what the console shows of it (N97): the console
    names no kind itself. A queue kind is one whose destination is connected (a credential or a grant)."""
    from hub.providers.registry import PROVIDERS

    return [{"kind": kind, "label": provider.label or kind, "endpointLabel": provider.endpoint_label,
             "endpointExample": provider.endpoint_example, "grantDestinationHint": provider.grant_destination_hint,
             "queue": bool(provider.takes_credential or provider.takes_grant), "takesGrant": provider.takes_grant}
            for kind, provider in PROVIDERS.items()]
