"""Database engine and the request-scoped session dependency."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Annotated

from fastapi import Depends
from sqlalchemy import Engine, text
from sqlmodel import Session, create_engine

from hub.config import get_settings


@lru_cache
def get_engine() -> Engine:
    """The process-wide SQLAlchemy engine (psycopg 3 driver)."""
    settings = get_settings()
    return create_engine(
        settings.database_url,
        pool_size=settings.database_pool_size,
        max_overflow=settings.database_pool_size,
        pool_pre_ping=True,
        pool_timeout=10,
        connect_args={"connect_timeout": 5},
    )


def libpq_url() -> str:
    """The database URL in the form psycopg and the PostgreSQL tools accept."""
    return get_settings().database_url.replace("postgresql+psycopg://", "postgresql://", 1)


def get_session() -> Iterator[Session]:
    with Session(get_engine(), expire_on_commit=False) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


@contextmanager
def session_scope() -> Iterator[Session]:
    """A session that commits on success and rolls back on error (for workers and CLI)."""
    with Session(get_engine(), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def ping_database(timeout_seconds: float = 2.0) -> None:
    """Raise if PostgreSQL does not answer a trivial query within the timeout."""
    with get_engine().connect() as connection:
        connection.execute(text(f"SET statement_timeout = {int(timeout_seconds * 1000)}"))
        connection.execute(text("SELECT 1"))
