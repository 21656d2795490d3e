from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.rotate_secret_response import RotateSecretResponse
from ...models.rotate_subscription_secret_response_400 import (
    RotateSubscriptionSecretResponse400,
)
from ...models.rotate_subscription_secret_response_401 import (
    RotateSubscriptionSecretResponse401,
)
from ...models.rotate_subscription_secret_response_403 import (
    RotateSubscriptionSecretResponse403,
)
from ...models.rotate_subscription_secret_response_404 import (
    RotateSubscriptionSecretResponse404,
)
from ...models.rotate_subscription_secret_response_409 import (
    RotateSubscriptionSecretResponse409,
)
from ...models.rotate_subscription_secret_response_422 import (
    RotateSubscriptionSecretResponse422,
)
from ...models.rotate_subscription_secret_response_500 import (
    RotateSubscriptionSecretResponse500,
)
from ...models.rotate_subscription_secret_response_503 import (
    RotateSubscriptionSecretResponse503,
)
from ...models.rotate_subscription_secret_response_504 import (
    RotateSubscriptionSecretResponse504,
)
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
    *,
    x_idempotency: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Idempotency"] = x_idempotency

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/subscriptions/{id}/secret/rotate".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    RotateSecretResponse
    | RotateSubscriptionSecretResponse400
    | RotateSubscriptionSecretResponse401
    | RotateSubscriptionSecretResponse403
    | RotateSubscriptionSecretResponse404
    | RotateSubscriptionSecretResponse409
    | RotateSubscriptionSecretResponse422
    | RotateSubscriptionSecretResponse500
    | RotateSubscriptionSecretResponse503
    | RotateSubscriptionSecretResponse504
    | None
):
    if response.status_code == 200:
        response_200 = RotateSecretResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = RotateSubscriptionSecretResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = RotateSubscriptionSecretResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = RotateSubscriptionSecretResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = RotateSubscriptionSecretResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = RotateSubscriptionSecretResponse409.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = RotateSubscriptionSecretResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = RotateSubscriptionSecretResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = RotateSubscriptionSecretResponse503.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = RotateSubscriptionSecretResponse504.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    RotateSecretResponse
    | RotateSubscriptionSecretResponse400
    | RotateSubscriptionSecretResponse401
    | RotateSubscriptionSecretResponse403
    | RotateSubscriptionSecretResponse404
    | RotateSubscriptionSecretResponse409
    | RotateSubscriptionSecretResponse422
    | RotateSubscriptionSecretResponse500
    | RotateSubscriptionSecretResponse503
    | RotateSubscriptionSecretResponse504
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
    x_idempotency: str,
) -> Response[
    RotateSecretResponse
    | RotateSubscriptionSecretResponse400
    | RotateSubscriptionSecretResponse401
    | RotateSubscriptionSecretResponse403
    | RotateSubscriptionSecretResponse404
    | RotateSubscriptionSecretResponse409
    | RotateSubscriptionSecretResponse422
    | RotateSubscriptionSecretResponse500
    | RotateSubscriptionSecretResponse503
    | RotateSubscriptionSecretResponse504
]:
    """Rotate Subscription Secret

     Mint a new webhook signing secret; the previous one signs too for 24 h.

    Args:
        id (UUID):
        x_idempotency (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RotateSecretResponse | RotateSubscriptionSecretResponse400 | RotateSubscriptionSecretResponse401 | RotateSubscriptionSecretResponse403 | RotateSubscriptionSecretResponse404 | RotateSubscriptionSecretResponse409 | RotateSubscriptionSecretResponse422 | RotateSubscriptionSecretResponse500 | RotateSubscriptionSecretResponse503 | RotateSubscriptionSecretResponse504]
    """

    kwargs = _get_kwargs(
        id=id,
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
    x_idempotency: str,
) -> (
    RotateSecretResponse
    | RotateSubscriptionSecretResponse400
    | RotateSubscriptionSecretResponse401
    | RotateSubscriptionSecretResponse403
    | RotateSubscriptionSecretResponse404
    | RotateSubscriptionSecretResponse409
    | RotateSubscriptionSecretResponse422
    | RotateSubscriptionSecretResponse500
    | RotateSubscriptionSecretResponse503
    | RotateSubscriptionSecretResponse504
    | None
):
    """Rotate Subscription Secret

     Mint a new webhook signing secret; the previous one signs too for 24 h.

    Args:
        id (UUID):
        x_idempotency (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RotateSecretResponse | RotateSubscriptionSecretResponse400 | RotateSubscriptionSecretResponse401 | RotateSubscriptionSecretResponse403 | RotateSubscriptionSecretResponse404 | RotateSubscriptionSecretResponse409 | RotateSubscriptionSecretResponse422 | RotateSubscriptionSecretResponse500 | RotateSubscriptionSecretResponse503 | RotateSubscriptionSecretResponse504
    """

    return sync_detailed(
        id=id,
        client=client,
        x_idempotency=x_idempotency,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_idempotency: str,
) -> Response[
    RotateSecretResponse
    | RotateSubscriptionSecretResponse400
    | RotateSubscriptionSecretResponse401
    | RotateSubscriptionSecretResponse403
    | RotateSubscriptionSecretResponse404
    | RotateSubscriptionSecretResponse409
    | RotateSubscriptionSecretResponse422
    | RotateSubscriptionSecretResponse500
    | RotateSubscriptionSecretResponse503
    | RotateSubscriptionSecretResponse504
]:
    """Rotate Subscription Secret

     Mint a new webhook signing secret; the previous one signs too for 24 h.

    Args:
        id (UUID):
        x_idempotency (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RotateSecretResponse | RotateSubscriptionSecretResponse400 | RotateSubscriptionSecretResponse401 | RotateSubscriptionSecretResponse403 | RotateSubscriptionSecretResponse404 | RotateSubscriptionSecretResponse409 | RotateSubscriptionSecretResponse422 | RotateSubscriptionSecretResponse500 | RotateSubscriptionSecretResponse503 | RotateSubscriptionSecretResponse504]
    """

    kwargs = _get_kwargs(
        id=id,
        x_idempotency=x_idempotency,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_idempotency: str,
) -> (
    RotateSecretResponse
    | RotateSubscriptionSecretResponse400
    | RotateSubscriptionSecretResponse401
    | RotateSubscriptionSecretResponse403
    | RotateSubscriptionSecretResponse404
    | RotateSubscriptionSecretResponse409
    | RotateSubscriptionSecretResponse422
    | RotateSubscriptionSecretResponse500
    | RotateSubscriptionSecretResponse503
    | RotateSubscriptionSecretResponse504
    | None
):
    """Rotate Subscription Secret

     Mint a new webhook signing secret; the previous one signs too for 24 h.

    Args:
        id (UUID):
        x_idempotency (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RotateSecretResponse | RotateSubscriptionSecretResponse400 | RotateSubscriptionSecretResponse401 | RotateSubscriptionSecretResponse403 | RotateSubscriptionSecretResponse404 | RotateSubscriptionSecretResponse409 | RotateSubscriptionSecretResponse422 | RotateSubscriptionSecretResponse500 | RotateSubscriptionSecretResponse503 | RotateSubscriptionSecretResponse504
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            x_idempotency=x_idempotency,
        )
    ).parsed
