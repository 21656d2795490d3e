from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.triage_dead_lettered_events_response_400 import (
    TriageDeadLetteredEventsResponse400,
)
from ...models.triage_dead_lettered_events_response_401 import (
    TriageDeadLetteredEventsResponse401,
)
from ...models.triage_dead_lettered_events_response_403 import (
    TriageDeadLetteredEventsResponse403,
)
from ...models.triage_dead_lettered_events_response_422 import (
    TriageDeadLetteredEventsResponse422,
)
from ...models.triage_dead_lettered_events_response_500 import (
    TriageDeadLetteredEventsResponse500,
)
from ...models.triage_dead_lettered_events_response_503 import (
    TriageDeadLetteredEventsResponse503,
)
from ...models.triage_dead_lettered_events_response_504 import (
    TriageDeadLetteredEventsResponse504,
)
from ...models.triage_request import TriageRequest
from ...models.triage_response import TriageResponse
from ...types import UNSET, Response


def _get_kwargs(
    *,
    body: TriageRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/consumer/dead-letters/actions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    TriageDeadLetteredEventsResponse400
    | TriageDeadLetteredEventsResponse401
    | TriageDeadLetteredEventsResponse403
    | TriageDeadLetteredEventsResponse422
    | TriageDeadLetteredEventsResponse500
    | TriageDeadLetteredEventsResponse503
    | TriageDeadLetteredEventsResponse504
    | TriageResponse
    | None
):
    if response.status_code == 200:
        response_200 = TriageResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = TriageDeadLetteredEventsResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = TriageDeadLetteredEventsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = TriageDeadLetteredEventsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 422:
        response_422 = TriageDeadLetteredEventsResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = TriageDeadLetteredEventsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = TriageDeadLetteredEventsResponse503.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = TriageDeadLetteredEventsResponse504.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    TriageDeadLetteredEventsResponse400
    | TriageDeadLetteredEventsResponse401
    | TriageDeadLetteredEventsResponse403
    | TriageDeadLetteredEventsResponse422
    | TriageDeadLetteredEventsResponse500
    | TriageDeadLetteredEventsResponse503
    | TriageDeadLetteredEventsResponse504
    | TriageResponse
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
    body: TriageRequest,
) -> Response[
    TriageDeadLetteredEventsResponse400
    | TriageDeadLetteredEventsResponse401
    | TriageDeadLetteredEventsResponse403
    | TriageDeadLetteredEventsResponse422
    | TriageDeadLetteredEventsResponse500
    | TriageDeadLetteredEventsResponse503
    | TriageDeadLetteredEventsResponse504
    | TriageResponse
]:
    """REPLAY, DISCARD or LEAVE

     Act on dead-lettered events by id, several at once; the stream's semantics and outcomes.

    Args:
        body (TriageRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[TriageDeadLetteredEventsResponse400 | TriageDeadLetteredEventsResponse401 | TriageDeadLetteredEventsResponse403 | TriageDeadLetteredEventsResponse422 | TriageDeadLetteredEventsResponse500 | TriageDeadLetteredEventsResponse503 | TriageDeadLetteredEventsResponse504 | TriageResponse]
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
    body: TriageRequest,
) -> (
    TriageDeadLetteredEventsResponse400
    | TriageDeadLetteredEventsResponse401
    | TriageDeadLetteredEventsResponse403
    | TriageDeadLetteredEventsResponse422
    | TriageDeadLetteredEventsResponse500
    | TriageDeadLetteredEventsResponse503
    | TriageDeadLetteredEventsResponse504
    | TriageResponse
    | None
):
    """REPLAY, DISCARD or LEAVE

     Act on dead-lettered events by id, several at once; the stream's semantics and outcomes.

    Args:
        body (TriageRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        TriageDeadLetteredEventsResponse400 | TriageDeadLetteredEventsResponse401 | TriageDeadLetteredEventsResponse403 | TriageDeadLetteredEventsResponse422 | TriageDeadLetteredEventsResponse500 | TriageDeadLetteredEventsResponse503 | TriageDeadLetteredEventsResponse504 | TriageResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TriageRequest,
) -> Response[
    TriageDeadLetteredEventsResponse400
    | TriageDeadLetteredEventsResponse401
    | TriageDeadLetteredEventsResponse403
    | TriageDeadLetteredEventsResponse422
    | TriageDeadLetteredEventsResponse500
    | TriageDeadLetteredEventsResponse503
    | TriageDeadLetteredEventsResponse504
    | TriageResponse
]:
    """REPLAY, DISCARD or LEAVE

     Act on dead-lettered events by id, several at once; the stream's semantics and outcomes.

    Args:
        body (TriageRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[TriageDeadLetteredEventsResponse400 | TriageDeadLetteredEventsResponse401 | TriageDeadLetteredEventsResponse403 | TriageDeadLetteredEventsResponse422 | TriageDeadLetteredEventsResponse500 | TriageDeadLetteredEventsResponse503 | TriageDeadLetteredEventsResponse504 | TriageResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TriageRequest,
) -> (
    TriageDeadLetteredEventsResponse400
    | TriageDeadLetteredEventsResponse401
    | TriageDeadLetteredEventsResponse403
    | TriageDeadLetteredEventsResponse422
    | TriageDeadLetteredEventsResponse500
    | TriageDeadLetteredEventsResponse503
    | TriageDeadLetteredEventsResponse504
    | TriageResponse
    | None
):
    """REPLAY, DISCARD or LEAVE

     Act on dead-lettered events by id, several at once; the stream's semantics and outcomes.

    Args:
        body (TriageRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        TriageDeadLetteredEventsResponse400 | TriageDeadLetteredEventsResponse401 | TriageDeadLetteredEventsResponse403 | TriageDeadLetteredEventsResponse422 | TriageDeadLetteredEventsResponse500 | TriageDeadLetteredEventsResponse503 | TriageDeadLetteredEventsResponse504 | TriageResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
