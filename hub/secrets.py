"""Secrets at rest: signing secrets and credentials sealed with AES-GCM under rotating, named keys.

Keys come from ``settings.encryption_keys`` (``HUB_ENCRYPTION_KEYS``): ``"key_id:base64(32 bytes)"`` entries,
newest first. The newest key seals; every listed key unseals; ``hub rekey`` re-seals old values
(:mod:`hub.subscription.rekey`, which knows which columns are sealed).

An envelope is ``"v1.<key_id>.<base64url(nonce || ciphertext+tag)>"`` (no padding). The ``context`` string is
bound as associated data, so a value copied to another row or field does not open. The convention is::

    f"{subscription_id}:secret_current"     # the webhook signing secret in use
    f"{subscription_id}:secret_previous"    # the secret kept for the rotation overlap
    f"{subscription_id}:credential"         # a queue sink's stored credential

Key material never appears in an error message or a log line.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from dataclasses import dataclass
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from hub.config import get_settings
from hub.errors import HubError

VERSION = "v1"
NONCE_BYTES = 12
TAG_BYTES = 16
_KEY_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class SecretsError(HubError):
    """A sealed value cannot be opened (tampered, wrong context, unknown key) or keys are misconfigured."""

    status, code, default_detail = 500, "internal_error", "a stored secret cannot be opened"


class SecretsConfigError(SecretsError):
    """``HUB_ENCRYPTION_KEYS`` is malformed; the message names the entry, never its material."""


@dataclass(frozen=True)
class _Keyring:
    newest: str
    keys: dict[str, AESGCM]


def _parse_entry(entry: str, index: int) -> tuple[str, AESGCM]:
    key_id, sep, material = entry.strip().partition(":")
    problem = "expected key_id:base64(32 bytes)"
    if not sep or not _KEY_ID.match(key_id):
        raise SecretsConfigError(f"HUB_ENCRYPTION_KEYS entry {index} is malformed: {problem}")
    try:
        raw = base64.b64decode(material, validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != 32:
        raise SecretsConfigError(f"HUB_ENCRYPTION_KEYS entry {index} ({key_id}) is malformed: {problem}")
    return key_id, AESGCM(raw)


@lru_cache(maxsize=4)
def _keyring_for(entries: tuple[str, ...]) -> _Keyring:
    if not entries:
        raise SecretsConfigError("HUB_ENCRYPTION_KEYS is empty: at least one key_id:base64(32 bytes) is needed")
    keys: dict[str, AESGCM] = {}
    for index, entry in enumerate(entries, start=1):
        key_id, aead = _parse_entry(entry, index)
        if key_id in keys:
            raise SecretsConfigError(f"HUB_ENCRYPTION_KEYS entry {index} repeats key id {key_id}")
        keys[key_id] = aead
    return _Keyring(newest=next(iter(keys)), keys=keys)


def keyring() -> _Keyring:
    """The configured keys, validated (SecretsConfigError names the setting). Call it at start-up too."""
    return _keyring_for(tuple(get_settings().encryption_keys))


def validate_encryption_keys() -> None:
    """Raise SecretsConfigError now if ``HUB_ENCRYPTION_KEYS`` is unusable (for start-up checks)."""
    keyring()


def mint_signing_secret() -> str:
    """A new webhook signing secret: standard padded base64 of 32 random bytes."""
    return base64.b64encode(os.urandom(32)).decode("ascii")


def _aad(context: str) -> bytes:
    if not context:
        raise SecretsError("a sealing context is required")
    return f"{VERSION}|{context}".encode()


def seal(plaintext: bytes | str, *, context: str) -> str:
    """Encrypt ``plaintext`` under the newest key, bound to ``context``; returns the ASCII envelope."""
    data = plaintext.encode() if isinstance(plaintext, str) else bytes(plaintext)
    ring = keyring()
    nonce = os.urandom(NONCE_BYTES)
    sealed = nonce + ring.keys[ring.newest].encrypt(nonce, data, _aad(context))
    return f"{VERSION}.{ring.newest}.{base64.urlsafe_b64encode(sealed).rstrip(b'=').decode('ascii')}"


def _split(envelope: str) -> tuple[str, bytes]:
    parts = envelope.split(".") if isinstance(envelope, str) else []
    if len(parts) != 3 or parts[0] != VERSION or not _KEY_ID.match(parts[1]):
        raise SecretsError("a stored secret has an unknown envelope format")
    try:
        blob = base64.urlsafe_b64decode(parts[2] + "=" * (-len(parts[2]) % 4))
    except (binascii.Error, ValueError):
        raise SecretsError("a stored secret has an unknown envelope format") from None
    if len(blob) < NONCE_BYTES + TAG_BYTES:
        raise SecretsError("a stored secret is truncated")
    return parts[1], blob


def unseal(envelope: str, *, context: str) -> bytes:
    """Decrypt an envelope made by :func:`seal` with any configured key; SecretsError if it does not open."""
    key_id, blob = _split(envelope)
    aead = keyring().keys.get(key_id)
    if aead is None:
        raise SecretsError(f"a stored secret is sealed under key {key_id}, which is not configured")
    try:
        return aead.decrypt(blob[:NONCE_BYTES], blob[NONCE_BYTES:], _aad(context))
    except InvalidTag:
        raise SecretsError("a stored secret does not open (tampered or wrong context)") from None


def needs_rekey(envelope: str) -> bool:
    """True when ``envelope`` was sealed under a key other than the newest one."""
    key_id, _ = _split(envelope)
    return key_id != keyring().newest
