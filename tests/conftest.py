"""Shared fixtures: the migrated real database, the app, tenants and tokens."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from hub import migrate
from hub.app import create_app
from hub.auth.tokens import mint_token
from hub.devtools.tree import DEFAULT_PERMISSIONS

ALL_PERMISSIONS = list(DEFAULT_PERMISSIONS)


@pytest.fixture(scope="session", autouse=True)
def migrated_database() -> None:
    """Every test runs against a real PostgreSQL migrated to head."""
    migrate.upgrade()


@pytest.fixture(scope="session")
def app():
    return create_app()


@pytest.fixture
def client(app) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def tenant() -> str:
    """A fresh tenant id, so tests never see each other's rows."""
    return f"t-{uuid.uuid4().hex[:12]}"


TokenFactory = Callable[..., str]


@pytest.fixture
def make_token(tenant: str) -> TokenFactory:
    def factory(*, permissions: list[str] | None = None, tenant_id: str | None | object = ..., **kwargs) -> str:
        chosen = tenant if tenant_id is ... else tenant_id
        return mint_token(tenant=chosen, permissions=ALL_PERMISSIONS if permissions is None else permissions,
                          **kwargs)

    return factory


@pytest.fixture
def auth_headers(make_token: TokenFactory) -> dict[str, str]:
    return {"Authorization": f"Bearer {make_token()}"}


@pytest.fixture
def override_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Set HUB_* settings for one test; the cached settings are rebuilt before and after."""
    from hub.config import get_settings

    def apply(**values: object) -> None:
        for name, value in values.items():
            monkeypatch.setenv(f"HUB_{name.upper()}", str(value))
        get_settings.cache_clear()

    yield apply
    monkeypatch.undo()
    get_settings.cache_clear()
