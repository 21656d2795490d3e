"""How an event-type list claim is read (hub.auth.credentials): absent, null and lists of strings mean
what they always meant; any other shape is an invalid credential (docs/contract-notes.md N33, N41)."""

from __future__ import annotations

from typing import Any

import pytest

from hub.auth.credentials import ANY_TYPE, Credential
from hub.auth.tokens import Principal
from hub.errors import InvalidToken

CLAIM = "consume_event_types"
ABSENT = object()


def credential(value: Any) -> Credential:
    claims = {} if value is ABSENT else {CLAIM: value}
    return Credential(Principal(subject="s", tenant_id="t"), claims)


@pytest.mark.parametrize(("value", "default", "expected"), [
    (ABSENT, None, frozenset()),
    (ABSENT, [ANY_TYPE], frozenset({ANY_TYPE})),
    (None, None, frozenset()),
    (None, [ANY_TYPE], frozenset()),
    ([], None, frozenset()),
    (["a.b", "c.d", ""], None, frozenset({"a.b", "c.d"})),
    ("a.b", None, frozenset({"a.b"})),
])
def test_shapes_that_name_event_types(value: Any, default: list[str] | None, expected: frozenset[str]) -> None:
    assert credential(value).event_types(CLAIM, default) == expected


@pytest.mark.parametrize("value", [5, 1.5, True, {"a": 1}, {}, ["ok", 3], ["ok", None], [["a.b"]]])
def test_any_other_shape_is_an_invalid_token(value: Any) -> None:
    with pytest.raises(InvalidToken) as raised:
        credential(value).event_types(CLAIM, [ANY_TYPE])
    assert raised.value.code == InvalidToken.code and CLAIM in raised.value.detail


def test_a_token_read_again_reuses_its_credential(monkeypatch) -> None:
    """N66: the same token read again gives the same credential (its event types read once); new
    settings, or claims that verify differently, give a fresh one; a malformed claim refuses each time."""
    from hub.auth import credentials
    from hub.auth.tokens import mint_token
    from hub.config import get_settings

    token = mint_token(tenant="t", permissions=[], claims={CLAIM: ["a.b"], "bad": 5})
    first = credentials.read_credential(f"Bearer {token}")
    again = credentials.read_credential(f"Bearer {token}")
    assert again is first and again.event_types(CLAIM) is first.event_types(CLAIM) == frozenset({"a.b"})
    for _ in range(2):
        with pytest.raises(InvalidToken):
            again.event_types("bad")
    fresh_settings = get_settings().model_copy()
    monkeypatch.setattr(credentials, "get_settings", lambda: fresh_settings)
    assert credentials.read_credential(f"Bearer {token}") is not first
    other = mint_token(tenant="t2", permissions=[], claims={CLAIM: ["a.b"]})
    assert credentials.read_credential(f"Bearer {other}").principal.tenant_id == "t2"
