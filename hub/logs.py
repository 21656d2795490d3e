"""Structured JSON logging with the request's trace id; secrets never reach a log line."""

from __future__ import annotations

import contextvars
import logging
import re
import sys
from datetime import UTC, datetime

import orjson

trace_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("trace_id", default="")

# Credentials can hide in free text (URLs with userinfo, bearer tokens, key=value pairs).
_SCRUBBERS = [
    (re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]+"), r"\1[redacted]"),
    (re.compile(r"(?i)\b(whsec_)?[A-Za-z0-9+/]{43}="), "[redacted]"),
    (re.compile(r"(?i)([a-z][a-z0-9+.-]*://)[^/\s:@]+:[^/\s@]+@"), r"\1[redacted]@"),
    (
        re.compile(r"(?i)\b(password|passwd|secret|token|secret_access_key|aws_secret_access_key)"
                   r"(\"?\s*[:=]\s*\"?)[^\s\",}]+"),
        r"\1\2[redacted]",
    ),
]


def scrub(text: str) -> str:
    """``text`` with anything that looks like a credential replaced."""
    for pattern, replacement in _SCRUBBERS:
        text = pattern.sub(replacement, text)
    return text


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": scrub(record.getMessage()),
        }
        trace_id = trace_id_var.get()
        if trace_id:
            entry["trace_id"] = trace_id
        for key, value in getattr(record, "fields", {}).items():
            entry[key] = scrub(value) if isinstance(value, str) else value
        if record.exc_info:
            entry["exc"] = scrub(self.formatException(record.exc_info))
        return orjson.dumps(entry, default=str).decode()


def configure_logging(level: str = "INFO") -> None:
    """Send every log record to stderr as one JSON object per line."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.hub_owned = True  # type: ignore[attr-defined]
    root = logging.getLogger()
    # Replace only our own handler, so a second app in one process does not log twice.
    root.handlers[:] = [h for h in root.handlers if not getattr(h, "hub_owned", False)] + [handler]
    root.setLevel(level.upper())
    for noisy in ("uvicorn.access", "httpx", "httpcore", "pika", "botocore", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
