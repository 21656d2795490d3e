"""How an HTTP destination's answer or transport failure maps onto the frozen ``ErrorClass``.

Shared by the webhook sink and the ping probe, so a delivery and a probe classify alike.
"""

from __future__ import annotations

import asyncio
import errno
import ssl
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import aiohttp

from hub.egress.aio import EgressRefused
from hub.egress.errors import DnsTimeout, DnsUnavailable, EndpointBlocked
from hub.sinks.vocabulary import ErrorClass

_REFUSED_ERRNOS = {errno.ECONNREFUSED, errno.EHOSTUNREACH, errno.ENETUNREACH, errno.EADDRNOTAVAIL}
_RESET_ERRNOS = {errno.ECONNRESET, errno.EPIPE, errno.ECONNABORTED}


def status_class(status: int) -> ErrorClass | None:
    """The class of an HTTP status, or None for a 2xx success."""
    if 200 <= status < 300:
        return None
    if 300 <= status < 400:
        return ErrorClass.redirect
    if status == 410:
        return ErrorClass.http_410
    if status == 429:
        return ErrorClass.http_429
    if status == 413:
        return ErrorClass.payload_too_large
    if 400 <= status < 500:
        return ErrorClass.http_4xx
    if status >= 500:
        return ErrorClass.http_5xx
    return ErrorClass.invalid_response


def status_detail(status: int) -> str:
    if 300 <= status < 400:
        return f"endpoint answered HTTP {status} (redirects are not followed)"
    return f"endpoint answered HTTP {status}"


def _egress_class(refused: EgressRefused) -> tuple[ErrorClass, str]:
    cause = refused.cause
    if isinstance(cause, (DnsUnavailable, DnsTimeout)):
        return ErrorClass.dns, f"the DNS lookup of the destination failed ({cause.code})"
    if isinstance(cause, EndpointBlocked):
        return ErrorClass.endpoint_blocked, cause.detail
    return ErrorClass.endpoint_blocked, f"the destination was refused ({cause.code})"


def _find_cause(exc: BaseException) -> BaseException:
    """The innermost OS or TLS error aiohttp wrapped, when there is one."""
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 6:
        if isinstance(current, (EgressRefused, ssl.SSLError, ssl.CertificateError)):
            return current
        inner = getattr(current, "os_error", None) or current.__cause__ or current.__context__
        if inner is None:
            break
        current, seen = inner, seen + 1
    return current or exc


def transport_class(exc: BaseException, timeout_seconds: float) -> tuple[ErrorClass, str]:
    """Classify an exception raised while sending or reading; the detail names no address."""
    if isinstance(exc, (asyncio.TimeoutError, aiohttp.ServerTimeoutError)):
        return ErrorClass.timeout, f"no complete answer within {timeout_seconds:g} s"
    cause = _find_cause(exc)
    if isinstance(cause, EgressRefused):
        return _egress_class(cause)
    if isinstance(exc, (aiohttp.ClientConnectorCertificateError, aiohttp.ClientSSLError)) or isinstance(
            cause, (ssl.SSLError, ssl.CertificateError)):
        return ErrorClass.tls, "the TLS handshake or certificate verification failed"
    if isinstance(exc, aiohttp.ClientConnectorError):
        code = getattr(cause, "errno", None)
        if isinstance(cause, ConnectionRefusedError) or code in _REFUSED_ERRNOS:
            return ErrorClass.connect_refused, "the destination refused the connection or is unreachable"
        if isinstance(cause, ConnectionResetError) or code in _RESET_ERRNOS:
            return ErrorClass.connection_reset, "the connection was reset while opening"
        return ErrorClass.connect_refused, f"the connection could not be opened ({type(cause).__name__})"
    if isinstance(exc, (aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError)) or isinstance(
            cause, (ConnectionResetError, BrokenPipeError)):
        return ErrorClass.connection_reset, "the destination closed or reset the connection mid-exchange"
    if isinstance(exc, aiohttp.ClientResponseError):
        return ErrorClass.invalid_response, "the answer was not HTTP the hub can read"
    if isinstance(exc, aiohttp.ClientOSError):
        return ErrorClass.connection_reset, f"the connection failed ({type(cause).__name__})"
    if isinstance(exc, aiohttp.ClientError):
        return ErrorClass.invalid_response, f"the exchange failed ({type(exc).__name__})"
    return ErrorClass.internal, f"unexpected {type(exc).__name__} in the webhook sink"


def retry_after_seconds(value: str | None) -> float | None:
    """A Retry-After header (delta seconds or an HTTP date) in seconds from now, or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - datetime.now(UTC)).total_seconds())
