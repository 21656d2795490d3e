"""The AWS sinks' client cache: one boto3 client per (service, region, keys), built once even under a burst."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from hub.config import get_settings
from hub.providers.aws.sink import AwsClients, StaticKeys


class CountingClients(AwsClients):
    """Counts real client builds (the build itself is boto3's, unchanged)."""

    def __init__(self) -> None:
        super().__init__(settings=get_settings())
        self.builds = 0
        self.count_lock = threading.Lock()

    def _build(self, service, region, keys):  # noqa: ANN001, ANN202
        with self.count_lock:
            self.builds += 1
        return super()._build(service, region, keys)


def test_a_burst_of_sends_to_a_new_destination_builds_one_client():
    """16 pool threads asking at once for a client of new keys share one build."""
    clients = CountingClients()
    keys = StaticKeys("AKIDBURST", "secret-burst")
    start = threading.Barrier(16)

    def ask(_: int) -> int:
        start.wait()
        return id(clients.client("events", "us-east-1", keys))

    with ThreadPoolExecutor(16) as pool:
        seen = set(pool.map(ask, range(16)))
    assert clients.builds == 1 and len(seen) == 1
    other = clients.client("events", "us-east-1", StaticKeys("AKIDOTHER", "secret-other"))
    assert id(other) not in seen and clients.builds == 2, "other keys get a client of their own"
    clients.close()
