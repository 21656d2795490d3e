"""The build identity: from the build's settings, else from git, else unknown."""

from __future__ import annotations

import subprocess
from functools import lru_cache

from hub import __version__
from hub.config import REPO_ROOT, get_settings


def _git(*args: str) -> str:
    try:
        result = subprocess.run(
            ["git", "-C", str(REPO_ROOT), *args], capture_output=True, text=True, timeout=3, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""


@lru_cache
def build_identity() -> dict[str, str]:
    settings = get_settings()
    commit = settings.build_commit or _git("rev-parse", "--short=12", "HEAD") or "unknown"
    date = settings.build_date or _git("log", "-1", "--format=%cI") or "unknown"
    return {"version": __version__, "commit": commit, "buildDate": date}
