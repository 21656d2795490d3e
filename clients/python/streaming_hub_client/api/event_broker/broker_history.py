from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.broker_history import BrokerHistory
from ...models.broker_history_response_401 import BrokerHistoryResponse401
from ...models.broker_history_response_403 import BrokerHistoryResponse403
from ...models.broker_history_response_422 import BrokerHistoryResponse422
from ...models.broker_history_response_500 import BrokerHistoryResponse500
from ...types import UNSET, Response, Unset


def _get_kwargs(
    domain: str,
    topic: str,
    *,
    type_: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["type"] = type_

    params["limit"] = limit

    params["until"] = until

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/{domain}/event/data/{topic}".format(
            domain=quote(str(domain), safe=""),
            topic=quote(str(topic), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    BrokerHistory
    | BrokerHistoryResponse401
    | BrokerHistoryResponse403
    | BrokerHistoryResponse422
    | BrokerHistoryResponse500
    | None
):
    if response.status_code == 200:
        response_200 = BrokerHistory.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = BrokerHistoryResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = BrokerHistoryResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 422:
        response_422 = BrokerHistoryResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = BrokerHistoryResponse500.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    BrokerHistory
    | BrokerHistoryResponse401
    | BrokerHistoryResponse403
    | BrokerHistoryResponse422
    | BrokerHistoryResponse500
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> Response[
    BrokerHistory
    | BrokerHistoryResponse401
    | BrokerHistoryResponse403
    | BrokerHistoryResponse422
    | BrokerHistoryResponse500
]:
    """Read History

     The retained events of the topic and its sub-topics, newest first.

    Args:
        domain (str):
        topic (str):
        type_ (str | Unset):
        limit (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrokerHistory | BrokerHistoryResponse401 | BrokerHistoryResponse403 | BrokerHistoryResponse422 | BrokerHistoryResponse500]
    """

    kwargs = _get_kwargs(
        domain=domain,
        topic=topic,
        type_=type_,
        limit=limit,
        until=until,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> (
    BrokerHistory
    | BrokerHistoryResponse401
    | BrokerHistoryResponse403
    | BrokerHistoryResponse422
    | BrokerHistoryResponse500
    | None
):
    """Read History

     The retained events of the topic and its sub-topics, newest first.

    Args:
        domain (str):
        topic (str):
        type_ (str | Unset):
        limit (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrokerHistory | BrokerHistoryResponse401 | BrokerHistoryResponse403 | BrokerHistoryResponse422 | BrokerHistoryResponse500
    """

    return sync_detailed(
        domain=domain,
        topic=topic,
        client=client,
        type_=type_,
        limit=limit,
        until=until,
    ).parsed


async def asyncio_detailed(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> Response[
    BrokerHistory
    | BrokerHistoryResponse401
    | BrokerHistoryResponse403
    | BrokerHistoryResponse422
    | BrokerHistoryResponse500
]:
    """Read History

     The retained events of the topic and its sub-topics, newest first.

    Args:
        domain (str):
        topic (str):
        type_ (str | Unset):
        limit (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrokerHistory | BrokerHistoryResponse401 | BrokerHistoryResponse403 | BrokerHistoryResponse422 | BrokerHistoryResponse500]
    """

    kwargs = _get_kwargs(
        domain=domain,
        topic=topic,
        type_=type_,
        limit=limit,
        until=until,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> (
    BrokerHistory
    | BrokerHistoryResponse401
    | BrokerHistoryResponse403
    | BrokerHistoryResponse422
    | BrokerHistoryResponse500
    | None
):
    """Read History

     The retained events of the topic and its sub-topics, newest first.

    Args:
        domain (str):
        topic (str):
        type_ (str | Unset):
        limit (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrokerHistory | BrokerHistoryResponse401 | BrokerHistoryResponse403 | BrokerHistoryResponse422 | BrokerHistoryResponse500
    """

    return (
        await asyncio_detailed(
            domain=domain,
            topic=topic,
            client=client,
            type_=type_,
            limit=limit,
            until=until,
        )
    ).parsed
