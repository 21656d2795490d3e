"""The console link ``hub token`` prints: the token rides in the URL fragment, which browsers never
send to the server, so it stays out of access logs and proxies."""

from __future__ import annotations

from urllib.parse import quote

from hub.config import get_settings

WILDCARD_HOSTS = {"", "0.0.0.0", "::", "[::]"}


def console_link(token: str) -> str:
    """``http://HOST:PORT/console/#token=TOKEN`` for the API this process's settings describe."""
    settings = get_settings()
    host = "localhost" if settings.api_host in WILDCARD_HOSTS else settings.api_host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{settings.api_port}/console/#token={quote(token, safe='')}"
