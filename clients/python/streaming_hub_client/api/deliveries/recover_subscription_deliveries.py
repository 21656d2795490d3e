from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.recover_request import RecoverRequest
from ...models.recover_subscription_deliveries_response_400 import (
    RecoverSubscriptionDeliveriesResponse400,
)
from ...models.recover_subscription_deliveries_response_401 import (
    RecoverSubscriptionDeliveriesResponse401,
)
from ...models.recover_subscription_deliveries_response_403 import (
    RecoverSubscriptionDeliveriesResponse403,
)
from ...models.recover_subscription_deliveries_response_404 import (
    RecoverSubscriptionDeliveriesResponse404,
)
from ...models.recover_subscription_deliveries_response_409 import (
    RecoverSubscriptionDeliveriesResponse409,
)
from ...models.recover_subscription_deliveries_response_422 import (
    RecoverSubscriptionDeliveriesResponse422,
)
from ...models.recover_subscription_deliveries_response_500 import (
    RecoverSubscriptionDeliveriesResponse500,
)
from ...models.recover_subscription_deliveries_response_503 import (
    RecoverSubscriptionDeliveriesResponse503,
)
from ...models.recover_subscription_deliveries_response_504 import (
    RecoverSubscriptionDeliveriesResponse504,
)
from ...models.recovery_response import RecoveryResponse
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
    *,
    body: RecoverRequest,
    x_idempotency: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Idempotency"] = x_idempotency

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/subscriptions/{id}/recover".format(
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
    RecoverSubscriptionDeliveriesResponse400
    | RecoverSubscriptionDeliveriesResponse401
    | RecoverSubscriptionDeliveriesResponse403
    | RecoverSubscriptionDeliveriesResponse404
    | RecoverSubscriptionDeliveriesResponse409
    | RecoverSubscriptionDeliveriesResponse422
    | RecoverSubscriptionDeliveriesResponse500
    | RecoverSubscriptionDeliveriesResponse503
    | RecoverSubscriptionDeliveriesResponse504
    | RecoveryResponse
    | None
):
    if response.status_code == 202:
        response_202 = RecoveryResponse.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = RecoverSubscriptionDeliveriesResponse400.from_dict(
            response.json()
        )

        return response_400

    if response.status_code == 401:
        response_401 = RecoverSubscriptionDeliveriesResponse401.from_dict(
            response.json()
        )

        return response_401

    if response.status_code == 403:
        response_403 = RecoverSubscriptionDeliveriesResponse403.from_dict(
            response.json()
        )

        return response_403

    if response.status_code == 404:
        response_404 = RecoverSubscriptionDeliveriesResponse404.from_dict(
            response.json()
        )

        return response_404

    if response.status_code == 409:
        response_409 = RecoverSubscriptionDeliveriesResponse409.from_dict(
            response.json()
        )

        return response_409

    if response.status_code == 422:
        response_422 = RecoverSubscriptionDeliveriesResponse422.from_dict(
            response.json()
        )

        return response_422

    if response.status_code == 500:
        response_500 = RecoverSubscriptionDeliveriesResponse500.from_dict(
            response.json()
        )

        return response_500

    if response.status_code == 503:
        response_503 = RecoverSubscriptionDeliveriesResponse503.from_dict(
            response.json()
        )

        return response_503

    if response.status_code == 504:
        response_504 = RecoverSubscriptionDeliveriesResponse504.from_dict(
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
    RecoverSubscriptionDeliveriesResponse400
    | RecoverSubscriptionDeliveriesResponse401
    | RecoverSubscriptionDeliveriesResponse403
    | RecoverSubscriptionDeliveriesResponse404
    | RecoverSubscriptionDeliveriesResponse409
    | RecoverSubscriptionDeliveriesResponse422
    | RecoverSubscriptionDeliveriesResponse500
    | RecoverSubscriptionDeliveriesResponse503
    | RecoverSubscriptionDeliveriesResponse504
    | RecoveryResponse
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
    body: RecoverRequest,
    x_idempotency: str,
) -> Response[
    RecoverSubscriptionDeliveriesResponse400
    | RecoverSubscriptionDeliveriesResponse401
    | RecoverSubscriptionDeliveriesResponse403
    | RecoverSubscriptionDeliveriesResponse404
    | RecoverSubscriptionDeliveriesResponse409
    | RecoverSubscriptionDeliveriesResponse422
    | RecoverSubscriptionDeliveriesResponse500
    | RecoverSubscriptionDeliveriesResponse503
    | RecoverSubscriptionDeliveriesResponse504
    | RecoveryResponse
]:
    """Re-deliver the failed jobs of a time range

     Accept a recovery of the range's failed, dead-lettered and disabled jobs (202 with its counts).

    Args:
        id (UUID):
        x_idempotency (str):
        body (RecoverRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RecoverSubscriptionDeliveriesResponse400 | RecoverSubscriptionDeliveriesResponse401 | RecoverSubscriptionDeliveriesResponse403 | RecoverSubscriptionDeliveriesResponse404 | RecoverSubscriptionDeliveriesResponse409 | RecoverSubscriptionDeliveriesResponse422 | RecoverSubscriptionDeliveriesResponse500 | RecoverSubscriptionDeliveriesResponse503 | RecoverSubscriptionDeliveriesResponse504 | RecoveryResponse]
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
    body: RecoverRequest,
    x_idempotency: str,
) -> (
    RecoverSubscriptionDeliveriesResponse400
    | RecoverSubscriptionDeliveriesResponse401
    | RecoverSubscriptionDeliveriesResponse403
    | RecoverSubscriptionDeliveriesResponse404
    | RecoverSubscriptionDeliveriesResponse409
    | RecoverSubscriptionDeliveriesResponse422
    | RecoverSubscriptionDeliveriesResponse500
    | RecoverSubscriptionDeliveriesResponse503
    | RecoverSubscriptionDeliveriesResponse504
    | RecoveryResponse
    | None
):
    """Re-deliver the failed jobs of a time range

     Accept a recovery of the range's failed, dead-lettered and disabled jobs (202 with its counts).

    Args:
        id (UUID):
        x_idempotency (str):
        body (RecoverRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RecoverSubscriptionDeliveriesResponse400 | RecoverSubscriptionDeliveriesResponse401 | RecoverSubscriptionDeliveriesResponse403 | RecoverSubscriptionDeliveriesResponse404 | RecoverSubscriptionDeliveriesResponse409 | RecoverSubscriptionDeliveriesResponse422 | RecoverSubscriptionDeliveriesResponse500 | RecoverSubscriptionDeliveriesResponse503 | RecoverSubscriptionDeliveriesResponse504 | RecoveryResponse
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
    body: RecoverRequest,
    x_idempotency: str,
) -> Response[
    RecoverSubscriptionDeliveriesResponse400
    | RecoverSubscriptionDeliveriesResponse401
    | RecoverSubscriptionDeliveriesResponse403
    | RecoverSubscriptionDeliveriesResponse404
    | RecoverSubscriptionDeliveriesResponse409
    | RecoverSubscriptionDeliveriesResponse422
    | RecoverSubscriptionDeliveriesResponse500
    | RecoverSubscriptionDeliveriesResponse503
    | RecoverSubscriptionDeliveriesResponse504
    | RecoveryResponse
]:
    """Re-deliver the failed jobs of a time range

     Accept a recovery of the range's failed, dead-lettered and disabled jobs (202 with its counts).

    Args:
        id (UUID):
        x_idempotency (str):
        body (RecoverRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RecoverSubscriptionDeliveriesResponse400 | RecoverSubscriptionDeliveriesResponse401 | RecoverSubscriptionDeliveriesResponse403 | RecoverSubscriptionDeliveriesResponse404 | RecoverSubscriptionDeliveriesResponse409 | RecoverSubscriptionDeliveriesResponse422 | RecoverSubscriptionDeliveriesResponse500 | RecoverSubscriptionDeliveriesResponse503 | RecoverSubscriptionDeliveriesResponse504 | RecoveryResponse]
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
    body: RecoverRequest,
    x_idempotency: str,
) -> (
    RecoverSubscriptionDeliveriesResponse400
    | RecoverSubscriptionDeliveriesResponse401
    | RecoverSubscriptionDeliveriesResponse403
    | RecoverSubscriptionDeliveriesResponse404
    | RecoverSubscriptionDeliveriesResponse409
    | RecoverSubscriptionDeliveriesResponse422
    | RecoverSubscriptionDeliveriesResponse500
    | RecoverSubscriptionDeliveriesResponse503
    | RecoverSubscriptionDeliveriesResponse504
    | RecoveryResponse
    | None
):
    """Re-deliver the failed jobs of a time range

     Accept a recovery of the range's failed, dead-lettered and disabled jobs (202 with its counts).

    Args:
        id (UUID):
        x_idempotency (str):
        body (RecoverRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RecoverSubscriptionDeliveriesResponse400 | RecoverSubscriptionDeliveriesResponse401 | RecoverSubscriptionDeliveriesResponse403 | RecoverSubscriptionDeliveriesResponse404 | RecoverSubscriptionDeliveriesResponse409 | RecoverSubscriptionDeliveriesResponse422 | RecoverSubscriptionDeliveriesResponse500 | RecoverSubscriptionDeliveriesResponse503 | RecoverSubscriptionDeliveriesResponse504 | RecoveryResponse
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            x_idempotency=x_idempotency,
        )
    ).parsed
