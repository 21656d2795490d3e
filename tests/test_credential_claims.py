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
