"""What every settings group shares: the ``HUB_`` prefix, the ``.local/env`` file, comma-list types."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BeforeValidator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
LOCAL_ENV_FILE = REPO_ROOT / ".local" / "env"


def split_csv(value: object) -> object:
    """A comma-separated text as its non-empty parts; any other value as it is."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


#: A list setting written as ``a,b,c`` in the environment.
CommaList = Annotated[list[str], NoDecode, BeforeValidator(split_csv)]
#: A list of numbers written as ``5,300,1800``.
CommaFloats = Annotated[list[float], NoDecode, BeforeValidator(split_csv)]


class HubSettingsGroup(BaseSettings):
    """A group of ``HUB_*`` settings; each field's docstring is its line in docs/configuration.md."""

    model_config = SettingsConfigDict(
        env_prefix="HUB_", env_file=LOCAL_ENV_FILE, env_file_encoding="utf-8", extra="ignore",
        use_attribute_docstrings=True,
    )
