from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.publish_event_request import PublishEventRequest
from ...models.publish_event_response import PublishEventResponse
from ...models.publish_event_response_400 import PublishEventResponse400
from ...models.publish_event_response_401 import PublishEventResponse401
from ...models.publish_event_response_403 import PublishEventResponse403
from ...models.publish_event_response_422 import PublishEventResponse422
from ...models.publish_event_response_500 import PublishEventResponse500
from ...models.publish_event_response_503 import PublishEventResponse503
from ...models.publish_event_response_504 import PublishEventResponse504
from ...types import UNSET, Response


def _get_kwargs(
    *,
    body: PublishEventRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1beta/events",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    PublishEventResponse
    | PublishEventResponse400
    | PublishEventResponse401
    | PublishEventResponse403
    | PublishEventResponse422
    | PublishEventResponse500
    | PublishEventResponse503
    | PublishEventResponse504
    | None
):
    if response.status_code == 200:
        response_200 = PublishEventResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = PublishEventResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = PublishEventResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = PublishEventResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 422:
        response_422 = PublishEventResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = PublishEventResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = PublishEventResponse503.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = PublishEventResponse504.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    PublishEventResponse
    | PublishEventResponse400
    | PublishEventResponse401
    | PublishEventResponse403
    | PublishEventResponse422
    | PublishEventResponse500
    | PublishEventResponse503
    | PublishEventResponse504
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
    body: PublishEventRequest,
) -> Response[
    PublishEventResponse
    | PublishEventResponse400
    | PublishEventResponse401
    | PublishEventResponse403
    | PublishEventResponse422
    | PublishEventResponse500
    | PublishEventResponse503
    | PublishEventResponse504
]:
    """Publish Event

     Publishes a single event.

    Args:
        body (PublishEventRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PublishEventResponse | PublishEventResponse400 | PublishEventResponse401 | PublishEventResponse403 | PublishEventResponse422 | PublishEventResponse500 | PublishEventResponse503 | PublishEventResponse504]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PublishEventRequest,
) -> (
    PublishEventResponse
    | PublishEventResponse400
    | PublishEventResponse401
    | PublishEventResponse403
    | PublishEventResponse422
    | PublishEventResponse500
    | PublishEventResponse503
    | PublishEventResponse504
    | None
):
    """Publish Event

     Publishes a single event.

    Args:
        body (PublishEventRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PublishEventResponse | PublishEventResponse400 | PublishEventResponse401 | PublishEventResponse403 | PublishEventResponse422 | PublishEventResponse500 | PublishEventResponse503 | PublishEventResponse504
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PublishEventRequest,
) -> Response[
    PublishEventResponse
    | PublishEventResponse400
    | PublishEventResponse401
    | PublishEventResponse403
    | PublishEventResponse422
    | PublishEventResponse500
    | PublishEventResponse503
    | PublishEventResponse504
]:
    """Publish Event

     Publishes a single event.

    Args:
        body (PublishEventRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PublishEventResponse | PublishEventResponse400 | PublishEventResponse401 | PublishEventResponse403 | PublishEventResponse422 | PublishEventResponse500 | PublishEventResponse503 | PublishEventResponse504]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PublishEventRequest,
) -> (
    PublishEventResponse
    | PublishEventResponse400
    | PublishEventResponse401
    | PublishEventResponse403
    | PublishEventResponse422
    | PublishEventResponse500
    | PublishEventResponse503
    | PublishEventResponse504
    | None
):
    """Publish Event

     Publishes a single event.

    Args:
        body (PublishEventRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PublishEventResponse | PublishEventResponse400 | PublishEventResponse401 | PublishEventResponse403 | PublishEventResponse422 | PublishEventResponse500 | PublishEventResponse503 | PublishEventResponse504
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
