"""Programmatic Alembic entry points (``hub migrate``)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def upgrade(revision: str = "heads") -> None:
    """Bring the database to ``revision`` (every head by default)."""
    command.upgrade(alembic_config(), revision)


def downgrade(revision: str) -> None:
    command.downgrade(alembic_config(), revision)


def autogenerate(message: str) -> None:
    """Write a new revision from the difference between the models and the database."""
    command.revision(alembic_config(), message=message, autogenerate=True)
