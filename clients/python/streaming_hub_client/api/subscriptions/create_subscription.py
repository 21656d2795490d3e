from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_subscription_request import CreateSubscriptionRequest
from ...models.create_subscription_response import CreateSubscriptionResponse
from ...models.create_subscription_response_400 import CreateSubscriptionResponse400
from ...models.create_subscription_response_401 import CreateSubscriptionResponse401
from ...models.create_subscription_response_403 import CreateSubscriptionResponse403
from ...models.create_subscription_response_409 import CreateSubscriptionResponse409
from ...models.create_subscription_response_422 import CreateSubscriptionResponse422
from ...models.create_subscription_response_500 import CreateSubscriptionResponse500
from ...models.create_subscription_response_503 import CreateSubscriptionResponse503
from ...models.create_subscription_response_504 import CreateSubscriptionResponse504
from ...types import UNSET, Response


def _get_kwargs(
    *,
    body: CreateSubscriptionRequest,
    x_idempotency: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Idempotency"] = x_idempotency

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/subscriptions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    CreateSubscriptionResponse
    | CreateSubscriptionResponse400
    | CreateSubscriptionResponse401
    | CreateSubscriptionResponse403
    | CreateSubscriptionResponse409
    | CreateSubscriptionResponse422
    | CreateSubscriptionResponse500
    | CreateSubscriptionResponse503
    | CreateSubscriptionResponse504
    | None
):
    if response.status_code == 201:
        response_201 = CreateSubscriptionResponse.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = CreateSubscriptionResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = CreateSubscriptionResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = CreateSubscriptionResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = CreateSubscriptionResponse409.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = CreateSubscriptionResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = CreateSubscriptionResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = CreateSubscriptionResponse503.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = CreateSubscriptionResponse504.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    CreateSubscriptionResponse
    | CreateSubscriptionResponse400
    | CreateSubscriptionResponse401
    | CreateSubscriptionResponse403
    | CreateSubscriptionResponse409
    | CreateSubscriptionResponse422
    | CreateSubscriptionResponse500
    | CreateSubscriptionResponse503
    | CreateSubscriptionResponse504
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateSubscriptionRequest,
    x_idempotency: str,
) -> Response[
    CreateSubscriptionResponse
    | CreateSubscriptionResponse400
    | CreateSubscriptionResponse401
    | CreateSubscriptionResponse403
    | CreateSubscriptionResponse409
    | CreateSubscriptionResponse422
    | CreateSubscriptionResponse500
    | CreateSubscriptionResponse503
    | CreateSubscriptionResponse504
]:
    """Create Subscription

     Create a subscription for the caller's tenant (and delegated party).

    Args:
        x_idempotency (str):
        body (CreateSubscriptionRequest): The create body. Unknown fields are ignored
            (``tenant_id``) or refused by the hub
            (``sink_config`` / ``credential`` → ``inline_sink_config_forbidden``; the delivery options
            ``filter``, ``headers``, ``rate_limit_per_second`` → ``validation_error``, N67).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateSubscriptionResponse | CreateSubscriptionResponse400 | CreateSubscriptionResponse401 | CreateSubscriptionResponse403 | CreateSubscriptionResponse409 | CreateSubscriptionResponse422 | CreateSubscriptionResponse500 | CreateSubscriptionResponse503 | CreateSubscriptionResponse504]
    """

    kwargs = _get_kwargs(
        body=body,
        x_idempotency=x_idempotency,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateSubscriptionRequest,
    x_idempotency: str,
) -> (
    CreateSubscriptionResponse
    | CreateSubscriptionResponse400
    | CreateSubscriptionResponse401
    | CreateSubscriptionResponse403
    | CreateSubscriptionResponse409
    | CreateSubscriptionResponse422
    | CreateSubscriptionResponse500
    | CreateSubscriptionResponse503
    | CreateSubscriptionResponse504
    | None
):
    """Create Subscription

     Create a subscription for the caller's tenant (and delegated party).

    Args:
        x_idempotency (str):
        body (CreateSubscriptionRequest): The create body. Unknown fields are ignored
            (``tenant_id``) or refused by the hub
            (``sink_config`` / ``credential`` → ``inline_sink_config_forbidden``; the delivery options
            ``filter``, ``headers``, ``rate_limit_per_second`` → ``validation_error``, N67).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateSubscriptionResponse | CreateSubscriptionResponse400 | CreateSubscriptionResponse401 | CreateSubscriptionResponse403 | CreateSubscriptionResponse409 | CreateSubscriptionResponse422 | CreateSubscriptionResponse500 | CreateSubscriptionResponse503 | CreateSubscriptionResponse504
    """

    return sync_detailed(
        client=client,
        body=body,
        x_idempotency=x_idempotency,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateSubscriptionRequest,
    x_idempotency: str,
) -> Response[
    CreateSubscriptionResponse
    | CreateSubscriptionResponse400
    | CreateSubscriptionResponse401
    | CreateSubscriptionResponse403
    | CreateSubscriptionResponse409
    | CreateSubscriptionResponse422
    | CreateSubscriptionResponse500
    | CreateSubscriptionResponse503
    | CreateSubscriptionResponse504
]:
    """Create Subscription

     Create a subscription for the caller's tenant (and delegated party).

    Args:
        x_idempotency (str):
        body (CreateSubscriptionRequest): The create body. Unknown fields are ignored
            (``tenant_id``) or refused by the hub
            (``sink_config`` / ``credential`` → ``inline_sink_config_forbidden``; the delivery options
            ``filter``, ``headers``, ``rate_limit_per_second`` → ``validation_error``, N67).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateSubscriptionResponse | CreateSubscriptionResponse400 | CreateSubscriptionResponse401 | CreateSubscriptionResponse403 | CreateSubscriptionResponse409 | CreateSubscriptionResponse422 | CreateSubscriptionResponse500 | CreateSubscriptionResponse503 | CreateSubscriptionResponse504]
    """

    kwargs = _get_kwargs(
        body=body,
        x_idempotency=x_idempotency,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateSubscriptionRequest,
    x_idempotency: str,
) -> (
    CreateSubscriptionResponse
    | CreateSubscriptionResponse400
    | CreateSubscriptionResponse401
    | CreateSubscriptionResponse403
    | CreateSubscriptionResponse409
    | CreateSubscriptionResponse422
    | CreateSubscriptionResponse500
    | CreateSubscriptionResponse503
    | CreateSubscriptionResponse504
    | None
):
    """Create Subscription

     Create a subscription for the caller's tenant (and delegated party).

    Args:
        x_idempotency (str):
        body (CreateSubscriptionRequest): The create body. Unknown fields are ignored
            (``tenant_id``) or refused by the hub
            (``sink_config`` / ``credential`` → ``inline_sink_config_forbidden``; the delivery options
            ``filter``, ``headers``, ``rate_limit_per_second`` → ``validation_error``, N67).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateSubscriptionResponse | CreateSubscriptionResponse400 | CreateSubscriptionResponse401 | CreateSubscriptionResponse403 | CreateSubscriptionResponse409 | CreateSubscriptionResponse422 | CreateSubscriptionResponse500 | CreateSubscriptionResponse503 | CreateSubscriptionResponse504
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_idempotency=x_idempotency,
        )
    ).parsed
