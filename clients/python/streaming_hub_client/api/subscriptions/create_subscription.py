from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_subscription_request import CreateSubscriptionRequest
from ...models.create_subscription_response import CreateSubscriptionResponse
from ...models.create_subscription_response_409 import CreateSubscriptionResponse409
from ...models.problem import Problem
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
) -> CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem | None:
    if response.status_code == 201:
        response_201 = CreateSubscriptionResponse.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = CreateSubscriptionResponse409.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem]:
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
) -> Response[CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem]:
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
        Response[CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem]
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
) -> CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem | None:
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
        CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem
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
) -> Response[CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem]:
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
        Response[CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem]
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
) -> CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem | None:
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
        CreateSubscriptionResponse | CreateSubscriptionResponse409 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_idempotency=x_idempotency,
        )
    ).parsed
