"""seal/unseal/needs_rekey and the key list: AES-GCM envelopes bound to a context, rotating keys.

R-X-SEC-03 / R-createSubscription-23: secrets are stored only as ciphertext (the envelope never holds the
clear value) and open only with a configured key and the exact context they were sealed for.
"""

from __future__ import annotations

import base64
import logging
import re

import pytest

from hub.secrets import (
    SecretsConfigError,
    SecretsError,
    mint_signing_secret,
    needs_rekey,
    seal,
    unseal,
    validate_encryption_keys,
)
from tests.secrets.conftest import material, new_key

ENVELOPE = re.compile(r"^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$")


def test_round_trip_of_text_and_bytes_R_X_SEC_03(use_keys) -> None:
    """R-X-SEC-03: a sealed value is ASCII ciphertext under the newest key and opens to the original."""
    key = new_key("alpha")
    use_keys(key)
    secret = mint_signing_secret()
    envelope = seal(secret, context="sub-1:secret_current")
    match = ENVELOPE.match(envelope)
    assert match and match.group(1) == "alpha"
    assert secret not in envelope and material(key) not in envelope
    assert len(base64.urlsafe_b64decode(match.group(2) + "==")) == 12 + 44 + 16  # nonce + ciphertext + tag
    assert unseal(envelope, context="sub-1:secret_current") == secret.encode()
    assert unseal(seal(b"\x00\xffraw", context="c"), context="c") == b"\x00\xffraw"
    assert seal(secret, context="c") != seal(secret, context="c"), "every seal needs a fresh nonce"


def test_wrong_context_does_not_open_R_createSubscription_23(use_keys) -> None:
    """R-createSubscription-23: a value copied to another row or field does not open there."""
    use_keys(new_key())
    envelope = seal("s3cret", context="sub-1:secret_current")
    for other in ("sub-1:secret_previous", "sub-2:secret_current", "sub-1:credential", ""):
        with pytest.raises(SecretsError):
            unseal(envelope, context=other)


def test_any_tampering_is_detected(use_keys) -> None:
    use_keys(new_key("alpha"), new_key("beta"))
    envelope = seal("s3cret", context="ctx")
    _, key_id, body = envelope.split(".")
    blob = bytearray(base64.urlsafe_b64decode(body + "=="))
    for position in (0, 11, 12, len(blob) - 17, len(blob) - 1):  # nonce, ciphertext, tag
        changed = bytearray(blob)
        changed[position] ^= 0x01
        forged = f"v1.{key_id}.{base64.urlsafe_b64encode(bytes(changed)).rstrip(b'=').decode()}"
        with pytest.raises(SecretsError):
            unseal(forged, context="ctx")
    for forged in (envelope.replace("v1.alpha.", "v1.beta.", 1), envelope.replace("v1.", "v2.", 1),
                   envelope[:40], "v1.alpha.", "plain-text-secret", f"v1.alpha.{body[:20]}", envelope + ".x"):
        with pytest.raises(SecretsError):
            unseal(forged, context="ctx")


def test_rotation_newest_seals_every_key_opens(use_keys) -> None:
    old, new = new_key("old"), new_key("new")
    use_keys(old)
    sealed_old = seal("value", context="ctx")
    assert not needs_rekey(sealed_old)

    use_keys(new, old)
    assert unseal(sealed_old, context="ctx") == b"value"
    assert needs_rekey(sealed_old)
    sealed_new = seal("value", context="ctx")
    assert sealed_new.startswith("v1.new.") and not needs_rekey(sealed_new)

    use_keys(new)
    with pytest.raises(SecretsError, match="key old"):
        unseal(sealed_old, context="ctx")
    assert unseal(sealed_new, context="ctx") == b"value"


def test_same_key_id_with_other_material_does_not_open(use_keys) -> None:
    use_keys(new_key("same"))
    envelope = seal("value", context="ctx")
    use_keys(new_key("same"))
    with pytest.raises(SecretsError):
        unseal(envelope, context="ctx")


@pytest.mark.parametrize("entries", [
    [""], ["nocolon"], ["bad id:" + material(new_key())], ["short:" + base64.b64encode(b"x" * 16).decode()],
    ["notb64:!!!!" + material(new_key())[4:]], ["id.with.dots:" + material(new_key())],
    ["ok:" + material(new_key()), "ok:" + material(new_key())], ["long:" + base64.b64encode(b"y" * 33).decode()],
])
def test_malformed_key_lists_name_the_setting_without_material(use_keys, entries: list[str]) -> None:
    use_keys(*entries)
    with pytest.raises(SecretsConfigError) as caught:
        validate_encryption_keys()
    message = str(caught.value)
    assert "HUB_ENCRYPTION_KEYS" in message
    for entry in entries:
        if ":" in entry:
            assert entry.split(":", 1)[1] not in message
    with pytest.raises(SecretsConfigError):
        seal("x", context="ctx")


def test_minted_signing_secret_is_padded_base64_of_32_random_bytes() -> None:
    secrets = {mint_signing_secret() for _ in range(50)}
    assert len(secrets) == 50
    for secret in secrets:
        assert re.fullmatch(r"[A-Za-z0-9+/]{43}=", secret)
        assert len(base64.b64decode(secret, validate=True)) == 32


def test_minted_secret_verifies_with_standard_webhooks() -> None:
    """N22: a receiver can pass ``whsec_<secret>`` to the standardwebhooks library."""
    from datetime import UTC, datetime

    from standardwebhooks.webhooks import Webhook

    secret = mint_signing_secret()
    hook = Webhook(f"whsec_{secret}")
    now = datetime.now(UTC)
    signature = hook.sign("msg_1", now, '{"a":1}')
    headers = {"webhook-id": "msg_1", "webhook-timestamp": str(int(now.timestamp())), "webhook-signature": signature}
    assert hook.verify('{"a":1}', headers) == {"a": 1}


def test_key_material_never_reaches_logs_or_errors(use_keys, caplog: pytest.LogCaptureFixture) -> None:
    old, new = new_key("old"), new_key("new")
    caplog.set_level(logging.DEBUG)
    use_keys(old)
    sealed = seal("value", context="ctx")
    use_keys(new, old)
    unseal(sealed, context="ctx")
    errors = []
    for bad in ("v1.old.AAAA", "v1.gone." + "A" * 40, sealed):
        try:
            unseal(bad, context="other")
        except SecretsError as exc:
            errors.append(repr(exc) + exc.detail)
    text = caplog.text + "".join(errors)
    assert len(errors) == 3
    assert material(old) not in text and material(new) not in text
