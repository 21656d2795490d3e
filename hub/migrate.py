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


def create_database_if_missing() -> bool:
    """Create the database that ``HUB_DATABASE_URL`` names when it does not exist; True when created.

    Connects to the cluster's ``postgres`` database with the same role, which needs CREATEDB (the
    local stack's ``hub`` role has it). An unreachable server is left to the start-up check to report.
    """
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    from hub.db import libpq_url

    params = conninfo_to_dict(libpq_url())
    name = params.get("dbname")
    if not name:
        return False
    try:
        with psycopg.connect(make_conninfo(**{**params, "dbname": "postgres"}), autocommit=True,
                             connect_timeout=5) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                return False
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.errors.DuplicateDatabase:  # created by a concurrent run meanwhile
        return False
    except psycopg.OperationalError:
        return False
    return True


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
