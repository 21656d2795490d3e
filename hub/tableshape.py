"""Table shapes for hand-written SQL, read from the SQLModel tables instead of restated.

The workers write with psycopg (COPY, ``unnest`` inserts) for speed, so their SQL text stays
literal; its column lists and PostgreSQL type names come from here. A name that is not a column
of the model raises :class:`KeyError` when the module using it is imported, so a renamed column
cannot leave a worker writing to a column that no longer exists.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ARRAY, JSON, BigInteger, Boolean, Column, DateTime, Integer, LargeBinary, String, Uuid
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

# Most specific first: BigInteger is an Integer, JSONB is a JSON.
_PG_TYPES: tuple[tuple[type, str], ...] = (
    (BigInteger, "int8"), (Integer, "int4"), (Boolean, "bool"), (Uuid, "uuid"),
    (DateTime, "timestamptz"), (JSONB, "jsonb"), (JSON, "json"), (String, "text"), (AutoString, "text"), (LargeBinary, "bytea"),
)


def columns(model: type[SQLModel], *names: str) -> tuple[str, ...]:
    """``names`` checked against ``model``'s table, or every column in table order when none are given."""
    table = model.__table__  # type: ignore[attr-defined]
    if not names:
        return tuple(column.name for column in table.columns)
    missing = [name for name in names if name not in table.columns]
    if missing:
        raise KeyError(f"{table.name} has no column {', '.join(missing)}")
    return names


def column_list(model: type[SQLModel], *names: str) -> str:
    """:func:`columns` joined for SQL text: ``"a, b, c"``."""
    return ", ".join(columns(model, *names))


def pg_type(column: Column) -> str:
    """The PostgreSQL type name of a column, as a cast or a binary COPY type."""
    return _type_name(column.type, f"{column.table.name}.{column.name}")


def _type_name(sa_type: Any, where: str) -> str:
    if isinstance(sa_type, ARRAY):
        return _type_name(sa_type.item_type, where) + "[]"
    for known, name in _PG_TYPES:
        if isinstance(sa_type, known):
            return name
    raise TypeError(f"no PostgreSQL type name for {where} ({sa_type!r})")


def pg_types(model: type[SQLModel], *names: str) -> tuple[str, ...]:
    """The type names of :func:`columns` (same order)."""
    table = model.__table__  # type: ignore[attr-defined]
    return tuple(pg_type(table.columns[name]) for name in columns(model, *names))


def copy_types(model: type[SQLModel], *names: str) -> tuple[str, ...]:
    """Binary COPY types: json travels as text (its binary wire form), PostgreSQL still validates it."""
    return tuple("text" if name == "json" else name for name in pg_types(model, *names))
