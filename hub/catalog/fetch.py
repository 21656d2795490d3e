"""Fetch one producer manifest over HTTP within a total deadline and a size bound."""

from __future__ import annotations

import time

import httpx


class FetchFailed(Exception):
    """Unreachable, timed out, non-2xx or oversized: the ``fetch_failed`` class (R-getCatalog-23).

    The message is a short reason for logs; it never carries the URL or the response body.
    """


def fetch_manifest(url: str, *, timeout_seconds: float, max_bytes: int) -> bytes:
    """The manifest body at ``url``; raises FetchFailed."""
    deadline = time.monotonic() + timeout_seconds
    try:
        with httpx.Client(timeout=timeout_seconds, follow_redirects=False) as client:
            with client.stream("GET", url, headers={"Accept": "application/json"}) as response:
                if not 200 <= response.status_code < 300:
                    raise FetchFailed(f"the producer answered HTTP {response.status_code}")
                return _read_bounded(response, deadline=deadline, max_bytes=max_bytes)
    except httpx.TimeoutException as exc:
        raise FetchFailed("the producer did not answer in time") from exc
    except httpx.HTTPError as exc:
        raise FetchFailed(f"the producer could not be reached ({type(exc).__name__})") from exc


def _read_bounded(response: httpx.Response, *, deadline: float, max_bytes: int) -> bytes:
    # httpx timeouts bound each read, not the whole body: a producer dripping bytes would
    # otherwise hold the refresher far past the configured timeout.
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise FetchFailed("the manifest is larger than the configured maximum")
        if time.monotonic() > deadline:
            raise FetchFailed("the producer did not answer in time")
        chunks.append(chunk)
    return b"".join(chunks)
