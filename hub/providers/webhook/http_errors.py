"""How an HTTP destination's answer or transport failure maps onto the frozen ``ErrorClass``.

Shared by the webhook sink and the ping probe, so a delivery and a probe classify alike. A transport
failure is one of ``pyreqwest``'s exceptions (the compiled client, N79), classified by its type and its
cause chain; the detail is the hub's own sentence, never the client's message (which names the URL).
"""

from __future__ import annotations

import asyncio
import errno
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from pyreqwest import exceptions as reqwest

from hub.egress.errors import DnsTimeout, DnsUnavailable, EndpointBlocked
from hub.egress.refusal import EgressRefused
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


_OS_ERROR = re.compile(r"os error (\d+)")
# Words of the client's cause chain, lowercased, by what failed (reqwest words its causes itself).
_TLS_WORDS = ("certificate", "tls", "ssl", "handshake", "alert", "corrupt message", "peer is incompatible",
              "peer misbehaved", "inappropriate")
_DNS_WORDS = ("dns error", "failed to lookup address")
_REFUSED_WORDS = ("connection refused", "unreachable")
_RESET_WORDS = ("connection reset", "broken pipe", "connection closed", "connection aborted", "incomplete message",
                "unexpected eof", "end of file", "canceled")


def _causes(exc: reqwest.DetailedPyreqwestError) -> str:
    """The client's cause chain as one lowercased text, without the cause that quotes the URL (never shown)."""
    causes = (exc.details or {}).get("causes") or []
    messages = (str(cause.get("message", "")) for cause in causes)
    # The outer cause quotes the URL, whose host or path could contain any of the words below.
    return " / ".join(message for message in messages if "for url (" not in message).lower()


def _os_errnos(causes: str) -> set[int]:
    return {int(number) for number in _OS_ERROR.findall(causes)}


def _network_class(exc: reqwest.DetailedPyreqwestError) -> tuple[ErrorClass, str]:
    """Classify a failed exchange of the compiled client by its error type and cause chain."""
    causes = _causes(exc)
    codes = _os_errnos(causes)
    opening = "client error (connect)" in causes
    if "handshake eof" in causes:  # closed before the handshake's answer: what asyncio reported as a reset
        return ErrorClass.connection_reset, "the connection was reset while opening"
    if any(word in causes for word in _TLS_WORDS):
        return ErrorClass.tls, "the TLS handshake or certificate verification failed"
    if any(word in causes for word in _DNS_WORDS):
        return ErrorClass.dns, "the DNS lookup of the destination failed"
    if codes & _REFUSED_ERRNOS or any(word in causes for word in _REFUSED_WORDS):
        return ErrorClass.connect_refused, "the destination refused the connection or is unreachable"
    if codes & _RESET_ERRNOS or any(word in causes for word in _RESET_WORDS):
        if opening:
            return ErrorClass.connection_reset, "the connection was reset while opening"
        return ErrorClass.connection_reset, "the destination closed or reset the connection mid-exchange"
    if isinstance(exc, reqwest.DecodeError):
        return ErrorClass.invalid_response, "the answer was not HTTP the hub can read"
    if opening:
        return ErrorClass.connect_refused, "the connection could not be opened"
    if isinstance(exc, reqwest.NetworkError):
        return ErrorClass.connection_reset, "the connection failed mid-exchange"
    return ErrorClass.invalid_response, f"the exchange failed ({type(exc).__name__})"


def transport_class(exc: BaseException, timeout_seconds: float) -> tuple[ErrorClass, str]:
    """Classify an exception raised while sending or reading; the detail names no address, URL or secret."""
    if isinstance(exc, (asyncio.TimeoutError, reqwest.RequestTimeoutError)):
        return ErrorClass.timeout, f"no complete answer within {timeout_seconds:g} s"
    if isinstance(exc, EgressRefused):
        return _egress_class(exc)
    if isinstance(exc, reqwest.ClientClosedError):
        return ErrorClass.internal, "the webhook client was closed during the request"
    if isinstance(exc, reqwest.RequestError):
        return _network_class(exc)
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
