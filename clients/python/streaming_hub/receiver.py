"""Verify a webhook delivery of the hub (Standard Webhooks) with the subscription's signing secrets."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError


class WebhookReceiver:
    """Verifies deliveries with any of SECRETS (the ``signingSecret`` values, ``whsec_`` prefix or not).

    While a rotation's overlap lasts the hub signs each delivery with both the new and the previous secret
    (one ``v1,`` signature each in ``webhook-signature``), so a receiver keeps both here until the overlap
    ends: deliveries verify whichever of the two it has, and whatever the hub signed before or after."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._verifiers = [Webhook(secret) for secret in secrets]
        if not self._verifiers:
            raise ValueError("give at least one signing secret")

    def verify(self, body: bytes, headers: Mapping[str, str], *, json_parse: bool = True) -> Any:
        """The delivery's body parsed as JSON (JSON_PARSE) or None, once a secret verifies its signature
        and its timestamp is within five minutes; else ``WebhookVerificationError``. BODY is the request's
        body as received, byte for byte."""
        failure: WebhookVerificationError | None = None
        for verifier in self._verifiers:
            try:
                return verifier.verify(body, dict(headers), json_parse=json_parse)
            except WebhookVerificationError as exc:
                failure = exc
        assert failure is not None
        raise failure
