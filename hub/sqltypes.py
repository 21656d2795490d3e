"""Column helpers shared by the table models."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, DateTime
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field


def utcnow() -> datetime:
    return datetime.now(UTC)


def tz_field(*, nullable: bool = True, default_now: bool = False, index: bool = False) -> Any:
    """A ``timestamptz`` column."""
    return Field(
        default_factory=utcnow if default_now else lambda: None,
        sa_column=Column(DateTime(timezone=True), nullable=nullable, index=index),
    )


def jsonb_field(*, nullable: bool = True) -> Any:
    """A JSONB column."""
    return Field(default=None, sa_column=Column(JSONB, nullable=nullable))


def json_field(*, nullable: bool = True) -> Any:
    """A ``json`` column: the document's text is kept exactly as written."""
    return Field(default=None, sa_column=Column(JSON, nullable=nullable))


def bigint_field(
    *, primary_key: bool = False, nullable: bool = False, default: int | None = None, server_default: str | None = None
) -> Any:
    """A ``bigint`` column (never autoincremented); ``server_default`` when the migration declares one."""
    return Field(
        default=default,
        sa_column=Column(BigInteger, primary_key=primary_key, nullable=nullable, autoincrement=False,
                         server_default=server_default),
    )
