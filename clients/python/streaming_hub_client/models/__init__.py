"""Contains all the data models used in inputs/outputs"""

from .batch_publish_events_request import BatchPublishEventsRequest
from .batch_publish_events_response import BatchPublishEventsResponse
from .blocked_head import BlockedHead
from .blocked_head_error import BlockedHeadError
from .blocked_head_event import BlockedHeadEvent
from .blocked_key import BlockedKey
from .blocked_keys_page import BlockedKeysPage
from .broker_event_item import BrokerEventItem
from .broker_history import BrokerHistory
from .catalog_event import CatalogEvent
from .catalog_producer import CatalogProducer
from .catalog_producer_last_refresh_error_class import (
    CatalogProducerLastRefreshErrorClass,
)
from .catalog_response import CatalogResponse
from .create_durable_queue_request import CreateDurableQueueRequest
from .create_durable_queue_response import CreateDurableQueueResponse
from .create_subscription_request import CreateSubscriptionRequest
from .create_subscription_request_event_majors import (
    CreateSubscriptionRequestEventMajors,
)
from .create_subscription_response import CreateSubscriptionResponse
from .create_subscription_response_409 import CreateSubscriptionResponse409
from .credential_request import CredentialRequest
from .credential_request_sinkconfig import CredentialRequestSinkconfig
from .dashboard_channel_counts import DashboardChannelCounts
from .dashboard_current_push import DashboardCurrentPush
from .dashboard_current_state import DashboardCurrentState
from .dashboard_delivery_attempt_counts import DashboardDeliveryAttemptCounts
from .dashboard_enabled_counts import DashboardEnabledCounts
from .dashboard_pull_period import DashboardPullPeriod
from .dashboard_push_period import DashboardPushPeriod
from .dashboard_selected_period import DashboardSelectedPeriod
from .dashboard_sink_kind_counts import DashboardSinkKindCounts
from .dashboard_snapshot import DashboardSnapshot
from .dashboard_subscription_census import DashboardSubscriptionCensus
from .dashboard_time_bucket import DashboardTimeBucket
from .dashboard_verification_state_counts import DashboardVerificationStateCounts
from .dead_letter_list import DeadLetterList
from .dead_lettered_event import DeadLetteredEvent
from .dead_lettered_event_event import DeadLetteredEventEvent
from .dead_lettered_event_reason import DeadLetteredEventReason
from .delegated_grant_request import DelegatedGrantRequest
from .deleted import Deleted
from .delivery_attempt_record import DeliveryAttemptRecord
from .delivery_event import DeliveryEvent
from .delivery_job_record import DeliveryJobRecord
from .delivery_job_record_outcome import DeliveryJobRecordOutcome
from .delivery_job_record_state import DeliveryJobRecordState
from .delivery_job_response import DeliveryJobResponse
from .delivery_log_response import DeliveryLogResponse
from .delivery_options import DeliveryOptions
from .delivery_options_filter_type_0 import DeliveryOptionsFilterType0
from .delivery_options_request import DeliveryOptionsRequest
from .delivery_options_request_filter_type_0 import DeliveryOptionsRequestFilterType0
from .dlq_observation import DLQObservation
from .dlq_response import DLQResponse
from .durable_queue import DurableQueue
from .durable_queue_list import DurableQueueList
from .durable_queue_response import DurableQueueResponse
from .endpoint_response import EndpointResponse
from .event_resource import EventResource
from .filter_group import FilterGroup
from .filter_type import FilterType
from .get_dashboard_needs_attention_response_422 import (
    GetDashboardNeedsAttentionResponse422,
)
from .get_dashboard_needs_attention_response_422_details import (
    GetDashboardNeedsAttentionResponse422Details,
)
from .get_dashboard_response_422 import GetDashboardResponse422
from .get_dashboard_response_422_details import GetDashboardResponse422Details
from .list_dlq_observations_error_class import ListDlqObservationsErrorClass
from .list_subscriptions_response import ListSubscriptionsResponse
from .list_subscriptions_sink_kind import ListSubscriptionsSinkKind
from .list_subscriptions_verification_state import ListSubscriptionsVerificationState
from .liveness_response import LivenessResponse
from .needs_attention_item import NeedsAttentionItem
from .needs_attention_item_attention_reasons_item import (
    NeedsAttentionItemAttentionReasonsItem,
)
from .needs_attention_page import NeedsAttentionPage
from .ordering import Ordering
from .ordering_on_dead_letter import OrderingOnDeadLetter
from .ordering_request import OrderingRequest
from .ordering_request_on_dead_letter import OrderingRequestOnDeadLetter
from .patch_subscription_request import PatchSubscriptionRequest
from .probe_result import ProbeResult
from .probe_result_outcome import ProbeResultOutcome
from .problem import Problem
from .problem_errors_item import ProblemErrorsItem
from .publish_body import PublishBody
from .publish_event_request import PublishEventRequest
from .publish_event_response import PublishEventResponse
from .published_event import PublishedEvent
from .publisher_event import PublisherEvent
from .publisher_event_message import PublisherEventMessage
from .publishing_result import PublishingResult
from .pull_event import PullEvent
from .pull_event_payload import PullEventPayload
from .pull_events_response import PullEventsResponse
from .purge_count import PurgeCount
from .readiness_detail import ReadinessDetail
from .readiness_detail_state import ReadinessDetailState
from .readiness_response import ReadinessResponse
from .readiness_response_state import ReadinessResponseState
from .recover_request import RecoverRequest
from .recover_request_outcomes_type_0_item import RecoverRequestOutcomesType0Item
from .recovery import Recovery
from .recovery_outcomes_item import RecoveryOutcomesItem
from .recovery_response import RecoveryResponse
from .recovery_state import RecoveryState
from .resource_filter import ResourceFilter
from .resume_blocked_key_request import ResumeBlockedKeyRequest
from .resume_blocked_key_request_action import ResumeBlockedKeyRequestAction
from .resume_blocked_key_response import ResumeBlockedKeyResponse
from .resumed_key import ResumedKey
from .resumed_key_action import ResumedKeyAction
from .rotate_secret_response import RotateSecretResponse
from .runtime_response import RuntimeResponse
from .service_health import ServiceHealth
from .setup_artifacts_response import SetupArtifactsResponse
from .sink_kind import SinkKind
from .static_header import StaticHeader
from .static_header_read import StaticHeaderRead
from .subscription import Subscription
from .subscription_event_majors import SubscriptionEventMajors
from .subscription_health import SubscriptionHealth
from .subscription_health_delivery_outcomes import SubscriptionHealthDeliveryOutcomes
from .subscription_health_recent_outcomes import SubscriptionHealthRecentOutcomes
from .subscription_health_status import SubscriptionHealthStatus
from .subscription_read import SubscriptionRead
from .subscription_read_credential_kind import SubscriptionReadCredentialKind
from .subscription_read_event_majors import SubscriptionReadEventMajors
from .subscription_response import SubscriptionResponse
from .success_response import SuccessResponse
from .topic_config import TopicConfig
from .topic_config_answer import TopicConfigAnswer
from .topic_config_body import TopicConfigBody
from .topic_config_list import TopicConfigList
from .triage_action import TriageAction
from .triage_action_action import TriageActionAction
from .triage_outcome import TriageOutcome
from .triage_outcome_action import TriageOutcomeAction
from .triage_outcome_outcome import TriageOutcomeOutcome
from .triage_request import TriageRequest
from .triage_response import TriageResponse
from .update_durable_queue_request import UpdateDurableQueueRequest
from .verification_state import VerificationState
from .version_response import VersionResponse

