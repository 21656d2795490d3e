"""Standard Webhooks signature version 1 over the exact bytes sent.

``webhook-signature`` is ``v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + body)>``;
during a rotation overlap a second value follows, space-separated, current secret first. A
signing secret is the standard base64 of its key bytes (a receiver passes ``whsec_<secret>`` to
the ``standardwebhooks`` library).
"""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Sequence
from functools import lru_cache


@lru_cache(maxsize=4096)
def secret_key(secret: str) -> bytes:
    """The HMAC key a signing secret encodes (a ``whsec_`` prefix is tolerated)."""
    return base64.b64decode(secret.removeprefix("whsec_"))


@lru_cache(maxsize=4096)
def _keyed_hmac(secret: str) -> hmac.HMAC:
    """An HMAC-SHA256 context already keyed with the secret's key: copying it is cheaper than keying anew
    (and than the one-shot ``hmac.digest``, which looks the digest up by name on every call)."""
    return hmac.new(secret_key(secret), digestmod="sha256")


def _signature(secret: str, prefix: bytes, body: bytes) -> str:
    mac = _keyed_hmac(secret).copy()
    mac.update(prefix)
    mac.update(body)
    return "v1," + binascii.b2a_base64(mac.digest(), newline=False).decode("ascii")


def signature_header(secrets: Sequence[str], message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value: one ``v1,`` signature per secret, in the order given."""
    prefix = f"{message_id}.{timestamp}.".encode()
    return " ".join([_signature(secret, prefix, body) for secret in secrets])
