"""The destination fixtures (API helper, moto queues) for the deployment template tests."""

from tests.destinations.conftest import _hub_identity, api, aws_destinations, setup_configured  # noqa: F401
