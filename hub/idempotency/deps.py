"""The route dependency that reads ``X-Idempotency`` and fingerprints the request."""


from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request

from hub.auth.tokens import Principal
from hub.errors import BadRequest, MissingIdempotencyKey
from hub.idempotency.service import IdempotentRequest, fingerprint

MAX_KEY_LENGTH = 255


def idempotency_key(
    principal_dependency: Callable[..., Principal], *, replayed_on: tuple[int, ...],
) -> Callable[..., Awaitable[IdempotentRequest]]:
    """A dependency: the caller is authorized first, then the key is required (R-X-IDEM-01/02).

    ``replayed_on`` lists the statuses the operation declares ``X-Idempotency-Replayed`` on
    (R-X-IDEM-10); the replay of any other stored answer does not carry it.

    The header is read here rather than declared as a FastAPI parameter, so a missing key is
    the hub's ``400 missing_idempotency_key`` and not a framework 422.
    """

    async def dependency(
        request: Request, principal: Annotated[Principal, Depends(principal_dependency)]
    ) -> IdempotentRequest:
        key = request.headers.get("x-idempotency")
        if key is None or not key.strip():
            raise MissingIdempotencyKey()
        if len(key) > MAX_KEY_LENGTH:
            raise BadRequest(f"the X-Idempotency key is longer than {MAX_KEY_LENGTH} characters")
        body = await request.body()
        assert principal.tenant_id is not None
        return IdempotentRequest(
            tenant_id=principal.tenant_id, key=key,
            fingerprint=fingerprint(method=request.method, path=request.url.path,
                                    query=request.url.query, body=body),
            replayed_on=frozenset(replayed_on),
        )

    return dependency
