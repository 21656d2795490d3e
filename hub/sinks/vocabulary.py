"""The delivery vocabulary, defined once: sink kinds, attempt outcomes and attempt error classes.

Every other module (request schemas, validation, matching, the sink workers, the dashboard, the
README's error-class table) derives its list from these enums instead of restating it.
"""

from __future__ import annotations

from enum import StrEnum


class SinkKind(StrEnum):
    """Where a subscription's events go (the contract's ``SinkKind``)."""

    webhook = "webhook"
    pull = "pull"
    sqs = "sqs"
    rabbitmq = "rabbitmq"
    eventbridge = "eventbridge"


class Outcome(StrEnum):
    """How one attempt ended (docs/contract-notes.md N23); also the dashboard's attempt keys."""

    delivered = "delivered"
    failed = "failed"  # will be retried
    dead_lettered = "dead_lettered"  # retry budget spent, or a refusal that no retry can fix
    disabled = "disabled"  # subscription disabled, deleted, or never became deliverable in time
    available = "available"  # stored for a pull subscription
    poison = "poison"  # the record could not be processed


TERMINAL_OUTCOMES = frozenset({Outcome.delivered, Outcome.dead_lettered, Outcome.disabled})


class ErrorClass(StrEnum):
    """The frozen taxonomy of why an attempt or a probe failed (``""`` on success).

    New members may be added; existing values never change meaning, because tenants filter and
    alert on them.
    """

    timeout = "timeout"  # no complete answer within the subscription's timeout
    connect_refused = "connect_refused"  # TCP connection refused or destination unreachable
    connection_reset = "connection_reset"  # the peer closed or reset the connection mid-exchange
    tls = "tls"  # TLS handshake or certificate verification failed
    dns = "dns"  # the destination's name did not resolve
    endpoint_blocked = "endpoint_blocked"  # resolved to an address the SSRF guard refuses
    redirect = "redirect"  # a 3xx answer; redirects are never followed
    http_4xx = "http_4xx"  # a 4xx answer other than 410 and 429
    http_429 = "http_429"  # rate limited by the destination
    http_410 = "http_410"  # Gone: dead-lettered at once
    http_5xx = "http_5xx"  # a 5xx answer
    invalid_response = "invalid_response"  # the answer was not HTTP we can read
    auth_failed = "auth_failed"  # the destination refused the credentials
    destination_missing = "destination_missing"  # queue, exchange or event bus does not exist
    unroutable = "unroutable"  # RabbitMQ returned a mandatory message: no queue bound
    payload_too_large = "payload_too_large"  # over the destination's size limit: dead-lettered at once
    destination_error = "destination_error"  # any other refusal the destination reported (detail has its code)
    no_credential = "no_credential"  # a queue subscription with neither a credential nor a grant
    internal = "internal"  # a defect in the hub: a failed try is retried; a job it cannot prepare is dead-lettered
