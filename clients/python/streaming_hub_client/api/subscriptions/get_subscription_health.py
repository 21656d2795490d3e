from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_subscription_health_response_401 import (
    GetSubscriptionHealthResponse401,
)
from ...models.get_subscription_health_response_403 import (
    GetSubscriptionHealthResponse403,
)
from ...models.get_subscription_health_response_404 import (
    GetSubscriptionHealthResponse404,
)
from ...models.get_subscription_health_response_429 import (
    GetSubscriptionHealthResponse429,
)
from ...models.get_subscription_health_response_500 import (
    GetSubscriptionHealthResponse500,
)
from ...models.get_subscription_health_response_503 import (
    GetSubscriptionHealthResponse503,
)
from ...models.get_subscription_health_response_504 import (
    GetSubscriptionHealthResponse504,
)
from ...models.subscription_health import SubscriptionHealth
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/subscriptions/{id}/health".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    GetSubscriptionHealthResponse401
    | GetSubscriptionHealthResponse403
    | GetSubscriptionHealthResponse404
    | GetSubscriptionHealthResponse429
    | GetSubscriptionHealthResponse500
    | GetSubscriptionHealthResponse503
    | GetSubscriptionHealthResponse504
    | SubscriptionHealth
    | None
):
    if response.status_code == 200:
        response_200 = SubscriptionHealth.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = GetSubscriptionHealthResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = GetSubscriptionHealthResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = GetSubscriptionHealthResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = GetSubscriptionHealthResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = GetSubscriptionHealthResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = GetSubscriptionHealthResponse503.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = GetSubscriptionHealthResponse504.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    GetSubscriptionHealthResponse401
    | GetSubscriptionHealthResponse403
    | GetSubscriptionHealthResponse404
    | GetSubscriptionHealthResponse429
    | GetSubscriptionHealthResponse500
    | GetSubscriptionHealthResponse503
    | GetSubscriptionHealthResponse504
    | SubscriptionHealth
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
) -> Response[
    GetSubscriptionHealthResponse401
    | GetSubscriptionHealthResponse403
    | GetSubscriptionHealthResponse404
    | GetSubscriptionHealthResponse429
    | GetSubscriptionHealthResponse500
    | GetSubscriptionHealthResponse503
    | GetSubscriptionHealthResponse504
    | SubscriptionHealth
]:
    """Get subscription delivery health

     The subscription's delivery-health rollup, or the uniform 404 (the existence gate runs first).

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetSubscriptionHealthResponse401 | GetSubscriptionHealthResponse403 | GetSubscriptionHealthResponse404 | GetSubscriptionHealthResponse429 | GetSubscriptionHealthResponse500 | GetSubscriptionHealthResponse503 | GetSubscriptionHealthResponse504 | SubscriptionHealth]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
) -> (
    GetSubscriptionHealthResponse401
    | GetSubscriptionHealthResponse403
    | GetSubscriptionHealthResponse404
    | GetSubscriptionHealthResponse429
    | GetSubscriptionHealthResponse500
    | GetSubscriptionHealthResponse503
    | GetSubscriptionHealthResponse504
    | SubscriptionHealth
    | None
):
    """Get subscription delivery health

     The subscription's delivery-health rollup, or the uniform 404 (the existence gate runs first).

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetSubscriptionHealthResponse401 | GetSubscriptionHealthResponse403 | GetSubscriptionHealthResponse404 | GetSubscriptionHealthResponse429 | GetSubscriptionHealthResponse500 | GetSubscriptionHealthResponse503 | GetSubscriptionHealthResponse504 | SubscriptionHealth
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[
    GetSubscriptionHealthResponse401
    | GetSubscriptionHealthResponse403
    | GetSubscriptionHealthResponse404
    | GetSubscriptionHealthResponse429
    | GetSubscriptionHealthResponse500
    | GetSubscriptionHealthResponse503
    | GetSubscriptionHealthResponse504
    | SubscriptionHealth
]:
    """Get subscription delivery health

     The subscription's delivery-health rollup, or the uniform 404 (the existence gate runs first).

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetSubscriptionHealthResponse401 | GetSubscriptionHealthResponse403 | GetSubscriptionHealthResponse404 | GetSubscriptionHealthResponse429 | GetSubscriptionHealthResponse500 | GetSubscriptionHealthResponse503 | GetSubscriptionHealthResponse504 | SubscriptionHealth]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
) -> (
    GetSubscriptionHealthResponse401
    | GetSubscriptionHealthResponse403
    | GetSubscriptionHealthResponse404
    | GetSubscriptionHealthResponse429
    | GetSubscriptionHealthResponse500
    | GetSubscriptionHealthResponse503
    | GetSubscriptionHealthResponse504
    | SubscriptionHealth
    | None
):
    """Get subscription delivery health

     The subscription's delivery-health rollup, or the uniform 404 (the existence gate runs first).

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetSubscriptionHealthResponse401 | GetSubscriptionHealthResponse403 | GetSubscriptionHealthResponse404 | GetSubscriptionHealthResponse429 | GetSubscriptionHealthResponse500 | GetSubscriptionHealthResponse503 | GetSubscriptionHealthResponse504 | SubscriptionHealth
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