__all__ = (
    "BatchPublishEventsRequest",
    "BatchPublishEventsResponse",
    "BlockedHead",
    "BlockedHeadError",
    "BlockedHeadEvent",
    "BlockedKey",
    "BlockedKeysPage",
    "BrokerEventItem",
    "BrokerHistory",
    "CatalogEvent",
    "CatalogProducer",
    "CatalogProducerLastRefreshErrorClass",
    "CatalogResponse",
    "CreateDurableQueueRequest",
    "CreateDurableQueueResponse",
    "CreateSubscriptionRequest",
    "CreateSubscriptionRequestEventMajors",
    "CreateSubscriptionResponse",
    "CreateSubscriptionResponse409",
    "CredentialRequest",
    "CredentialRequestSinkconfig",
    "DashboardChannelCounts",
    "DashboardCurrentPush",
    "DashboardCurrentState",
    "DashboardDeliveryAttemptCounts",
    "DashboardEnabledCounts",
    "DashboardPullPeriod",
    "DashboardPushPeriod",
    "DashboardSelectedPeriod",
    "DashboardSinkKindCounts",
    "DashboardSnapshot",
    "DashboardSubscriptionCensus",
    "DashboardTimeBucket",
    "DashboardVerificationStateCounts",
    "DeadLetteredEvent",
    "DeadLetteredEventEvent",
    "DeadLetteredEventReason",
    "DeadLetterList",
    "DelegatedGrantRequest",
    "Deleted",
    "DeliveryAttemptRecord",
    "DeliveryEvent",
    "DeliveryJobRecord",
    "DeliveryJobRecordOutcome",
    "DeliveryJobRecordState",
    "DeliveryJobResponse",
    "DeliveryLogResponse",
    "DeliveryOptions",
    "DeliveryOptionsFilterType0",
    "DeliveryOptionsRequest",
    "DeliveryOptionsRequestFilterType0",
    "DLQObservation",
    "DLQResponse",
    "DurableQueue",
    "DurableQueueList",
    "DurableQueueResponse",
    "EndpointResponse",
    "EventResource",
    "FilterGroup",
    "FilterType",
    "GetDashboardNeedsAttentionResponse422",
    "GetDashboardNeedsAttentionResponse422Details",
    "GetDashboardResponse422",
    "GetDashboardResponse422Details",
    "ListDlqObservationsErrorClass",
    "ListSubscriptionsResponse",
    "ListSubscriptionsSinkKind",
    "ListSubscriptionsVerificationState",
    "LivenessResponse",
    "NeedsAttentionItem",
    "NeedsAttentionItemAttentionReasonsItem",
    "NeedsAttentionPage",
    "Ordering",
    "OrderingOnDeadLetter",
    "OrderingRequest",
    "OrderingRequestOnDeadLetter",
    "PatchSubscriptionRequest",
    "ProbeResult",
    "ProbeResultOutcome",
    "Problem",
    "ProblemErrorsItem",
    "PublishBody",
    "PublishedEvent",
    "PublisherEvent",
    "PublisherEventMessage",
    "PublishEventRequest",
    "PublishEventResponse",
    "PublishingResult",
    "PullEvent",
    "PullEventPayload",
    "PullEventsResponse",
    "PurgeCount",
    "ReadinessDetail",
    "ReadinessDetailState",
    "ReadinessResponse",
    "ReadinessResponseState",
    "RecoverRequest",
    "RecoverRequestOutcomesType0Item",
    "Recovery",
    "RecoveryOutcomesItem",
    "RecoveryResponse",
    "RecoveryState",
    "ResourceFilter",
    "ResumeBlockedKeyRequest",
    "ResumeBlockedKeyRequestAction",
    "ResumeBlockedKeyResponse",
    "ResumedKey",
    "ResumedKeyAction",
    "RotateSecretResponse",
    "RuntimeResponse",
    "ServiceHealth",
    "SetupArtifactsResponse",
    "SinkKind",
    "StaticHeader",
    "StaticHeaderRead",
    "Subscription",
    "SubscriptionEventMajors",
    "SubscriptionHealth",
    "SubscriptionHealthDeliveryOutcomes",
    "SubscriptionHealthRecentOutcomes",
    "SubscriptionHealthStatus",
    "SubscriptionRead",
    "SubscriptionReadCredentialKind",
    "SubscriptionReadEventMajors",
    "SubscriptionResponse",
    "SuccessResponse",
    "TopicConfig",
    "TopicConfigAnswer",
    "TopicConfigBody",
    "TopicConfigList",
    "TriageAction",
    "TriageActionAction",
    "TriageOutcome",
    "TriageOutcomeAction",
    "TriageOutcomeOutcome",
    "TriageRequest",
    "TriageResponse",
    "UpdateDurableQueueRequest",
    "VerificationState",
    "VersionResponse",
)
