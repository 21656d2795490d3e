"""Programmatic Alembic entry points (``hub migrate``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import Connection

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# What autogenerate compares besides tables, columns and indexes (the drift test uses the same).
COMPARE_OPTIONS = {"compare_type": True, "compare_server_default": True}


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def upgrade(revision: str = "heads") -> None:
    """Bring the database to ``revision`` (every head by default)."""
    command.upgrade(alembic_config(), revision)


def downgrade(revision: str) -> None:
    command.downgrade(alembic_config(), revision)


def drift(connection: Connection) -> list[Any]:
    """What autogenerate would change to make the database at ``connection`` match the models."""
    from sqlmodel import SQLModel

    import hub.models  # noqa: F401  (registers every table on the metadata)

    context = MigrationContext.configure(connection, opts=COMPARE_OPTIONS)
    return compare_metadata(context, SQLModel.metadata)


def autogenerate(message: str) -> None:
    """Write a new revision from the difference between the models and the database."""
    command.revision(alembic_config(), message=message, autogenerate=True)
