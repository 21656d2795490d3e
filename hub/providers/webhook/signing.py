"""Standard Webhooks signature version 1 over the exact bytes sent.

``webhook-signature`` is ``v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + body)>``;
during a rotation overlap a second value follows, space-separated, current secret first. A
signing secret is the standard base64 of its key bytes (a receiver passes ``whsec_<secret>`` to
the ``standardwebhooks`` library).
"""

from __future__ import annotations

import base64
import hmac
from collections.abc import Sequence
from functools import lru_cache


@lru_cache(maxsize=4096)
def secret_key(secret: str) -> bytes:
    """The HMAC key a signing secret encodes (a ``whsec_`` prefix is tolerated)."""
    return base64.b64decode(secret.removeprefix("whsec_"))


def signature_header(secrets: Sequence[str], message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value: one ``v1,`` signature per secret, in the order given."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    return " ".join(
        "v1," + base64.b64encode(hmac.digest(secret_key(secret), signed, "sha256")).decode("ascii")
        for secret in secrets
    )
