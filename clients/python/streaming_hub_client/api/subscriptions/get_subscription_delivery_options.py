from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_options import DeliveryOptions
from ...models.get_subscription_delivery_options_response_401 import (
    GetSubscriptionDeliveryOptionsResponse401,
)
from ...models.get_subscription_delivery_options_response_403 import (
    GetSubscriptionDeliveryOptionsResponse403,
)
from ...models.get_subscription_delivery_options_response_404 import (
    GetSubscriptionDeliveryOptionsResponse404,
)
from ...models.get_subscription_delivery_options_response_429 import (
    GetSubscriptionDeliveryOptionsResponse429,
)
from ...models.get_subscription_delivery_options_response_500 import (
    GetSubscriptionDeliveryOptionsResponse500,
)
from ...models.get_subscription_delivery_options_response_503 import (
    GetSubscriptionDeliveryOptionsResponse503,
)
from ...models.get_subscription_delivery_options_response_504 import (
    GetSubscriptionDeliveryOptionsResponse504,
)
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/subscriptions/{id}/delivery-options".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    DeliveryOptions
    | GetSubscriptionDeliveryOptionsResponse401
    | GetSubscriptionDeliveryOptionsResponse403
    | GetSubscriptionDeliveryOptionsResponse404
    | GetSubscriptionDeliveryOptionsResponse429
    | GetSubscriptionDeliveryOptionsResponse500
    | GetSubscriptionDeliveryOptionsResponse503
    | GetSubscriptionDeliveryOptionsResponse504
    | None
):
    if response.status_code == 200:
        response_200 = DeliveryOptions.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = GetSubscriptionDeliveryOptionsResponse401.from_dict(
            response.json()
        )

        return response_401

    if response.status_code == 403:
        response_403 = GetSubscriptionDeliveryOptionsResponse403.from_dict(
            response.json()
        )

        return response_403

    if response.status_code == 404:
        response_404 = GetSubscriptionDeliveryOptionsResponse404.from_dict(
            response.json()
        )

        return response_404

    if response.status_code == 429:
        response_429 = GetSubscriptionDeliveryOptionsResponse429.from_dict(
            response.json()
        )

        return response_429

    if response.status_code == 500:
        response_500 = GetSubscriptionDeliveryOptionsResponse500.from_dict(
            response.json()
        )

        return response_500

    if response.status_code == 503:
        response_503 = GetSubscriptionDeliveryOptionsResponse503.from_dict(
            response.json()
        )

        return response_503

    if response.status_code == 504:
        response_504 = GetSubscriptionDeliveryOptionsResponse504.from_dict(
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
    DeliveryOptions
    | GetSubscriptionDeliveryOptionsResponse401
    | GetSubscriptionDeliveryOptionsResponse403
    | GetSubscriptionDeliveryOptionsResponse404
    | GetSubscriptionDeliveryOptionsResponse429
    | GetSubscriptionDeliveryOptionsResponse500
    | GetSubscriptionDeliveryOptionsResponse503
    | GetSubscriptionDeliveryOptionsResponse504
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
    DeliveryOptions
    | GetSubscriptionDeliveryOptionsResponse401
    | GetSubscriptionDeliveryOptionsResponse403
    | GetSubscriptionDeliveryOptionsResponse404
    | GetSubscriptionDeliveryOptionsResponse429
    | GetSubscriptionDeliveryOptionsResponse500
    | GetSubscriptionDeliveryOptionsResponse503
    | GetSubscriptionDeliveryOptionsResponse504
]:
    """Get a subscription's delivery options

     The subscription's delivery options (extension, N67), or the uniform 404.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryOptions | GetSubscriptionDeliveryOptionsResponse401 | GetSubscriptionDeliveryOptionsResponse403 | GetSubscriptionDeliveryOptionsResponse404 | GetSubscriptionDeliveryOptionsResponse429 | GetSubscriptionDeliveryOptionsResponse500 | GetSubscriptionDeliveryOptionsResponse503 | GetSubscriptionDeliveryOptionsResponse504]
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
    DeliveryOptions
    | GetSubscriptionDeliveryOptionsResponse401
    | GetSubscriptionDeliveryOptionsResponse403
    | GetSubscriptionDeliveryOptionsResponse404
    | GetSubscriptionDeliveryOptionsResponse429
    | GetSubscriptionDeliveryOptionsResponse500
    | GetSubscriptionDeliveryOptionsResponse503
    | GetSubscriptionDeliveryOptionsResponse504
    | None
):
    """Get a subscription's delivery options

     The subscription's delivery options (extension, N67), or the uniform 404.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryOptions | GetSubscriptionDeliveryOptionsResponse401 | GetSubscriptionDeliveryOptionsResponse403 | GetSubscriptionDeliveryOptionsResponse404 | GetSubscriptionDeliveryOptionsResponse429 | GetSubscriptionDeliveryOptionsResponse500 | GetSubscriptionDeliveryOptionsResponse503 | GetSubscriptionDeliveryOptionsResponse504
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
    DeliveryOptions
    | GetSubscriptionDeliveryOptionsResponse401
    | GetSubscriptionDeliveryOptionsResponse403
    | GetSubscriptionDeliveryOptionsResponse404
    | GetSubscriptionDeliveryOptionsResponse429
    | GetSubscriptionDeliveryOptionsResponse500
    | GetSubscriptionDeliveryOptionsResponse503
    | GetSubscriptionDeliveryOptionsResponse504
]:
    """Get a subscription's delivery options

     The subscription's delivery options (extension, N67), or the uniform 404.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryOptions | GetSubscriptionDeliveryOptionsResponse401 | GetSubscriptionDeliveryOptionsResponse403 | GetSubscriptionDeliveryOptionsResponse404 | GetSubscriptionDeliveryOptionsResponse429 | GetSubscriptionDeliveryOptionsResponse500 | GetSubscriptionDeliveryOptionsResponse503 | GetSubscriptionDeliveryOptionsResponse504]
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
    DeliveryOptions
    | GetSubscriptionDeliveryOptionsResponse401
    | GetSubscriptionDeliveryOptionsResponse403
    | GetSubscriptionDeliveryOptionsResponse404
    | GetSubscriptionDeliveryOptionsResponse429
    | GetSubscriptionDeliveryOptionsResponse500
    | GetSubscriptionDeliveryOptionsResponse503
    | GetSubscriptionDeliveryOptionsResponse504
    | None
):
    """Get a subscription's delivery options

     The subscription's delivery options (extension, N67), or the uniform 404.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryOptions | GetSubscriptionDeliveryOptionsResponse401 | GetSubscriptionDeliveryOptionsResponse403 | GetSubscriptionDeliveryOptionsResponse404 | GetSubscriptionDeliveryOptionsResponse429 | GetSubscriptionDeliveryOptionsResponse500 | GetSubscriptionDeliveryOptionsResponse503 | GetSubscriptionDeliveryOptionsResponse504
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
