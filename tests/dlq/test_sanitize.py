"""Pure logic: sanitize_error_message, shared by the DLQ observer (capture) and GET /admin/dlq (read)."""

from __future__ import annotations

import pytest

from hub.dlq.sanitize import MAX_ERROR_MESSAGE_CHARS, sanitize_error_message


@pytest.mark.parametrize(("raw", "leaks"), [
    ("connect to broker-1.internal:9092 failed", ["broker-1.internal", "9092"]),
    ("kafka:29092 unreachable", ["kafka:29092"]),
    ("10.0.0.7:5432 refused", ["10.0.0.7", "5432"]),
    ("dial [fe80::1%eth0]:443 and [::1]:9092", ["fe80", "::1", "443", "9092"]),
    ("POST https://user:pw@hooks.example.com/x?token=abc failed", ["hooks.example.com", "user:pw", "abc"]),
    ("amqp://hub:secret@rabbit.internal/%2F closed", ["secret", "rabbit.internal"]),
    ("password=hunter2 secret: s3cr3t token=abc123", ["hunter2", "s3cr3t", "abc123"]),
    ("Authorization: Bearer eyJhbGciOi.payload.sig", ["eyJhbGciOi"]),
    ("signing key whsec_" + "A" * 43 + "=", ["A" * 43]),
    ("resolved to 192.168.1.20", ["192.168.1.20"]),
])
def test_no_secret_endpoint_or_host_port_survives(raw, leaks):
    """R-listDLQObservations-04: never a secret, an endpoint URL or a host:port."""
    cleaned = sanitize_error_message(raw)
    for leak in leaks:
        assert leak not in cleaned, cleaned


def test_ordinary_text_is_kept():
    """What explains the failure stays readable (clock times are not addresses)."""
    text = "schema validation failed at 12:30:45: missing attribute tenantid (retry 3:1)"
    assert sanitize_error_message(text) == text


def test_control_characters_and_length_are_bounded():
    cleaned = sanitize_error_message("bad\x00record\x1b[31m" + "x" * 5000)
    assert "\x00" not in cleaned and "\x1b" not in cleaned
    assert len(cleaned) == MAX_ERROR_MESSAGE_CHARS


def test_empty_stays_empty():
    assert sanitize_error_message("") == ""
