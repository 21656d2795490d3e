import datetime
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.dashboard_snapshot import DashboardSnapshot
from ...models.get_dashboard_response_422 import GetDashboardResponse422
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    window_hours: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params["window_hours"] = window_hours

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/dashboard",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DashboardSnapshot | GetDashboardResponse422 | Problem | None:
    if response.status_code == 200:
        response_200 = DashboardSnapshot.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 422:
        response_422 = GetDashboardResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

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
) -> Response[DashboardSnapshot | GetDashboardResponse422 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    window_hours: int | Unset = UNSET,
) -> Response[DashboardSnapshot | GetDashboardResponse422 | Problem]:
    """Get the operational dashboard snapshot

     One consistent read: the census and backlog now, the period's counts and time series.

    Args:
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        window_hours (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DashboardSnapshot | GetDashboardResponse422 | Problem]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        window_hours=window_hours,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    window_hours: int | Unset = UNSET,
) -> DashboardSnapshot | GetDashboardResponse422 | Problem | None:
    """Get the operational dashboard snapshot

     One consistent read: the census and backlog now, the period's counts and time series.

    Args:
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        window_hours (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DashboardSnapshot | GetDashboardResponse422 | Problem
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        window_hours=window_hours,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    window_hours: int | Unset = UNSET,
) -> Response[DashboardSnapshot | GetDashboardResponse422 | Problem]:
    """Get the operational dashboard snapshot

     One consistent read: the census and backlog now, the period's counts and time series.

    Args:
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        window_hours (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DashboardSnapshot | GetDashboardResponse422 | Problem]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        window_hours=window_hours,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    window_hours: int | Unset = UNSET,
) -> DashboardSnapshot | GetDashboardResponse422 | Problem | None:
    """Get the operational dashboard snapshot

     One consistent read: the census and backlog now, the period's counts and time series.

    Args:
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        window_hours (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DashboardSnapshot | GetDashboardResponse422 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            window_hours=window_hours,
        )
    ).parsed
