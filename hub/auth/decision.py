"""Client of the optional external access decision service (docs/contract-notes.md N15)."""

from __future__ import annotations

import httpx

from hub.config import get_settings
from hub.errors import DecisionTimeout, DecisionUnavailable

RETRY_AFTER = {"Retry-After": "2"}


def ask_decision_service(*, subject: str, tenant: str | None, resource: str, action: str) -> bool:
    """True when the service allows; raises when it does not decide or does not answer in time."""
    settings = get_settings()
    payload = {"subject": subject, "tenant": tenant, "resource": resource, "action": action}
    try:
        response = httpx.post(
            settings.decision_service_url, json=payload, timeout=settings.decision_service_timeout_seconds
        )
    except httpx.TimeoutException as exc:
        raise DecisionTimeout() from exc
    except httpx.HTTPError as exc:
        raise DecisionUnavailable(headers=RETRY_AFTER) from exc
    if response.status_code != 200:
        raise DecisionUnavailable(headers=RETRY_AFTER)
    try:
        allow = response.json().get("allow")
    except (ValueError, AttributeError):
        allow = None
    if not isinstance(allow, bool):
        raise DecisionUnavailable(headers=RETRY_AFTER)
    return allow
