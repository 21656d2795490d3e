"""``hub token --publish-event-type`` mints what E3 names: the permission and the claim."""

from __future__ import annotations

import subprocess
import sys

from hub.auth.tokens import decode_token
from hub.publisher.access import PUBLISH_PERMISSION, PUBLISH_TYPES_CLAIM


def test_hub_token_mints_publish_rights() -> None:
    result = subprocess.run([sys.executable, "-m", "workers.cli", "token", "--tenant", "acme",
                             "--publish-event-type", "myapp.user.created", "--publish-event-type", "myapp.file.uploaded"],
                            capture_output=True, text=True, timeout=60, check=True)
    claims = decode_token(result.stdout.strip())
    assert claims["tenant_id"] == "acme" and PUBLISH_PERMISSION in claims["permissions"]
    assert claims[PUBLISH_TYPES_CLAIM] == ["myapp.user.created", "myapp.file.uploaded"]
    plain = decode_token(subprocess.run([sys.executable, "-m", "workers.cli", "token"], capture_output=True,
                                        text=True, timeout=60, check=True).stdout.strip())
    assert PUBLISH_TYPES_CLAIM not in plain and PUBLISH_PERMISSION not in plain["permissions"]
