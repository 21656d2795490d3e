from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.patch_subscription_request import PatchSubscriptionRequest
from ...models.update_subscription_schema_major_response_400 import (
    UpdateSubscriptionSchemaMajorResponse400,
)
from ...models.update_subscription_schema_major_response_401 import (
    UpdateSubscriptionSchemaMajorResponse401,
)
from ...models.update_subscription_schema_major_response_403 import (
    UpdateSubscriptionSchemaMajorResponse403,
)
from ...models.update_subscription_schema_major_response_404 import (
    UpdateSubscriptionSchemaMajorResponse404,
)
from ...models.update_subscription_schema_major_response_409 import (
    UpdateSubscriptionSchemaMajorResponse409,
)
from ...models.update_subscription_schema_major_response_422 import (
    UpdateSubscriptionSchemaMajorResponse422,
)
from ...models.update_subscription_schema_major_response_500 import (
    UpdateSubscriptionSchemaMajorResponse500,
)
from ...models.update_subscription_schema_major_response_503 import (
    UpdateSubscriptionSchemaMajorResponse503,
)
from ...models.update_subscription_schema_major_response_504 import (
    UpdateSubscriptionSchemaMajorResponse504,
)
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
    *,
    body: PatchSubscriptionRequest,
    x_idempotency: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Idempotency"] = x_idempotency

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/subscriptions/{id}".format(
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
    Any
    | UpdateSubscriptionSchemaMajorResponse400
    | UpdateSubscriptionSchemaMajorResponse401
    | UpdateSubscriptionSchemaMajorResponse403
    | UpdateSubscriptionSchemaMajorResponse404
    | UpdateSubscriptionSchemaMajorResponse409
    | UpdateSubscriptionSchemaMajorResponse422
    | UpdateSubscriptionSchemaMajorResponse500
    | UpdateSubscriptionSchemaMajorResponse503
    | UpdateSubscriptionSchemaMajorResponse504
    | None
):
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 400:
        response_400 = UpdateSubscriptionSchemaMajorResponse400.from_dict(
            response.json()
        )

        return response_400

    if response.status_code == 401:
        response_401 = UpdateSubscriptionSchemaMajorResponse401.from_dict(
            response.json()
        )

        return response_401

    if response.status_code == 403:
        response_403 = UpdateSubscriptionSchemaMajorResponse403.from_dict(
            response.json()
        )

        return response_403

    if response.status_code == 404:
        response_404 = UpdateSubscriptionSchemaMajorResponse404.from_dict(
            response.json()
        )

        return response_404

    if response.status_code == 409:
        response_409 = UpdateSubscriptionSchemaMajorResponse409.from_dict(
            response.json()
        )

        return response_409

    if response.status_code == 422:
        response_422 = UpdateSubscriptionSchemaMajorResponse422.from_dict(
            response.json()
        )

        return response_422

    if response.status_code == 500:
        response_500 = UpdateSubscriptionSchemaMajorResponse500.from_dict(
            response.json()
        )

        return response_500

    if response.status_code == 503:
        response_503 = UpdateSubscriptionSchemaMajorResponse503.from_dict(
            response.json()
        )

        return response_503

    if response.status_code == 504:
        response_504 = UpdateSubscriptionSchemaMajorResponse504.from_dict(
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
    Any
    | UpdateSubscriptionSchemaMajorResponse400
    | UpdateSubscriptionSchemaMajorResponse401
    | UpdateSubscriptionSchemaMajorResponse403
    | UpdateSubscriptionSchemaMajorResponse404
    | UpdateSubscriptionSchemaMajorResponse409
    | UpdateSubscriptionSchemaMajorResponse422
    | UpdateSubscriptionSchemaMajorResponse500
    | UpdateSubscriptionSchemaMajorResponse503
    | UpdateSubscriptionSchemaMajorResponse504
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
    body: PatchSubscriptionRequest,
    x_idempotency: str,
) -> Response[
    Any
    | UpdateSubscriptionSchemaMajorResponse400
    | UpdateSubscriptionSchemaMajorResponse401
    | UpdateSubscriptionSchemaMajorResponse403
    | UpdateSubscriptionSchemaMajorResponse404
    | UpdateSubscriptionSchemaMajorResponse409
    | UpdateSubscriptionSchemaMajorResponse422
    | UpdateSubscriptionSchemaMajorResponse500
    | UpdateSubscriptionSchemaMajorResponse503
    | UpdateSubscriptionSchemaMajorResponse504
]:
    """Update Subscription Schema Major

     Re-pin the schema major (null follows major 1) and optionally the timeout.

    Args:
        id (UUID):
        x_idempotency (str):
        body (PatchSubscriptionRequest): The narrow change body: ``schema_major`` (required,
            nullable) and optional ``timeout_ms``; any
            other field is 422 ``validation_error`` (the delivery options have their own resource,
            N67).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | UpdateSubscriptionSchemaMajorResponse400 | UpdateSubscriptionSchemaMajorResponse401 | UpdateSubscriptionSchemaMajorResponse403 | UpdateSubscriptionSchemaMajorResponse404 | UpdateSubscriptionSchemaMajorResponse409 | UpdateSubscriptionSchemaMajorResponse422 | UpdateSubscriptionSchemaMajorResponse500 | UpdateSubscriptionSchemaMajorResponse503 | UpdateSubscriptionSchemaMajorResponse504]
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
    body: PatchSubscriptionRequest,
    x_idempotency: str,
) -> (
    Any
    | UpdateSubscriptionSchemaMajorResponse400
    | UpdateSubscriptionSchemaMajorResponse401
    | UpdateSubscriptionSchemaMajorResponse403
    | UpdateSubscriptionSchemaMajorResponse404
    | UpdateSubscriptionSchemaMajorResponse409
    | UpdateSubscriptionSchemaMajorResponse422
    | UpdateSubscriptionSchemaMajorResponse500
    | UpdateSubscriptionSchemaMajorResponse503
    | UpdateSubscriptionSchemaMajorResponse504
    | None
):
    """Update Subscription Schema Major

     Re-pin the schema major (null follows major 1) and optionally the timeout.

    Args:
        id (UUID):
        x_idempotency (str):
        body (PatchSubscriptionRequest): The narrow change body: ``schema_major`` (required,
            nullable) and optional ``timeout_ms``; any
            other field is 422 ``validation_error`` (the delivery options have their own resource,
            N67).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | UpdateSubscriptionSchemaMajorResponse400 | UpdateSubscriptionSchemaMajorResponse401 | UpdateSubscriptionSchemaMajorResponse403 | UpdateSubscriptionSchemaMajorResponse404 | UpdateSubscriptionSchemaMajorResponse409 | UpdateSubscriptionSchemaMajorResponse422 | UpdateSubscriptionSchemaMajorResponse500 | UpdateSubscriptionSchemaMajorResponse503 | UpdateSubscriptionSchemaMajorResponse504
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
    body: PatchSubscriptionRequest,
    x_idempotency: str,
) -> Response[
    Any
    | UpdateSubscriptionSchemaMajorResponse400
    | UpdateSubscriptionSchemaMajorResponse401
    | UpdateSubscriptionSchemaMajorResponse403
    | UpdateSubscriptionSchemaMajorResponse404
    | UpdateSubscriptionSchemaMajorResponse409
    | UpdateSubscriptionSchemaMajorResponse422
    | UpdateSubscriptionSchemaMajorResponse500
    | UpdateSubscriptionSchemaMajorResponse503
    | UpdateSubscriptionSchemaMajorResponse504
]:
    """Update Subscription Schema Major

     Re-pin the schema major (null follows major 1) and optionally the timeout.

    Args:
        id (UUID):
        x_idempotency (str):
        body (PatchSubscriptionRequest): The narrow change body: ``schema_major`` (required,
            nullable) and optional ``timeout_ms``; any
            other field is 422 ``validation_error`` (the delivery options have their own resource,
            N67).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | UpdateSubscriptionSchemaMajorResponse400 | UpdateSubscriptionSchemaMajorResponse401 | UpdateSubscriptionSchemaMajorResponse403 | UpdateSubscriptionSchemaMajorResponse404 | UpdateSubscriptionSchemaMajorResponse409 | UpdateSubscriptionSchemaMajorResponse422 | UpdateSubscriptionSchemaMajorResponse500 | UpdateSubscriptionSchemaMajorResponse503 | UpdateSubscriptionSchemaMajorResponse504]
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
    body: PatchSubscriptionRequest,
    x_idempotency: str,
) -> (
    Any
    | UpdateSubscriptionSchemaMajorResponse400
    | UpdateSubscriptionSchemaMajorResponse401
    | UpdateSubscriptionSchemaMajorResponse403
    | UpdateSubscriptionSchemaMajorResponse404
    | UpdateSubscriptionSchemaMajorResponse409
    | UpdateSubscriptionSchemaMajorResponse422
    | UpdateSubscriptionSchemaMajorResponse500
    | UpdateSubscriptionSchemaMajorResponse503
    | UpdateSubscriptionSchemaMajorResponse504
    | None
):
    """Update Subscription Schema Major

     Re-pin the schema major (null follows major 1) and optionally the timeout.

    Args:
        id (UUID):
        x_idempotency (str):
        body (PatchSubscriptionRequest): The narrow change body: ``schema_major`` (required,
            nullable) and optional ``timeout_ms``; any
            other field is 422 ``validation_error`` (the delivery options have their own resource,
            N67).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | UpdateSubscriptionSchemaMajorResponse400 | UpdateSubscriptionSchemaMajorResponse401 | UpdateSubscriptionSchemaMajorResponse403 | UpdateSubscriptionSchemaMajorResponse404 | UpdateSubscriptionSchemaMajorResponse409 | UpdateSubscriptionSchemaMajorResponse422 | UpdateSubscriptionSchemaMajorResponse500 | UpdateSubscriptionSchemaMajorResponse503 | UpdateSubscriptionSchemaMajorResponse504
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            x_idempotency=x_idempotency,
        )
    ).parsed
