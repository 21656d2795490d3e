"""Imports every table model so ``SQLModel.metadata`` knows the whole schema."""

from hub.broker.models import BrokerEvent, BrokerTopicConfig
from hub.catalog.models import CatalogEvent, CatalogProducer
from hub.consumer.models import ConsumerQueue, ConsumerQueueHold, ConsumerRelayCursor
from hub.dataplane.models import (
    DeliveryAttempt, DeliveryJob, DeliveryPacing, LoggedEvent, PullCursor, TenantCounter,
)
from hub.dataplane.rollups import (
    AttemptCountHourly, AttemptTotalHourly, EventCountHourly, JobCountHourly, JobTotalHourly,
)
from hub.deliverylog.models import DeliveryRecovery
from hub.dlq.models import DLQObservation
from hub.health.models import SubscriptionHealthRow
from hub.idempotency.models import IdempotencyRecord
from hub.ingest.models import IngestWorkerHeartbeat, PullEligibility
from hub.ratelimit.models import RateLimitWindow
from hub.retention.models import RetentionCoverage
from hub.subscription.models import Subscription, SubscriptionVersion

__all__ = [
    "AttemptCountHourly", "AttemptTotalHourly", "BrokerEvent", "BrokerTopicConfig", "CatalogEvent", "CatalogProducer", "ConsumerQueue", "ConsumerQueueHold",
    "ConsumerRelayCursor", "DLQObservation",
    "DeliveryAttempt", "DeliveryJob", "DeliveryPacing", "DeliveryRecovery", "EventCountHourly", "IdempotencyRecord", "IngestWorkerHeartbeat",
    "JobCountHourly", "JobTotalHourly", "LoggedEvent", "PullEligibility", "PullCursor", "RateLimitWindow",
    "RetentionCoverage", "Subscription", "SubscriptionHealthRow", "SubscriptionVersion", "TenantCounter",
]
