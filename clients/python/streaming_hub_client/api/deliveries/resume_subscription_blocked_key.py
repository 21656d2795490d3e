from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.resume_blocked_key_request import ResumeBlockedKeyRequest
from ...models.resume_blocked_key_response import ResumeBlockedKeyResponse
from ...models.resume_subscription_blocked_key_response_400 import (
    ResumeSubscriptionBlockedKeyResponse400,
)
from ...models.resume_subscription_blocked_key_response_401 import (
    ResumeSubscriptionBlockedKeyResponse401,
)
from ...models.resume_subscription_blocked_key_response_403 import (
    ResumeSubscriptionBlockedKeyResponse403,
)
from ...models.resume_subscription_blocked_key_response_404 import (
    ResumeSubscriptionBlockedKeyResponse404,
)
from ...models.resume_subscription_blocked_key_response_409 import (
    ResumeSubscriptionBlockedKeyResponse409,
)
from ...models.resume_subscription_blocked_key_response_422 import (
    ResumeSubscriptionBlockedKeyResponse422,
)
from ...models.resume_subscription_blocked_key_response_500 import (
    ResumeSubscriptionBlockedKeyResponse500,
)
from ...models.resume_subscription_blocked_key_response_503 import (
    ResumeSubscriptionBlockedKeyResponse503,
)
from ...models.resume_subscription_blocked_key_response_504 import (
    ResumeSubscriptionBlockedKeyResponse504,
)
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
    *,
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Idempotency"] = x_idempotency

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/subscriptions/{id}/blocked-keys/resume".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    ResumeBlockedKeyResponse
    | ResumeSubscriptionBlockedKeyResponse400
    | ResumeSubscriptionBlockedKeyResponse401
    | ResumeSubscriptionBlockedKeyResponse403
    | ResumeSubscriptionBlockedKeyResponse404
    | ResumeSubscriptionBlockedKeyResponse409
    | ResumeSubscriptionBlockedKeyResponse422
    | ResumeSubscriptionBlockedKeyResponse500
    | ResumeSubscriptionBlockedKeyResponse503
    | ResumeSubscriptionBlockedKeyResponse504
    | None
):
    if response.status_code == 200:
        response_200 = ResumeBlockedKeyResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ResumeSubscriptionBlockedKeyResponse400.from_dict(
            response.json()
        )

        return response_400

    if response.status_code == 401:
        response_401 = ResumeSubscriptionBlockedKeyResponse401.from_dict(
            response.json()
        )

        return response_401

    if response.status_code == 403:
        response_403 = ResumeSubscriptionBlockedKeyResponse403.from_dict(
            response.json()
        )

        return response_403

    if response.status_code == 404:
        response_404 = ResumeSubscriptionBlockedKeyResponse404.from_dict(
            response.json()
        )

        return response_404

    if response.status_code == 409:
        response_409 = ResumeSubscriptionBlockedKeyResponse409.from_dict(
            response.json()
        )

        return response_409

    if response.status_code == 422:
        response_422 = ResumeSubscriptionBlockedKeyResponse422.from_dict(
            response.json()
        )

        return response_422

    if response.status_code == 500:
        response_500 = ResumeSubscriptionBlockedKeyResponse500.from_dict(
            response.json()
        )

        return response_500

    if response.status_code == 503:
        response_503 = ResumeSubscriptionBlockedKeyResponse503.from_dict(
            response.json()
        )

        return response_503

    if response.status_code == 504:
        response_504 = ResumeSubscriptionBlockedKeyResponse504.from_dict(
            response.json()
        )

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    ResumeBlockedKeyResponse
    | ResumeSubscriptionBlockedKeyResponse400
    | ResumeSubscriptionBlockedKeyResponse401
    | ResumeSubscriptionBlockedKeyResponse403
    | ResumeSubscriptionBlockedKeyResponse404
    | ResumeSubscriptionBlockedKeyResponse409
    | ResumeSubscriptionBlockedKeyResponse422
    | ResumeSubscriptionBlockedKeyResponse500
    | ResumeSubscriptionBlockedKeyResponse503
    | ResumeSubscriptionBlockedKeyResponse504
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> Response[
    ResumeBlockedKeyResponse
    | ResumeSubscriptionBlockedKeyResponse400
    | ResumeSubscriptionBlockedKeyResponse401
    | ResumeSubscriptionBlockedKeyResponse403
    | ResumeSubscriptionBlockedKeyResponse404
    | ResumeSubscriptionBlockedKeyResponse409
    | ResumeSubscriptionBlockedKeyResponse422
    | ResumeSubscriptionBlockedKeyResponse500
    | ResumeSubscriptionBlockedKeyResponse503
    | ResumeSubscriptionBlockedKeyResponse504
]:
    """Resume a blocked key

     Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77.

    Args:
        id (UUID):
        x_idempotency (str):
        body (ResumeBlockedKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ResumeBlockedKeyResponse | ResumeSubscriptionBlockedKeyResponse400 | ResumeSubscriptionBlockedKeyResponse401 | ResumeSubscriptionBlockedKeyResponse403 | ResumeSubscriptionBlockedKeyResponse404 | ResumeSubscriptionBlockedKeyResponse409 | ResumeSubscriptionBlockedKeyResponse422 | ResumeSubscriptionBlockedKeyResponse500 | ResumeSubscriptionBlockedKeyResponse503 | ResumeSubscriptionBlockedKeyResponse504]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_idempotency=x_idempotency,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> (
    ResumeBlockedKeyResponse
    | ResumeSubscriptionBlockedKeyResponse400
    | ResumeSubscriptionBlockedKeyResponse401
    | ResumeSubscriptionBlockedKeyResponse403
    | ResumeSubscriptionBlockedKeyResponse404
    | ResumeSubscriptionBlockedKeyResponse409
    | ResumeSubscriptionBlockedKeyResponse422
    | ResumeSubscriptionBlockedKeyResponse500
    | ResumeSubscriptionBlockedKeyResponse503
    | ResumeSubscriptionBlockedKeyResponse504
    | None
):
    """Resume a blocked key

     Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77.

    Args:
        id (UUID):
        x_idempotency (str):
        body (ResumeBlockedKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ResumeBlockedKeyResponse | ResumeSubscriptionBlockedKeyResponse400 | ResumeSubscriptionBlockedKeyResponse401 | ResumeSubscriptionBlockedKeyResponse403 | ResumeSubscriptionBlockedKeyResponse404 | ResumeSubscriptionBlockedKeyResponse409 | ResumeSubscriptionBlockedKeyResponse422 | ResumeSubscriptionBlockedKeyResponse500 | ResumeSubscriptionBlockedKeyResponse503 | ResumeSubscriptionBlockedKeyResponse504
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        x_idempotency=x_idempotency,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> Response[
    ResumeBlockedKeyResponse
    | ResumeSubscriptionBlockedKeyResponse400
    | ResumeSubscriptionBlockedKeyResponse401
    | ResumeSubscriptionBlockedKeyResponse403
    | ResumeSubscriptionBlockedKeyResponse404
    | ResumeSubscriptionBlockedKeyResponse409
    | ResumeSubscriptionBlockedKeyResponse422
    | ResumeSubscriptionBlockedKeyResponse500
    | ResumeSubscriptionBlockedKeyResponse503
    | ResumeSubscriptionBlockedKeyResponse504
]:
    """Resume a blocked key

     Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77.

    Args:
        id (UUID):
        x_idempotency (str):
        body (ResumeBlockedKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ResumeBlockedKeyResponse | ResumeSubscriptionBlockedKeyResponse400 | ResumeSubscriptionBlockedKeyResponse401 | ResumeSubscriptionBlockedKeyResponse403 | ResumeSubscriptionBlockedKeyResponse404 | ResumeSubscriptionBlockedKeyResponse409 | ResumeSubscriptionBlockedKeyResponse422 | ResumeSubscriptionBlockedKeyResponse500 | ResumeSubscriptionBlockedKeyResponse503 | ResumeSubscriptionBlockedKeyResponse504]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_idempotency=x_idempotency,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> (
    ResumeBlockedKeyResponse
    | ResumeSubscriptionBlockedKeyResponse400
    | ResumeSubscriptionBlockedKeyResponse401
    | ResumeSubscriptionBlockedKeyResponse403
    | ResumeSubscriptionBlockedKeyResponse404
    | ResumeSubscriptionBlockedKeyResponse409
    | ResumeSubscriptionBlockedKeyResponse422
    | ResumeSubscriptionBlockedKeyResponse500
    | ResumeSubscriptionBlockedKeyResponse503
    | ResumeSubscriptionBlockedKeyResponse504
    | None
):
    """Resume a blocked key

     Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77.

    Args:
        id (UUID):
        x_idempotency (str):
        body (ResumeBlockedKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ResumeBlockedKeyResponse | ResumeSubscriptionBlockedKeyResponse400 | ResumeSubscriptionBlockedKeyResponse401 | ResumeSubscriptionBlockedKeyResponse403 | ResumeSubscriptionBlockedKeyResponse404 | ResumeSubscriptionBlockedKeyResponse409 | ResumeSubscriptionBlockedKeyResponse422 | ResumeSubscriptionBlockedKeyResponse500 | ResumeSubscriptionBlockedKeyResponse503 | ResumeSubscriptionBlockedKeyResponse504
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            x_idempotency=x_idempotency,
        )
    ).parsed
