"""A local certificate authority for ``hub listen``: made once, kept, and trusted by the hub.

The CA lives in one directory (``ca.pem``, the certificate the hub trusts, and ``ca.key``, readable
by its owner only). It is reused on every start, so the path given to the hub's CA-bundle setting
stays valid; each start issues a fresh server certificate for ``127.0.0.1`` and ``localhost``
(and the listen address) from it, held in memory only.
"""

from __future__ import annotations

import os
import ssl
from pathlib import Path

import trustme

from hub.config import REPO_ROOT

DEFAULT_CA_DIR = REPO_ROOT / ".local" / "listen"
CA_CERT = "ca.pem"
CA_KEY = "ca.key"


def load_or_create_ca(directory: Path = DEFAULT_CA_DIR) -> tuple[trustme.CA, Path]:
    """The local CA and the path of its certificate, made (and written) on first use."""
    cert_path, key_path = directory / CA_CERT, directory / CA_KEY
    if cert_path.is_file() and key_path.is_file():
        return trustme.CA.from_pem(cert_path.read_bytes(), key_path.read_bytes()), cert_path
    directory.mkdir(parents=True, exist_ok=True)
    ca = trustme.CA(organization_name="streaming-hub hub listen")
    # The key is written owner-only before it holds anything.
    descriptor = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as key_file:
        key_file.write(ca.private_key_pem.bytes())
    ca.cert_pem.write_to_path(str(cert_path))
    return ca, cert_path


def server_context(ca: trustme.CA, host: str) -> ssl.SSLContext:
    """A TLS server context with a fresh certificate for HOST, 127.0.0.1 and localhost."""
    names = list(dict.fromkeys([host, "127.0.0.1", "localhost"]))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(*names).configure_cert(context)
    return context
