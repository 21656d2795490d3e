"""Configured producer manifests → refresh targets (R-getCatalog-18).

Single-tenant: each ``catalog_manifest_urls`` entry is a URL and the target is its host, plus the
port when it is not the scheme's default (``ledger.internal:8080``). Multi-tenant
(``catalog_multi_tenant``): each entry is ``label=url`` and the target is the service label.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from hub.config import Settings

log = logging.getLogger("hub.catalog")

_DEFAULT_PORTS = {"http": 80, "https": 443}
_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class TargetConfigError(ValueError):
    """A ``catalog_manifest_urls`` entry that cannot become a refresh target."""


@dataclass(frozen=True)
class Target:
    target: str
    manifest_url: str


def host_target(url: str) -> str:
    """The single-tenant target of ``url``: host, plus the port when not the scheme's default."""
    parts = urlsplit(url)
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise TargetConfigError("a manifest URL must be http(s)://host[:port]/path")
    if parts.username or parts.password:
        raise TargetConfigError("a manifest URL must not carry userinfo")
    try:
        port = parts.port
    except ValueError as exc:
        raise TargetConfigError("a manifest URL has an invalid port") from exc
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return host if port in (None, _DEFAULT_PORTS[parts.scheme]) else f"{host}:{port}"


def parse_entry(entry: str, *, multi_tenant: bool) -> Target:
    """One configured entry as a Target; raises TargetConfigError."""
    if not multi_tenant:
        return Target(target=host_target(entry), manifest_url=entry)
    label, sep, url = entry.partition("=")
    label = label.strip()
    if not sep or not _LABEL.match(label):
        raise TargetConfigError("a multi-tenant manifest entry must be label=url")
    host_target(url.strip())  # the URL must still be well formed
    return Target(target=label, manifest_url=url.strip())


def configured_targets(settings: Settings) -> list[Target]:
    """The valid configured targets, in configuration order; bad or duplicate entries are logged and skipped."""
    targets: dict[str, Target] = {}
    for position, entry in enumerate(settings.catalog_manifest_urls):
        try:
            target = parse_entry(entry, multi_tenant=settings.catalog_multi_tenant)
        except TargetConfigError as exc:
            # The entry itself is not logged: a misconfigured URL could carry a credential.
            log.error("catalog manifest entry skipped", extra={"fields": {"position": position, "reason": str(exc)}})
            continue
        if target.target in targets:
            log.error("catalog manifest entry skipped: duplicate target",
                      extra={"fields": {"position": position, "target": target.target}})
            continue
        targets[target.target] = target
    return list(targets.values())
