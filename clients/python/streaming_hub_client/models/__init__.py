"""Contains all the data models used in inputs/outputs"""

from .batch_publish_events_request import BatchPublishEventsRequest
from .batch_publish_events_response import BatchPublishEventsResponse
from .batch_publish_events_response_400 import BatchPublishEventsResponse400
from .batch_publish_events_response_400_errors_item import (
    BatchPublishEventsResponse400ErrorsItem,
)
from .batch_publish_events_response_401 import BatchPublishEventsResponse401
from .batch_publish_events_response_401_errors_item import (
    BatchPublishEventsResponse401ErrorsItem,
)
from .batch_publish_events_response_403 import BatchPublishEventsResponse403
from .batch_publish_events_response_403_errors_item import (
    BatchPublishEventsResponse403ErrorsItem,
)
from .batch_publish_events_response_422 import BatchPublishEventsResponse422
from .batch_publish_events_response_422_errors_item import (
    BatchPublishEventsResponse422ErrorsItem,
)
from .batch_publish_events_response_500 import BatchPublishEventsResponse500
from .batch_publish_events_response_500_errors_item import (
    BatchPublishEventsResponse500ErrorsItem,
)
from .batch_publish_events_response_503 import BatchPublishEventsResponse503
from .batch_publish_events_response_503_errors_item import (
    BatchPublishEventsResponse503ErrorsItem,
)
from .batch_publish_events_response_504 import BatchPublishEventsResponse504
from .batch_publish_events_response_504_errors_item import (
    BatchPublishEventsResponse504ErrorsItem,
)
from .blocked_head import BlockedHead
from .blocked_head_error import BlockedHeadError
from .blocked_head_event import BlockedHeadEvent
from .blocked_key import BlockedKey
from .blocked_keys_page import BlockedKeysPage
from .broker_delete_config_response_401 import BrokerDeleteConfigResponse401
from .broker_delete_config_response_401_errors_item import (
    BrokerDeleteConfigResponse401ErrorsItem,
)
from .broker_delete_config_response_403 import BrokerDeleteConfigResponse403
from .broker_delete_config_response_403_errors_item import (
    BrokerDeleteConfigResponse403ErrorsItem,
)
from .broker_delete_config_response_422 import BrokerDeleteConfigResponse422
from .broker_delete_config_response_422_errors_item import (
    BrokerDeleteConfigResponse422ErrorsItem,
)
from .broker_delete_config_response_500 import BrokerDeleteConfigResponse500
from .broker_delete_config_response_500_errors_item import (
    BrokerDeleteConfigResponse500ErrorsItem,
)
from .broker_event_item import BrokerEventItem
from .broker_get_config_response_401 import BrokerGetConfigResponse401
from .broker_get_config_response_401_errors_item import (
    BrokerGetConfigResponse401ErrorsItem,
)
from .broker_get_config_response_403 import BrokerGetConfigResponse403
from .broker_get_config_response_403_errors_item import (
    BrokerGetConfigResponse403ErrorsItem,
)
from .broker_get_config_response_422 import BrokerGetConfigResponse422
from .broker_get_config_response_422_errors_item import (
    BrokerGetConfigResponse422ErrorsItem,
)
from .broker_get_config_response_500 import BrokerGetConfigResponse500
from .broker_get_config_response_500_errors_item import (
    BrokerGetConfigResponse500ErrorsItem,
)
from .broker_history import BrokerHistory
from .broker_history_response_401 import BrokerHistoryResponse401
from .broker_history_response_401_errors_item import BrokerHistoryResponse401ErrorsItem
from .broker_history_response_403 import BrokerHistoryResponse403
from .broker_history_response_403_errors_item import BrokerHistoryResponse403ErrorsItem
from .broker_history_response_422 import BrokerHistoryResponse422
from .broker_history_response_422_errors_item import BrokerHistoryResponse422ErrorsItem
from .broker_history_response_500 import BrokerHistoryResponse500
from .broker_history_response_500_errors_item import BrokerHistoryResponse500ErrorsItem
from .broker_list_configs_response_401 import BrokerListConfigsResponse401
from .broker_list_configs_response_401_errors_item import (
    BrokerListConfigsResponse401ErrorsItem,
)
from .broker_list_configs_response_403 import BrokerListConfigsResponse403
from .broker_list_configs_response_403_errors_item import (
    BrokerListConfigsResponse403ErrorsItem,
)
from .broker_list_configs_response_422 import BrokerListConfigsResponse422
from .broker_list_configs_response_422_errors_item import (
    BrokerListConfigsResponse422ErrorsItem,
)
from .broker_list_configs_response_500 import BrokerListConfigsResponse500
from .broker_list_configs_response_500_errors_item import (
    BrokerListConfigsResponse500ErrorsItem,
)
from .broker_publish_response_400 import BrokerPublishResponse400
from .broker_publish_response_400_errors_item import BrokerPublishResponse400ErrorsItem
from .broker_publish_response_401 import BrokerPublishResponse401
from .broker_publish_response_401_errors_item import BrokerPublishResponse401ErrorsItem
from .broker_publish_response_403 import BrokerPublishResponse403
from .broker_publish_response_403_errors_item import BrokerPublishResponse403ErrorsItem
from .broker_publish_response_422 import BrokerPublishResponse422
from .broker_publish_response_422_errors_item import BrokerPublishResponse422ErrorsItem
from .broker_publish_response_500 import BrokerPublishResponse500
from .broker_publish_response_500_errors_item import BrokerPublishResponse500ErrorsItem
from .broker_publish_response_503 import BrokerPublishResponse503
from .broker_publish_response_503_errors_item import BrokerPublishResponse503ErrorsItem
from .broker_purge_response_401 import BrokerPurgeResponse401
from .broker_purge_response_401_errors_item import BrokerPurgeResponse401ErrorsItem
from .broker_purge_response_403 import BrokerPurgeResponse403
from .broker_purge_response_403_errors_item import BrokerPurgeResponse403ErrorsItem
from .broker_purge_response_422 import BrokerPurgeResponse422
from .broker_purge_response_422_errors_item import BrokerPurgeResponse422ErrorsItem
from .broker_purge_response_500 import BrokerPurgeResponse500
from .broker_purge_response_500_errors_item import BrokerPurgeResponse500ErrorsItem
from .broker_put_config_response_400 import BrokerPutConfigResponse400
from .broker_put_config_response_400_errors_item import (
    BrokerPutConfigResponse400ErrorsItem,
)
from .broker_put_config_response_401 import BrokerPutConfigResponse401
from .broker_put_config_response_401_errors_item import (
    BrokerPutConfigResponse401ErrorsItem,
)
from .broker_put_config_response_403 import BrokerPutConfigResponse403
from .broker_put_config_response_403_errors_item import (
    BrokerPutConfigResponse403ErrorsItem,
)
from .broker_put_config_response_422 import BrokerPutConfigResponse422
from .broker_put_config_response_422_errors_item import (
    BrokerPutConfigResponse422ErrorsItem,
)
from .broker_put_config_response_500 import BrokerPutConfigResponse500
from .broker_put_config_response_500_errors_item import (
    BrokerPutConfigResponse500ErrorsItem,
)
from .broker_topic_tree_response_401 import BrokerTopicTreeResponse401
from .broker_topic_tree_response_401_errors_item import (
    BrokerTopicTreeResponse401ErrorsItem,
)
from .broker_topic_tree_response_403 import BrokerTopicTreeResponse403
from .broker_topic_tree_response_403_errors_item import (
    BrokerTopicTreeResponse403ErrorsItem,
)
from .broker_topic_tree_response_422 import BrokerTopicTreeResponse422
from .broker_topic_tree_response_422_errors_item import (
    BrokerTopicTreeResponse422ErrorsItem,
)
from .broker_topic_tree_response_500 import BrokerTopicTreeResponse500
from .broker_topic_tree_response_500_errors_item import (
    BrokerTopicTreeResponse500ErrorsItem,
)
from .catalog_event import CatalogEvent
from .catalog_producer import CatalogProducer
from .catalog_producer_last_refresh_error_class import (
    CatalogProducerLastRefreshErrorClass,
)
from .catalog_response import CatalogResponse
from .create_durable_queue_request import CreateDurableQueueRequest
from .create_durable_queue_response import CreateDurableQueueResponse
from .create_durable_queue_response_400 import CreateDurableQueueResponse400
from .create_durable_queue_response_400_errors_item import (
    CreateDurableQueueResponse400ErrorsItem,
)
from .create_durable_queue_response_401 import CreateDurableQueueResponse401
from .create_durable_queue_response_401_errors_item import (
    CreateDurableQueueResponse401ErrorsItem,
)
from .create_durable_queue_response_403 import CreateDurableQueueResponse403
from .create_durable_queue_response_403_errors_item import (
    CreateDurableQueueResponse403ErrorsItem,
)
from .create_durable_queue_response_404 import CreateDurableQueueResponse404
from .create_durable_queue_response_404_errors_item import (
    CreateDurableQueueResponse404ErrorsItem,
)
from .create_durable_queue_response_422 import CreateDurableQueueResponse422
from .create_durable_queue_response_422_errors_item import (
    CreateDurableQueueResponse422ErrorsItem,
)
from .create_durable_queue_response_500 import CreateDurableQueueResponse500
from .create_durable_queue_response_500_errors_item import (
    CreateDurableQueueResponse500ErrorsItem,
)
from .create_durable_queue_response_503 import CreateDurableQueueResponse503
from .create_durable_queue_response_503_errors_item import (
    CreateDurableQueueResponse503ErrorsItem,
)
from .create_subscription_request import CreateSubscriptionRequest
from .create_subscription_request_event_majors import (
    CreateSubscriptionRequestEventMajors,
)
from .create_subscription_response import CreateSubscriptionResponse
from .create_subscription_response_400 import CreateSubscriptionResponse400
from .create_subscription_response_400_errors_item import (
    CreateSubscriptionResponse400ErrorsItem,
)
from .create_subscription_response_401 import CreateSubscriptionResponse401
from .create_subscription_response_401_errors_item import (
    CreateSubscriptionResponse401ErrorsItem,
)
from .create_subscription_response_403 import CreateSubscriptionResponse403
from .create_subscription_response_403_errors_item import (
    CreateSubscriptionResponse403ErrorsItem,
)
from .create_subscription_response_409 import CreateSubscriptionResponse409
from .create_subscription_response_409_errors_item import (
    CreateSubscriptionResponse409ErrorsItem,
)
from .create_subscription_response_422 import CreateSubscriptionResponse422
from .create_subscription_response_422_errors_item import (
    CreateSubscriptionResponse422ErrorsItem,
)
from .create_subscription_response_500 import CreateSubscriptionResponse500
from .create_subscription_response_500_errors_item import (
    CreateSubscriptionResponse500ErrorsItem,
)
from .create_subscription_response_503 import CreateSubscriptionResponse503
from .create_subscription_response_503_errors_item import (
    CreateSubscriptionResponse503ErrorsItem,
)
from .create_subscription_response_504 import CreateSubscriptionResponse504
from .create_subscription_response_504_errors_item import (
    CreateSubscriptionResponse504ErrorsItem,
)
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
from .delete_durable_queue_response_401 import DeleteDurableQueueResponse401
from .delete_durable_queue_response_401_errors_item import (
    DeleteDurableQueueResponse401ErrorsItem,
)
from .delete_durable_queue_response_403 import DeleteDurableQueueResponse403
from .delete_durable_queue_response_403_errors_item import (
    DeleteDurableQueueResponse403ErrorsItem,
)
from .delete_durable_queue_response_404 import DeleteDurableQueueResponse404
from .delete_durable_queue_response_404_errors_item import (
    DeleteDurableQueueResponse404ErrorsItem,
)
from .delete_durable_queue_response_422 import DeleteDurableQueueResponse422
from .delete_durable_queue_response_422_errors_item import (
    DeleteDurableQueueResponse422ErrorsItem,
)
from .delete_durable_queue_response_500 import DeleteDurableQueueResponse500
from .delete_durable_queue_response_500_errors_item import (
    DeleteDurableQueueResponse500ErrorsItem,
)
from .delete_durable_queue_response_503 import DeleteDurableQueueResponse503
from .delete_durable_queue_response_503_errors_item import (
    DeleteDurableQueueResponse503ErrorsItem,
)
from .delete_subscription_response_400 import DeleteSubscriptionResponse400
from .delete_subscription_response_400_errors_item import (
    DeleteSubscriptionResponse400ErrorsItem,
)
from .delete_subscription_response_401 import DeleteSubscriptionResponse401
from .delete_subscription_response_401_errors_item import (
    DeleteSubscriptionResponse401ErrorsItem,
)
from .delete_subscription_response_403 import DeleteSubscriptionResponse403
from .delete_subscription_response_403_errors_item import (
    DeleteSubscriptionResponse403ErrorsItem,
)
from .delete_subscription_response_409 import DeleteSubscriptionResponse409
from .delete_subscription_response_409_errors_item import (
    DeleteSubscriptionResponse409ErrorsItem,
)
from .delete_subscription_response_500 import DeleteSubscriptionResponse500
from .delete_subscription_response_500_errors_item import (
    DeleteSubscriptionResponse500ErrorsItem,
)
from .delete_subscription_response_503 import DeleteSubscriptionResponse503
from .delete_subscription_response_503_errors_item import (
    DeleteSubscriptionResponse503ErrorsItem,
)
from .delete_subscription_response_504 import DeleteSubscriptionResponse504
from .delete_subscription_response_504_errors_item import (
    DeleteSubscriptionResponse504ErrorsItem,
)
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
from .get_catalog_response_401 import GetCatalogResponse401
from .get_catalog_response_401_errors_item import GetCatalogResponse401ErrorsItem
from .get_catalog_response_403 import GetCatalogResponse403
from .get_catalog_response_403_errors_item import GetCatalogResponse403ErrorsItem
from .get_catalog_response_429 import GetCatalogResponse429
from .get_catalog_response_429_errors_item import GetCatalogResponse429ErrorsItem
from .get_catalog_response_500 import GetCatalogResponse500
from .get_catalog_response_500_errors_item import GetCatalogResponse500ErrorsItem
from .get_catalog_response_503 import GetCatalogResponse503
from .get_catalog_response_503_errors_item import GetCatalogResponse503ErrorsItem
from .get_catalog_response_504 import GetCatalogResponse504
from .get_catalog_response_504_errors_item import GetCatalogResponse504ErrorsItem
from .get_dashboard_needs_attention_response_401 import (
    GetDashboardNeedsAttentionResponse401,
)
from .get_dashboard_needs_attention_response_401_errors_item import (
    GetDashboardNeedsAttentionResponse401ErrorsItem,
)
from .get_dashboard_needs_attention_response_403 import (
    GetDashboardNeedsAttentionResponse403,
)
from .get_dashboard_needs_attention_response_403_errors_item import (
    GetDashboardNeedsAttentionResponse403ErrorsItem,
)
from .get_dashboard_needs_attention_response_422 import (
    GetDashboardNeedsAttentionResponse422,
)
from .get_dashboard_needs_attention_response_422_details import (
    GetDashboardNeedsAttentionResponse422Details,
)
from .get_dashboard_needs_attention_response_422_errors_item import (
    GetDashboardNeedsAttentionResponse422ErrorsItem,
)
from .get_dashboard_needs_attention_response_429 import (
    GetDashboardNeedsAttentionResponse429,
)
from .get_dashboard_needs_attention_response_429_errors_item import (
    GetDashboardNeedsAttentionResponse429ErrorsItem,
)
from .get_dashboard_needs_attention_response_500 import (
    GetDashboardNeedsAttentionResponse500,
)
from .get_dashboard_needs_attention_response_500_errors_item import (
    GetDashboardNeedsAttentionResponse500ErrorsItem,
)
from .get_dashboard_needs_attention_response_503 import (
    GetDashboardNeedsAttentionResponse503,
)
from .get_dashboard_needs_attention_response_503_errors_item import (
    GetDashboardNeedsAttentionResponse503ErrorsItem,
)
from .get_dashboard_needs_attention_response_504 import (
    GetDashboardNeedsAttentionResponse504,
)
from .get_dashboard_needs_attention_response_504_errors_item import (
    GetDashboardNeedsAttentionResponse504ErrorsItem,
)
from .get_dashboard_response_401 import GetDashboardResponse401
from .get_dashboard_response_401_errors_item import GetDashboardResponse401ErrorsItem
from .get_dashboard_response_403 import GetDashboardResponse403
from .get_dashboard_response_403_errors_item import GetDashboardResponse403ErrorsItem
from .get_dashboard_response_422 import GetDashboardResponse422
from .get_dashboard_response_422_details import GetDashboardResponse422Details
from .get_dashboard_response_422_errors_item import GetDashboardResponse422ErrorsItem
from .get_dashboard_response_429 import GetDashboardResponse429
from .get_dashboard_response_429_errors_item import GetDashboardResponse429ErrorsItem
from .get_dashboard_response_500 import GetDashboardResponse500
from .get_dashboard_response_500_errors_item import GetDashboardResponse500ErrorsItem
from .get_dashboard_response_503 import GetDashboardResponse503
from .get_dashboard_response_503_errors_item import GetDashboardResponse503ErrorsItem
from .get_dashboard_response_504 import GetDashboardResponse504
from .get_dashboard_response_504_errors_item import GetDashboardResponse504ErrorsItem
from .get_durable_queue_response_401 import GetDurableQueueResponse401
from .get_durable_queue_response_401_errors_item import (
    GetDurableQueueResponse401ErrorsItem,
)
from .get_durable_queue_response_403 import GetDurableQueueResponse403
from .get_durable_queue_response_403_errors_item import (
    GetDurableQueueResponse403ErrorsItem,
)
from .get_durable_queue_response_404 import GetDurableQueueResponse404
from .get_durable_queue_response_404_errors_item import (
    GetDurableQueueResponse404ErrorsItem,
)
from .get_durable_queue_response_422 import GetDurableQueueResponse422
from .get_durable_queue_response_422_errors_item import (
    GetDurableQueueResponse422ErrorsItem,
)
from .get_durable_queue_response_429 import GetDurableQueueResponse429
from .get_durable_queue_response_429_errors_item import (
    GetDurableQueueResponse429ErrorsItem,
)
from .get_durable_queue_response_500 import GetDurableQueueResponse500
from .get_durable_queue_response_500_errors_item import (
    GetDurableQueueResponse500ErrorsItem,
)
from .get_durable_queue_response_503 import GetDurableQueueResponse503
from .get_durable_queue_response_503_errors_item import (
    GetDurableQueueResponse503ErrorsItem,
)
from .get_durable_queue_response_504 import GetDurableQueueResponse504
from .get_durable_queue_response_504_errors_item import (
    GetDurableQueueResponse504ErrorsItem,
)
from .get_subscription_delivery_options_response_401 import (
    GetSubscriptionDeliveryOptionsResponse401,
)
from .get_subscription_delivery_options_response_401_errors_item import (
    GetSubscriptionDeliveryOptionsResponse401ErrorsItem,
)
from .get_subscription_delivery_options_response_403 import (
    GetSubscriptionDeliveryOptionsResponse403,
)
from .get_subscription_delivery_options_response_403_errors_item import (
    GetSubscriptionDeliveryOptionsResponse403ErrorsItem,
)
from .get_subscription_delivery_options_response_404 import (
    GetSubscriptionDeliveryOptionsResponse404,
)
from .get_subscription_delivery_options_response_404_errors_item import (
    GetSubscriptionDeliveryOptionsResponse404ErrorsItem,
)
from .get_subscription_delivery_options_response_429 import (
    GetSubscriptionDeliveryOptionsResponse429,
)
from .get_subscription_delivery_options_response_429_errors_item import (
    GetSubscriptionDeliveryOptionsResponse429ErrorsItem,
)
from .get_subscription_delivery_options_response_500 import (
    GetSubscriptionDeliveryOptionsResponse500,
)
from .get_subscription_delivery_options_response_500_errors_item import (
    GetSubscriptionDeliveryOptionsResponse500ErrorsItem,
)
from .get_subscription_delivery_options_response_503 import (
    GetSubscriptionDeliveryOptionsResponse503,
)
from .get_subscription_delivery_options_response_503_errors_item import (
    GetSubscriptionDeliveryOptionsResponse503ErrorsItem,
)
from .get_subscription_delivery_options_response_504 import (
    GetSubscriptionDeliveryOptionsResponse504,
)
from .get_subscription_delivery_options_response_504_errors_item import (
    GetSubscriptionDeliveryOptionsResponse504ErrorsItem,
)
from .get_subscription_delivery_response_401 import GetSubscriptionDeliveryResponse401
from .get_subscription_delivery_response_401_errors_item import (
    GetSubscriptionDeliveryResponse401ErrorsItem,
)
from .get_subscription_delivery_response_403 import GetSubscriptionDeliveryResponse403
from .get_subscription_delivery_response_403_errors_item import (
    GetSubscriptionDeliveryResponse403ErrorsItem,
)
from .get_subscription_delivery_response_404 import GetSubscriptionDeliveryResponse404
from .get_subscription_delivery_response_404_errors_item import (
    GetSubscriptionDeliveryResponse404ErrorsItem,
)
from .get_subscription_delivery_response_429 import GetSubscriptionDeliveryResponse429
from .get_subscription_delivery_response_429_errors_item import (
    GetSubscriptionDeliveryResponse429ErrorsItem,
)
from .get_subscription_delivery_response_500 import GetSubscriptionDeliveryResponse500
from .get_subscription_delivery_response_500_errors_item import (
    GetSubscriptionDeliveryResponse500ErrorsItem,
)
from .get_subscription_delivery_response_503 import GetSubscriptionDeliveryResponse503
from .get_subscription_delivery_response_503_errors_item import (
    GetSubscriptionDeliveryResponse503ErrorsItem,
)
from .get_subscription_delivery_response_504 import GetSubscriptionDeliveryResponse504
from .get_subscription_delivery_response_504_errors_item import (
    GetSubscriptionDeliveryResponse504ErrorsItem,
)
from .get_subscription_health_response_401 import GetSubscriptionHealthResponse401
from .get_subscription_health_response_401_errors_item import (
    GetSubscriptionHealthResponse401ErrorsItem,
)
from .get_subscription_health_response_403 import GetSubscriptionHealthResponse403
from .get_subscription_health_response_403_errors_item import (
    GetSubscriptionHealthResponse403ErrorsItem,
)
from .get_subscription_health_response_404 import GetSubscriptionHealthResponse404
from .get_subscription_health_response_404_errors_item import (
    GetSubscriptionHealthResponse404ErrorsItem,
)
from .get_subscription_health_response_429 import GetSubscriptionHealthResponse429
from .get_subscription_health_response_429_errors_item import (
    GetSubscriptionHealthResponse429ErrorsItem,
)
from .get_subscription_health_response_500 import GetSubscriptionHealthResponse500
from .get_subscription_health_response_500_errors_item import (
    GetSubscriptionHealthResponse500ErrorsItem,
)
from .get_subscription_health_response_503 import GetSubscriptionHealthResponse503
from .get_subscription_health_response_503_errors_item import (
    GetSubscriptionHealthResponse503ErrorsItem,
)
from .get_subscription_health_response_504 import GetSubscriptionHealthResponse504
from .get_subscription_health_response_504_errors_item import (
    GetSubscriptionHealthResponse504ErrorsItem,
)
from .get_subscription_recovery_response_401 import GetSubscriptionRecoveryResponse401
from .get_subscription_recovery_response_401_errors_item import (
    GetSubscriptionRecoveryResponse401ErrorsItem,
)
from .get_subscription_recovery_response_403 import GetSubscriptionRecoveryResponse403
from .get_subscription_recovery_response_403_errors_item import (
    GetSubscriptionRecoveryResponse403ErrorsItem,
)
from .get_subscription_recovery_response_404 import GetSubscriptionRecoveryResponse404
from .get_subscription_recovery_response_404_errors_item import (
    GetSubscriptionRecoveryResponse404ErrorsItem,
)
from .get_subscription_recovery_response_429 import GetSubscriptionRecoveryResponse429
from .get_subscription_recovery_response_429_errors_item import (
    GetSubscriptionRecoveryResponse429ErrorsItem,
)
from .get_subscription_recovery_response_500 import GetSubscriptionRecoveryResponse500
from .get_subscription_recovery_response_500_errors_item import (
    GetSubscriptionRecoveryResponse500ErrorsItem,
)
from .get_subscription_recovery_response_503 import GetSubscriptionRecoveryResponse503
from .get_subscription_recovery_response_503_errors_item import (
    GetSubscriptionRecoveryResponse503ErrorsItem,
)
from .get_subscription_recovery_response_504 import GetSubscriptionRecoveryResponse504
from .get_subscription_recovery_response_504_errors_item import (
    GetSubscriptionRecoveryResponse504ErrorsItem,
)
from .get_subscription_response_401 import GetSubscriptionResponse401
from .get_subscription_response_401_errors_item import (
    GetSubscriptionResponse401ErrorsItem,
)
from .get_subscription_response_403 import GetSubscriptionResponse403
from .get_subscription_response_403_errors_item import (
    GetSubscriptionResponse403ErrorsItem,
)
from .get_subscription_response_404 import GetSubscriptionResponse404
from .get_subscription_response_404_errors_item import (
    GetSubscriptionResponse404ErrorsItem,
)
from .get_subscription_response_429 import GetSubscriptionResponse429
from .get_subscription_response_429_errors_item import (
    GetSubscriptionResponse429ErrorsItem,
)
from .get_subscription_response_500 import GetSubscriptionResponse500
from .get_subscription_response_500_errors_item import (
    GetSubscriptionResponse500ErrorsItem,
)
from .get_subscription_response_503 import GetSubscriptionResponse503
from .get_subscription_response_503_errors_item import (
    GetSubscriptionResponse503ErrorsItem,
)
from .get_subscription_response_504 import GetSubscriptionResponse504
from .get_subscription_response_504_errors_item import (
    GetSubscriptionResponse504ErrorsItem,
)
from .get_subscription_setup_artifacts_response_401 import (
    GetSubscriptionSetupArtifactsResponse401,
)
from .get_subscription_setup_artifacts_response_401_errors_item import (
    GetSubscriptionSetupArtifactsResponse401ErrorsItem,
)
from .get_subscription_setup_artifacts_response_403 import (
    GetSubscriptionSetupArtifactsResponse403,
)
from .get_subscription_setup_artifacts_response_403_errors_item import (
    GetSubscriptionSetupArtifactsResponse403ErrorsItem,
)
from .get_subscription_setup_artifacts_response_404 import (
    GetSubscriptionSetupArtifactsResponse404,
)
from .get_subscription_setup_artifacts_response_404_errors_item import (
    GetSubscriptionSetupArtifactsResponse404ErrorsItem,
)
from .get_subscription_setup_artifacts_response_422 import (
    GetSubscriptionSetupArtifactsResponse422,
)
from .get_subscription_setup_artifacts_response_422_errors_item import (
    GetSubscriptionSetupArtifactsResponse422ErrorsItem,
)
from .get_subscription_setup_artifacts_response_429 import (
    GetSubscriptionSetupArtifactsResponse429,
)
from .get_subscription_setup_artifacts_response_429_errors_item import (
    GetSubscriptionSetupArtifactsResponse429ErrorsItem,
)
from .get_subscription_setup_artifacts_response_500 import (
    GetSubscriptionSetupArtifactsResponse500,
)
from .get_subscription_setup_artifacts_response_500_errors_item import (
    GetSubscriptionSetupArtifactsResponse500ErrorsItem,
)
from .get_subscription_setup_artifacts_response_503 import (
    GetSubscriptionSetupArtifactsResponse503,
)
from .get_subscription_setup_artifacts_response_503_errors_item import (
    GetSubscriptionSetupArtifactsResponse503ErrorsItem,
)
from .get_subscription_setup_artifacts_response_504 import (
    GetSubscriptionSetupArtifactsResponse504,
)
from .get_subscription_setup_artifacts_response_504_errors_item import (
    GetSubscriptionSetupArtifactsResponse504ErrorsItem,
)
from .list_dead_lettered_events_response_401 import ListDeadLetteredEventsResponse401
from .list_dead_lettered_events_response_401_errors_item import (
    ListDeadLetteredEventsResponse401ErrorsItem,
)
from .list_dead_lettered_events_response_403 import ListDeadLetteredEventsResponse403
from .list_dead_lettered_events_response_403_errors_item import (
    ListDeadLetteredEventsResponse403ErrorsItem,
)
from .list_dead_lettered_events_response_422 import ListDeadLetteredEventsResponse422
from .list_dead_lettered_events_response_422_errors_item import (
    ListDeadLetteredEventsResponse422ErrorsItem,
)
from .list_dead_lettered_events_response_500 import ListDeadLetteredEventsResponse500
from .list_dead_lettered_events_response_500_errors_item import (
    ListDeadLetteredEventsResponse500ErrorsItem,
)
from .list_dead_lettered_events_response_503 import ListDeadLetteredEventsResponse503
from .list_dead_lettered_events_response_503_errors_item import (
    ListDeadLetteredEventsResponse503ErrorsItem,
)
from .list_dead_lettered_events_response_504 import ListDeadLetteredEventsResponse504
from .list_dead_lettered_events_response_504_errors_item import (
    ListDeadLetteredEventsResponse504ErrorsItem,
)
from .list_dlq_observations_error_class import ListDlqObservationsErrorClass
from .list_dlq_observations_response_400 import ListDlqObservationsResponse400
from .list_dlq_observations_response_400_errors_item import (
    ListDlqObservationsResponse400ErrorsItem,
)
from .list_dlq_observations_response_401 import ListDlqObservationsResponse401
from .list_dlq_observations_response_401_errors_item import (
    ListDlqObservationsResponse401ErrorsItem,
)
from .list_dlq_observations_response_403 import ListDlqObservationsResponse403
from .list_dlq_observations_response_403_errors_item import (
    ListDlqObservationsResponse403ErrorsItem,
)
from .list_dlq_observations_response_500 import ListDlqObservationsResponse500
from .list_dlq_observations_response_500_errors_item import (
    ListDlqObservationsResponse500ErrorsItem,
)
from .list_dlq_observations_response_503 import ListDlqObservationsResponse503
from .list_dlq_observations_response_503_errors_item import (
    ListDlqObservationsResponse503ErrorsItem,
)
from .list_dlq_observations_response_504 import ListDlqObservationsResponse504
from .list_dlq_observations_response_504_errors_item import (
    ListDlqObservationsResponse504ErrorsItem,
)
from .list_durable_queues_response_401 import ListDurableQueuesResponse401
from .list_durable_queues_response_401_errors_item import (
    ListDurableQueuesResponse401ErrorsItem,
)
from .list_durable_queues_response_403 import ListDurableQueuesResponse403
from .list_durable_queues_response_403_errors_item import (
    ListDurableQueuesResponse403ErrorsItem,
)
from .list_durable_queues_response_422 import ListDurableQueuesResponse422
from .list_durable_queues_response_422_errors_item import (
    ListDurableQueuesResponse422ErrorsItem,
)
from .list_durable_queues_response_429 import ListDurableQueuesResponse429
from .list_durable_queues_response_429_errors_item import (
    ListDurableQueuesResponse429ErrorsItem,
)
from .list_durable_queues_response_500 import ListDurableQueuesResponse500
from .list_durable_queues_response_500_errors_item import (
    ListDurableQueuesResponse500ErrorsItem,
)
from .list_durable_queues_response_503 import ListDurableQueuesResponse503
from .list_durable_queues_response_503_errors_item import (
    ListDurableQueuesResponse503ErrorsItem,
)
from .list_durable_queues_response_504 import ListDurableQueuesResponse504
from .list_durable_queues_response_504_errors_item import (
    ListDurableQueuesResponse504ErrorsItem,
)
from .list_subscription_blocked_keys_response_400 import (
    ListSubscriptionBlockedKeysResponse400,
)
from .list_subscription_blocked_keys_response_400_errors_item import (
    ListSubscriptionBlockedKeysResponse400ErrorsItem,
)
from .list_subscription_blocked_keys_response_401 import (
    ListSubscriptionBlockedKeysResponse401,
)
from .list_subscription_blocked_keys_response_401_errors_item import (
    ListSubscriptionBlockedKeysResponse401ErrorsItem,
)
from .list_subscription_blocked_keys_response_403 import (
    ListSubscriptionBlockedKeysResponse403,
)
from .list_subscription_blocked_keys_response_403_errors_item import (
    ListSubscriptionBlockedKeysResponse403ErrorsItem,
)
from .list_subscription_blocked_keys_response_404 import (
    ListSubscriptionBlockedKeysResponse404,
)
from .list_subscription_blocked_keys_response_404_errors_item import (
    ListSubscriptionBlockedKeysResponse404ErrorsItem,
)
from .list_subscription_blocked_keys_response_422 import (
    ListSubscriptionBlockedKeysResponse422,
)
from .list_subscription_blocked_keys_response_422_errors_item import (
    ListSubscriptionBlockedKeysResponse422ErrorsItem,
)
from .list_subscription_blocked_keys_response_429 import (
    ListSubscriptionBlockedKeysResponse429,
)
from .list_subscription_blocked_keys_response_429_errors_item import (
    ListSubscriptionBlockedKeysResponse429ErrorsItem,
)
from .list_subscription_blocked_keys_response_500 import (
    ListSubscriptionBlockedKeysResponse500,
)
from .list_subscription_blocked_keys_response_500_errors_item import (
    ListSubscriptionBlockedKeysResponse500ErrorsItem,
)
from .list_subscription_blocked_keys_response_503 import (
    ListSubscriptionBlockedKeysResponse503,
)
from .list_subscription_blocked_keys_response_503_errors_item import (
    ListSubscriptionBlockedKeysResponse503ErrorsItem,
)
from .list_subscription_blocked_keys_response_504 import (
    ListSubscriptionBlockedKeysResponse504,
)
from .list_subscription_blocked_keys_response_504_errors_item import (
    ListSubscriptionBlockedKeysResponse504ErrorsItem,
)
from .list_subscription_deliveries_response_400 import (
    ListSubscriptionDeliveriesResponse400,
)
from .list_subscription_deliveries_response_400_errors_item import (
    ListSubscriptionDeliveriesResponse400ErrorsItem,
)
from .list_subscription_deliveries_response_401 import (
    ListSubscriptionDeliveriesResponse401,
)
from .list_subscription_deliveries_response_401_errors_item import (
    ListSubscriptionDeliveriesResponse401ErrorsItem,
)
from .list_subscription_deliveries_response_403 import (
    ListSubscriptionDeliveriesResponse403,
)
from .list_subscription_deliveries_response_403_errors_item import (
    ListSubscriptionDeliveriesResponse403ErrorsItem,
)
from .list_subscription_deliveries_response_404 import (
    ListSubscriptionDeliveriesResponse404,
)
from .list_subscription_deliveries_response_404_errors_item import (
    ListSubscriptionDeliveriesResponse404ErrorsItem,
)
from .list_subscription_deliveries_response_422 import (
    ListSubscriptionDeliveriesResponse422,
)
from .list_subscription_deliveries_response_422_errors_item import (
    ListSubscriptionDeliveriesResponse422ErrorsItem,
)
from .list_subscription_deliveries_response_429 import (
    ListSubscriptionDeliveriesResponse429,
)
from .list_subscription_deliveries_response_429_errors_item import (
    ListSubscriptionDeliveriesResponse429ErrorsItem,
)
from .list_subscription_deliveries_response_500 import (
    ListSubscriptionDeliveriesResponse500,
)
from .list_subscription_deliveries_response_500_errors_item import (
    ListSubscriptionDeliveriesResponse500ErrorsItem,
)
from .list_subscription_deliveries_response_503 import (
    ListSubscriptionDeliveriesResponse503,
)
from .list_subscription_deliveries_response_503_errors_item import (
    ListSubscriptionDeliveriesResponse503ErrorsItem,
)
from .list_subscription_deliveries_response_504 import (
    ListSubscriptionDeliveriesResponse504,
)
from .list_subscription_deliveries_response_504_errors_item import (
    ListSubscriptionDeliveriesResponse504ErrorsItem,
)
from .list_subscriptions_response import ListSubscriptionsResponse
from .list_subscriptions_response_401 import ListSubscriptionsResponse401
from .list_subscriptions_response_401_errors_item import (
    ListSubscriptionsResponse401ErrorsItem,
)
from .list_subscriptions_response_403 import ListSubscriptionsResponse403
from .list_subscriptions_response_403_errors_item import (
    ListSubscriptionsResponse403ErrorsItem,
)
from .list_subscriptions_response_422 import ListSubscriptionsResponse422
from .list_subscriptions_response_422_errors_item import (
    ListSubscriptionsResponse422ErrorsItem,
)
from .list_subscriptions_response_429 import ListSubscriptionsResponse429
from .list_subscriptions_response_429_errors_item import (
    ListSubscriptionsResponse429ErrorsItem,
)
from .list_subscriptions_response_500 import ListSubscriptionsResponse500
from .list_subscriptions_response_500_errors_item import (
    ListSubscriptionsResponse500ErrorsItem,
)
from .list_subscriptions_response_503 import ListSubscriptionsResponse503
from .list_subscriptions_response_503_errors_item import (
    ListSubscriptionsResponse503ErrorsItem,
)
from .list_subscriptions_response_504 import ListSubscriptionsResponse504
from .list_subscriptions_response_504_errors_item import (
    ListSubscriptionsResponse504ErrorsItem,
)
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
from .ping_subscription_response_401 import PingSubscriptionResponse401
from .ping_subscription_response_401_errors_item import (
    PingSubscriptionResponse401ErrorsItem,
)
from .ping_subscription_response_403 import PingSubscriptionResponse403
from .ping_subscription_response_403_errors_item import (
    PingSubscriptionResponse403ErrorsItem,
)
from .ping_subscription_response_404 import PingSubscriptionResponse404
from .ping_subscription_response_404_errors_item import (
    PingSubscriptionResponse404ErrorsItem,
)
from .ping_subscription_response_422 import PingSubscriptionResponse422
from .ping_subscription_response_422_errors_item import (
    PingSubscriptionResponse422ErrorsItem,
)
from .ping_subscription_response_500 import PingSubscriptionResponse500
from .ping_subscription_response_500_errors_item import (
    PingSubscriptionResponse500ErrorsItem,
)
from .ping_subscription_response_503 import PingSubscriptionResponse503
from .ping_subscription_response_503_errors_item import (
    PingSubscriptionResponse503ErrorsItem,
)
from .ping_subscription_response_504 import PingSubscriptionResponse504
from .ping_subscription_response_504_errors_item import (
    PingSubscriptionResponse504ErrorsItem,
)
from .probe_result import ProbeResult
from .probe_result_outcome import ProbeResultOutcome
from .publish_body import PublishBody
from .publish_event_request import PublishEventRequest
from .publish_event_response import PublishEventResponse
from .publish_event_response_400 import PublishEventResponse400
from .publish_event_response_400_errors_item import PublishEventResponse400ErrorsItem
from .publish_event_response_401 import PublishEventResponse401
from .publish_event_response_401_errors_item import PublishEventResponse401ErrorsItem
from .publish_event_response_403 import PublishEventResponse403
from .publish_event_response_403_errors_item import PublishEventResponse403ErrorsItem
from .publish_event_response_422 import PublishEventResponse422
from .publish_event_response_422_errors_item import PublishEventResponse422ErrorsItem
from .publish_event_response_500 import PublishEventResponse500
from .publish_event_response_500_errors_item import PublishEventResponse500ErrorsItem
from .publish_event_response_503 import PublishEventResponse503
from .publish_event_response_503_errors_item import PublishEventResponse503ErrorsItem
from .publish_event_response_504 import PublishEventResponse504
from .publish_event_response_504_errors_item import PublishEventResponse504ErrorsItem
from .published_event import PublishedEvent
from .publisher_event import PublisherEvent
from .publisher_event_message import PublisherEventMessage
from .publishing_result import PublishingResult
from .pull_event import PullEvent
from .pull_event_payload import PullEventPayload
from .pull_events_response import PullEventsResponse
from .pull_events_response_400 import PullEventsResponse400
from .pull_events_response_400_errors_item import PullEventsResponse400ErrorsItem
from .pull_events_response_401 import PullEventsResponse401
from .pull_events_response_401_errors_item import PullEventsResponse401ErrorsItem
from .pull_events_response_403 import PullEventsResponse403
from .pull_events_response_403_errors_item import PullEventsResponse403ErrorsItem
from .pull_events_response_404 import PullEventsResponse404
from .pull_events_response_404_errors_item import PullEventsResponse404ErrorsItem
from .pull_events_response_429 import PullEventsResponse429
from .pull_events_response_429_errors_item import PullEventsResponse429ErrorsItem
from .pull_events_response_500 import PullEventsResponse500
from .pull_events_response_500_errors_item import PullEventsResponse500ErrorsItem
from .pull_events_response_503 import PullEventsResponse503
from .pull_events_response_503_errors_item import PullEventsResponse503ErrorsItem
from .pull_events_response_504 import PullEventsResponse504
from .pull_events_response_504_errors_item import PullEventsResponse504ErrorsItem
from .purge_count import PurgeCount
from .put_subscription_credential_response_400 import (
    PutSubscriptionCredentialResponse400,
)
from .put_subscription_credential_response_400_errors_item import (
    PutSubscriptionCredentialResponse400ErrorsItem,
)
from .put_subscription_credential_response_401 import (
    PutSubscriptionCredentialResponse401,
)
from .put_subscription_credential_response_401_errors_item import (
    PutSubscriptionCredentialResponse401ErrorsItem,
)
from .put_subscription_credential_response_403 import (
    PutSubscriptionCredentialResponse403,
)
from .put_subscription_credential_response_403_errors_item import (
    PutSubscriptionCredentialResponse403ErrorsItem,
)
from .put_subscription_credential_response_404 import (
    PutSubscriptionCredentialResponse404,
)
from .put_subscription_credential_response_404_errors_item import (
    PutSubscriptionCredentialResponse404ErrorsItem,
)
from .put_subscription_credential_response_422 import (
    PutSubscriptionCredentialResponse422,
)
from .put_subscription_credential_response_422_errors_item import (
    PutSubscriptionCredentialResponse422ErrorsItem,
)
from .put_subscription_credential_response_500 import (
    PutSubscriptionCredentialResponse500,
)
from .put_subscription_credential_response_500_errors_item import (
    PutSubscriptionCredentialResponse500ErrorsItem,
)
from .put_subscription_credential_response_503 import (
    PutSubscriptionCredentialResponse503,
)
from .put_subscription_credential_response_503_errors_item import (
    PutSubscriptionCredentialResponse503ErrorsItem,
)
from .put_subscription_credential_response_504 import (
    PutSubscriptionCredentialResponse504,
)
from .put_subscription_credential_response_504_errors_item import (
    PutSubscriptionCredentialResponse504ErrorsItem,
)
from .put_subscription_delegated_grant_response_400 import (
    PutSubscriptionDelegatedGrantResponse400,
)
from .put_subscription_delegated_grant_response_400_errors_item import (
    PutSubscriptionDelegatedGrantResponse400ErrorsItem,
)
from .put_subscription_delegated_grant_response_401 import (
    PutSubscriptionDelegatedGrantResponse401,
)
from .put_subscription_delegated_grant_response_401_errors_item import (
    PutSubscriptionDelegatedGrantResponse401ErrorsItem,
)
from .put_subscription_delegated_grant_response_403 import (
    PutSubscriptionDelegatedGrantResponse403,
)
from .put_subscription_delegated_grant_response_403_errors_item import (
    PutSubscriptionDelegatedGrantResponse403ErrorsItem,
)
from .put_subscription_delegated_grant_response_404 import (
    PutSubscriptionDelegatedGrantResponse404,
)
from .put_subscription_delegated_grant_response_404_errors_item import (
    PutSubscriptionDelegatedGrantResponse404ErrorsItem,
)
from .put_subscription_delegated_grant_response_409 import (
    PutSubscriptionDelegatedGrantResponse409,
)
from .put_subscription_delegated_grant_response_409_errors_item import (
    PutSubscriptionDelegatedGrantResponse409ErrorsItem,
)
from .put_subscription_delegated_grant_response_422 import (
    PutSubscriptionDelegatedGrantResponse422,
)
from .put_subscription_delegated_grant_response_422_errors_item import (
    PutSubscriptionDelegatedGrantResponse422ErrorsItem,
)
from .put_subscription_delegated_grant_response_500 import (
    PutSubscriptionDelegatedGrantResponse500,
)
from .put_subscription_delegated_grant_response_500_errors_item import (
    PutSubscriptionDelegatedGrantResponse500ErrorsItem,
)
from .put_subscription_delegated_grant_response_503 import (
    PutSubscriptionDelegatedGrantResponse503,
)
from .put_subscription_delegated_grant_response_503_errors_item import (
    PutSubscriptionDelegatedGrantResponse503ErrorsItem,
)
from .put_subscription_delegated_grant_response_504 import (
    PutSubscriptionDelegatedGrantResponse504,
)
from .put_subscription_delegated_grant_response_504_errors_item import (
    PutSubscriptionDelegatedGrantResponse504ErrorsItem,
)
from .put_subscription_delivery_options_response_400 import (
    PutSubscriptionDeliveryOptionsResponse400,
)
from .put_subscription_delivery_options_response_400_errors_item import (
    PutSubscriptionDeliveryOptionsResponse400ErrorsItem,
)
from .put_subscription_delivery_options_response_401 import (
    PutSubscriptionDeliveryOptionsResponse401,
)
from .put_subscription_delivery_options_response_401_errors_item import (
    PutSubscriptionDeliveryOptionsResponse401ErrorsItem,
)
from .put_subscription_delivery_options_response_403 import (
    PutSubscriptionDeliveryOptionsResponse403,
)
from .put_subscription_delivery_options_response_403_errors_item import (
    PutSubscriptionDeliveryOptionsResponse403ErrorsItem,
)
from .put_subscription_delivery_options_response_404 import (
    PutSubscriptionDeliveryOptionsResponse404,
)
from .put_subscription_delivery_options_response_404_errors_item import (
    PutSubscriptionDeliveryOptionsResponse404ErrorsItem,
)
from .put_subscription_delivery_options_response_409 import (
    PutSubscriptionDeliveryOptionsResponse409,
)
from .put_subscription_delivery_options_response_409_errors_item import (
    PutSubscriptionDeliveryOptionsResponse409ErrorsItem,
)
from .put_subscription_delivery_options_response_422 import (
    PutSubscriptionDeliveryOptionsResponse422,
)
from .put_subscription_delivery_options_response_422_errors_item import (
    PutSubscriptionDeliveryOptionsResponse422ErrorsItem,
)
from .put_subscription_delivery_options_response_500 import (
    PutSubscriptionDeliveryOptionsResponse500,
)
from .put_subscription_delivery_options_response_500_errors_item import (
    PutSubscriptionDeliveryOptionsResponse500ErrorsItem,
)
from .put_subscription_delivery_options_response_503 import (
    PutSubscriptionDeliveryOptionsResponse503,
)
from .put_subscription_delivery_options_response_503_errors_item import (
    PutSubscriptionDeliveryOptionsResponse503ErrorsItem,
)
from .put_subscription_delivery_options_response_504 import (
    PutSubscriptionDeliveryOptionsResponse504,
)
from .put_subscription_delivery_options_response_504_errors_item import (
    PutSubscriptionDeliveryOptionsResponse504ErrorsItem,
)
from .readiness_detail import ReadinessDetail
from .readiness_detail_state import ReadinessDetailState
from .readiness_response import ReadinessResponse
from .readiness_response_state import ReadinessResponseState
from .recover_request import RecoverRequest
from .recover_request_outcomes_type_0_item import RecoverRequestOutcomesType0Item
from .recover_subscription_deliveries_response_400 import (
    RecoverSubscriptionDeliveriesResponse400,
)
from .recover_subscription_deliveries_response_400_errors_item import (
    RecoverSubscriptionDeliveriesResponse400ErrorsItem,
)
from .recover_subscription_deliveries_response_401 import (
    RecoverSubscriptionDeliveriesResponse401,
)
from .recover_subscription_deliveries_response_401_errors_item import (
    RecoverSubscriptionDeliveriesResponse401ErrorsItem,
)
from .recover_subscription_deliveries_response_403 import (
    RecoverSubscriptionDeliveriesResponse403,
)
from .recover_subscription_deliveries_response_403_errors_item import (
    RecoverSubscriptionDeliveriesResponse403ErrorsItem,
)
from .recover_subscription_deliveries_response_404 import (
    RecoverSubscriptionDeliveriesResponse404,
)
from .recover_subscription_deliveries_response_404_errors_item import (
    RecoverSubscriptionDeliveriesResponse404ErrorsItem,
)
from .recover_subscription_deliveries_response_409 import (
    RecoverSubscriptionDeliveriesResponse409,
)
from .recover_subscription_deliveries_response_409_errors_item import (
    RecoverSubscriptionDeliveriesResponse409ErrorsItem,
)
from .recover_subscription_deliveries_response_422 import (
    RecoverSubscriptionDeliveriesResponse422,
)
from .recover_subscription_deliveries_response_422_errors_item import (
    RecoverSubscriptionDeliveriesResponse422ErrorsItem,
)
from .recover_subscription_deliveries_response_500 import (
    RecoverSubscriptionDeliveriesResponse500,
)
from .recover_subscription_deliveries_response_500_errors_item import (
    RecoverSubscriptionDeliveriesResponse500ErrorsItem,
)
from .recover_subscription_deliveries_response_503 import (
    RecoverSubscriptionDeliveriesResponse503,
)
from .recover_subscription_deliveries_response_503_errors_item import (
    RecoverSubscriptionDeliveriesResponse503ErrorsItem,
)
from .recover_subscription_deliveries_response_504 import (
    RecoverSubscriptionDeliveriesResponse504,
)
from .recover_subscription_deliveries_response_504_errors_item import (
    RecoverSubscriptionDeliveriesResponse504ErrorsItem,
)
from .recovery import Recovery
from .recovery_outcomes_item import RecoveryOutcomesItem
from .recovery_response import RecoveryResponse
from .recovery_state import RecoveryState
from .resend_subscription_delivery_response_400 import (
    ResendSubscriptionDeliveryResponse400,
)
from .resend_subscription_delivery_response_400_errors_item import (
    ResendSubscriptionDeliveryResponse400ErrorsItem,
)
from .resend_subscription_delivery_response_401 import (
    ResendSubscriptionDeliveryResponse401,
)
from .resend_subscription_delivery_response_401_errors_item import (
    ResendSubscriptionDeliveryResponse401ErrorsItem,
)
from .resend_subscription_delivery_response_403 import (
    ResendSubscriptionDeliveryResponse403,
)
from .resend_subscription_delivery_response_403_errors_item import (
    ResendSubscriptionDeliveryResponse403ErrorsItem,
)
from .resend_subscription_delivery_response_404 import (
    ResendSubscriptionDeliveryResponse404,
)
from .resend_subscription_delivery_response_404_errors_item import (
    ResendSubscriptionDeliveryResponse404ErrorsItem,
)
from .resend_subscription_delivery_response_409 import (
    ResendSubscriptionDeliveryResponse409,
)
from .resend_subscription_delivery_response_409_errors_item import (
    ResendSubscriptionDeliveryResponse409ErrorsItem,
)
from .resend_subscription_delivery_response_500 import (
    ResendSubscriptionDeliveryResponse500,
)
from .resend_subscription_delivery_response_500_errors_item import (
    ResendSubscriptionDeliveryResponse500ErrorsItem,
)
from .resend_subscription_delivery_response_503 import (
    ResendSubscriptionDeliveryResponse503,
)
from .resend_subscription_delivery_response_503_errors_item import (
    ResendSubscriptionDeliveryResponse503ErrorsItem,
)
from .resend_subscription_delivery_response_504 import (
    ResendSubscriptionDeliveryResponse504,
)
from .resend_subscription_delivery_response_504_errors_item import (
    ResendSubscriptionDeliveryResponse504ErrorsItem,
)
from .resource_filter import ResourceFilter
from .resume_blocked_key_request import ResumeBlockedKeyRequest
from .resume_blocked_key_request_action import ResumeBlockedKeyRequestAction
from .resume_blocked_key_response import ResumeBlockedKeyResponse
from .resume_subscription_blocked_key_response_400 import (
    ResumeSubscriptionBlockedKeyResponse400,
)
from .resume_subscription_blocked_key_response_400_errors_item import (
    ResumeSubscriptionBlockedKeyResponse400ErrorsItem,
)
from .resume_subscription_blocked_key_response_401 import (
    ResumeSubscriptionBlockedKeyResponse401,
)
from .resume_subscription_blocked_key_response_401_errors_item import (
    ResumeSubscriptionBlockedKeyResponse401ErrorsItem,
)
from .resume_subscription_blocked_key_response_403 import (
    ResumeSubscriptionBlockedKeyResponse403,
)
from .resume_subscription_blocked_key_response_403_errors_item import (
    ResumeSubscriptionBlockedKeyResponse403ErrorsItem,
)
from .resume_subscription_blocked_key_response_404 import (
    ResumeSubscriptionBlockedKeyResponse404,
)
from .resume_subscription_blocked_key_response_404_errors_item import (
    ResumeSubscriptionBlockedKeyResponse404ErrorsItem,
)
from .resume_subscription_blocked_key_response_409 import (
    ResumeSubscriptionBlockedKeyResponse409,
)
from .resume_subscription_blocked_key_response_409_errors_item import (
    ResumeSubscriptionBlockedKeyResponse409ErrorsItem,
)
from .resume_subscription_blocked_key_response_422 import (
    ResumeSubscriptionBlockedKeyResponse422,
)
from .resume_subscription_blocked_key_response_422_errors_item import (
    ResumeSubscriptionBlockedKeyResponse422ErrorsItem,
)
from .resume_subscription_blocked_key_response_500 import (
    ResumeSubscriptionBlockedKeyResponse500,
)
from .resume_subscription_blocked_key_response_500_errors_item import (
    ResumeSubscriptionBlockedKeyResponse500ErrorsItem,
)
from .resume_subscription_blocked_key_response_503 import (
    ResumeSubscriptionBlockedKeyResponse503,
)
from .resume_subscription_blocked_key_response_503_errors_item import (
    ResumeSubscriptionBlockedKeyResponse503ErrorsItem,
)
from .resume_subscription_blocked_key_response_504 import (
    ResumeSubscriptionBlockedKeyResponse504,
)
from .resume_subscription_blocked_key_response_504_errors_item import (
    ResumeSubscriptionBlockedKeyResponse504ErrorsItem,
)
from .resumed_key import ResumedKey
from .resumed_key_action import ResumedKeyAction
from .reveal_subscription_endpoint_response_401 import (
    RevealSubscriptionEndpointResponse401,
)
from .reveal_subscription_endpoint_response_401_errors_item import (
    RevealSubscriptionEndpointResponse401ErrorsItem,
)
from .reveal_subscription_endpoint_response_403 import (
    RevealSubscriptionEndpointResponse403,
)
from .reveal_subscription_endpoint_response_403_errors_item import (
    RevealSubscriptionEndpointResponse403ErrorsItem,
)
from .reveal_subscription_endpoint_response_404 import (
    RevealSubscriptionEndpointResponse404,
)
from .reveal_subscription_endpoint_response_404_errors_item import (
    RevealSubscriptionEndpointResponse404ErrorsItem,
)
from .reveal_subscription_endpoint_response_429 import (
    RevealSubscriptionEndpointResponse429,
)
from .reveal_subscription_endpoint_response_429_errors_item import (
    RevealSubscriptionEndpointResponse429ErrorsItem,
)
from .reveal_subscription_endpoint_response_500 import (
    RevealSubscriptionEndpointResponse500,
)
from .reveal_subscription_endpoint_response_500_errors_item import (
    RevealSubscriptionEndpointResponse500ErrorsItem,
)
from .reveal_subscription_endpoint_response_503 import (
    RevealSubscriptionEndpointResponse503,
)
from .reveal_subscription_endpoint_response_503_errors_item import (
    RevealSubscriptionEndpointResponse503ErrorsItem,
)
from .reveal_subscription_endpoint_response_504 import (
    RevealSubscriptionEndpointResponse504,
)
from .reveal_subscription_endpoint_response_504_errors_item import (
    RevealSubscriptionEndpointResponse504ErrorsItem,
)
from .rotate_secret_response import RotateSecretResponse
from .rotate_subscription_secret_response_400 import RotateSubscriptionSecretResponse400
from .rotate_subscription_secret_response_400_errors_item import (
    RotateSubscriptionSecretResponse400ErrorsItem,
)
from .rotate_subscription_secret_response_401 import RotateSubscriptionSecretResponse401
from .rotate_subscription_secret_response_401_errors_item import (
    RotateSubscriptionSecretResponse401ErrorsItem,
)
from .rotate_subscription_secret_response_403 import RotateSubscriptionSecretResponse403
from .rotate_subscription_secret_response_403_errors_item import (
    RotateSubscriptionSecretResponse403ErrorsItem,
)
from .rotate_subscription_secret_response_404 import RotateSubscriptionSecretResponse404
from .rotate_subscription_secret_response_404_errors_item import (
    RotateSubscriptionSecretResponse404ErrorsItem,
)
from .rotate_subscription_secret_response_409 import RotateSubscriptionSecretResponse409
from .rotate_subscription_secret_response_409_errors_item import (
    RotateSubscriptionSecretResponse409ErrorsItem,
)
from .rotate_subscription_secret_response_422 import RotateSubscriptionSecretResponse422
from .rotate_subscription_secret_response_422_errors_item import (
    RotateSubscriptionSecretResponse422ErrorsItem,
)
from .rotate_subscription_secret_response_500 import RotateSubscriptionSecretResponse500
from .rotate_subscription_secret_response_500_errors_item import (
    RotateSubscriptionSecretResponse500ErrorsItem,
)
from .rotate_subscription_secret_response_503 import RotateSubscriptionSecretResponse503
from .rotate_subscription_secret_response_503_errors_item import (
    RotateSubscriptionSecretResponse503ErrorsItem,
)
from .rotate_subscription_secret_response_504 import RotateSubscriptionSecretResponse504
from .rotate_subscription_secret_response_504_errors_item import (
    RotateSubscriptionSecretResponse504ErrorsItem,
)
from .runtime_response import RuntimeResponse
from .service_health import ServiceHealth
from .setup_artifacts_response import SetupArtifactsResponse
from .sink_kind import SinkKind
from .static_header import StaticHeader
from .static_header_read import StaticHeaderRead
from .stream_durable_events_response_401 import StreamDurableEventsResponse401
from .stream_durable_events_response_401_errors_item import (
    StreamDurableEventsResponse401ErrorsItem,
)
from .stream_durable_events_response_403 import StreamDurableEventsResponse403
from .stream_durable_events_response_403_errors_item import (
    StreamDurableEventsResponse403ErrorsItem,
)
from .stream_durable_events_response_404 import StreamDurableEventsResponse404
from .stream_durable_events_response_404_errors_item import (
    StreamDurableEventsResponse404ErrorsItem,
)
from .stream_durable_events_response_422 import StreamDurableEventsResponse422
from .stream_durable_events_response_422_errors_item import (
    StreamDurableEventsResponse422ErrorsItem,
)
from .stream_durable_events_response_500 import StreamDurableEventsResponse500
from .stream_durable_events_response_500_errors_item import (
    StreamDurableEventsResponse500ErrorsItem,
)
from .stream_durable_events_response_503 import StreamDurableEventsResponse503
from .stream_durable_events_response_503_errors_item import (
    StreamDurableEventsResponse503ErrorsItem,
)
from .stream_non_durable_events_response_401 import StreamNonDurableEventsResponse401
from .stream_non_durable_events_response_401_errors_item import (
    StreamNonDurableEventsResponse401ErrorsItem,
)
from .stream_non_durable_events_response_403 import StreamNonDurableEventsResponse403
from .stream_non_durable_events_response_403_errors_item import (
    StreamNonDurableEventsResponse403ErrorsItem,
)
from .stream_non_durable_events_response_404 import StreamNonDurableEventsResponse404
from .stream_non_durable_events_response_404_errors_item import (
    StreamNonDurableEventsResponse404ErrorsItem,
)
from .stream_non_durable_events_response_422 import StreamNonDurableEventsResponse422
from .stream_non_durable_events_response_422_errors_item import (
    StreamNonDurableEventsResponse422ErrorsItem,
)
from .stream_non_durable_events_response_500 import StreamNonDurableEventsResponse500
from .stream_non_durable_events_response_500_errors_item import (
    StreamNonDurableEventsResponse500ErrorsItem,
)
from .stream_non_durable_events_response_503 import StreamNonDurableEventsResponse503
from .stream_non_durable_events_response_503_errors_item import (
    StreamNonDurableEventsResponse503ErrorsItem,
)
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
from .triage_dead_lettered_events_response_400 import (
    TriageDeadLetteredEventsResponse400,
)
from .triage_dead_lettered_events_response_400_errors_item import (
    TriageDeadLetteredEventsResponse400ErrorsItem,
)
from .triage_dead_lettered_events_response_401 import (
    TriageDeadLetteredEventsResponse401,
)
from .triage_dead_lettered_events_response_401_errors_item import (
    TriageDeadLetteredEventsResponse401ErrorsItem,
)
from .triage_dead_lettered_events_response_403 import (
    TriageDeadLetteredEventsResponse403,
)
from .triage_dead_lettered_events_response_403_errors_item import (
    TriageDeadLetteredEventsResponse403ErrorsItem,
)
from .triage_dead_lettered_events_response_422 import (
    TriageDeadLetteredEventsResponse422,
)
from .triage_dead_lettered_events_response_422_errors_item import (
    TriageDeadLetteredEventsResponse422ErrorsItem,
)
from .triage_dead_lettered_events_response_500 import (
    TriageDeadLetteredEventsResponse500,
)
from .triage_dead_lettered_events_response_500_errors_item import (
    TriageDeadLetteredEventsResponse500ErrorsItem,
)
from .triage_dead_lettered_events_response_503 import (
    TriageDeadLetteredEventsResponse503,
)
from .triage_dead_lettered_events_response_503_errors_item import (
    TriageDeadLetteredEventsResponse503ErrorsItem,
)
from .triage_dead_lettered_events_response_504 import (
    TriageDeadLetteredEventsResponse504,
)
from .triage_dead_lettered_events_response_504_errors_item import (
    TriageDeadLetteredEventsResponse504ErrorsItem,
)
from .triage_outcome import TriageOutcome
from .triage_outcome_action import TriageOutcomeAction
from .triage_outcome_outcome import TriageOutcomeOutcome
from .triage_request import TriageRequest
from .triage_response import TriageResponse
from .update_durable_queue_request import UpdateDurableQueueRequest
from .update_durable_queue_response_400 import UpdateDurableQueueResponse400
from .update_durable_queue_response_400_errors_item import (
    UpdateDurableQueueResponse400ErrorsItem,
)
from .update_durable_queue_response_401 import UpdateDurableQueueResponse401
from .update_durable_queue_response_401_errors_item import (
    UpdateDurableQueueResponse401ErrorsItem,
)
from .update_durable_queue_response_403 import UpdateDurableQueueResponse403
from .update_durable_queue_response_403_errors_item import (
    UpdateDurableQueueResponse403ErrorsItem,
)
from .update_durable_queue_response_404 import UpdateDurableQueueResponse404
from .update_durable_queue_response_404_errors_item import (
    UpdateDurableQueueResponse404ErrorsItem,
)
from .update_durable_queue_response_422 import UpdateDurableQueueResponse422
from .update_durable_queue_response_422_errors_item import (
    UpdateDurableQueueResponse422ErrorsItem,
)
from .update_durable_queue_response_500 import UpdateDurableQueueResponse500
from .update_durable_queue_response_500_errors_item import (
    UpdateDurableQueueResponse500ErrorsItem,
)
from .update_durable_queue_response_503 import UpdateDurableQueueResponse503
from .update_durable_queue_response_503_errors_item import (
    UpdateDurableQueueResponse503ErrorsItem,
)
from .update_subscription_schema_major_response_400 import (
    UpdateSubscriptionSchemaMajorResponse400,
)
from .update_subscription_schema_major_response_400_errors_item import (
    UpdateSubscriptionSchemaMajorResponse400ErrorsItem,
)
from .update_subscription_schema_major_response_401 import (
    UpdateSubscriptionSchemaMajorResponse401,
)
from .update_subscription_schema_major_response_401_errors_item import (
    UpdateSubscriptionSchemaMajorResponse401ErrorsItem,
)
from .update_subscription_schema_major_response_403 import (
    UpdateSubscriptionSchemaMajorResponse403,
)
from .update_subscription_schema_major_response_403_errors_item import (
    UpdateSubscriptionSchemaMajorResponse403ErrorsItem,
)
from .update_subscription_schema_major_response_404 import (
    UpdateSubscriptionSchemaMajorResponse404,
)
from .update_subscription_schema_major_response_404_errors_item import (
    UpdateSubscriptionSchemaMajorResponse404ErrorsItem,
)
from .update_subscription_schema_major_response_409 import (
    UpdateSubscriptionSchemaMajorResponse409,
)
from .update_subscription_schema_major_response_409_errors_item import (
    UpdateSubscriptionSchemaMajorResponse409ErrorsItem,
)
from .update_subscription_schema_major_response_422 import (
    UpdateSubscriptionSchemaMajorResponse422,
)
from .update_subscription_schema_major_response_422_errors_item import (
    UpdateSubscriptionSchemaMajorResponse422ErrorsItem,
)
from .update_subscription_schema_major_response_500 import (
    UpdateSubscriptionSchemaMajorResponse500,
)
from .update_subscription_schema_major_response_500_errors_item import (
    UpdateSubscriptionSchemaMajorResponse500ErrorsItem,
)
from .update_subscription_schema_major_response_503 import (
    UpdateSubscriptionSchemaMajorResponse503,
)
from .update_subscription_schema_major_response_503_errors_item import (
    UpdateSubscriptionSchemaMajorResponse503ErrorsItem,
)
from .update_subscription_schema_major_response_504 import (
    UpdateSubscriptionSchemaMajorResponse504,
)
from .update_subscription_schema_major_response_504_errors_item import (
    UpdateSubscriptionSchemaMajorResponse504ErrorsItem,
)
from .verification_state import VerificationState
from .verify_subscription_response_401 import VerifySubscriptionResponse401
from .verify_subscription_response_401_errors_item import (
    VerifySubscriptionResponse401ErrorsItem,
)
from .verify_subscription_response_403 import VerifySubscriptionResponse403
from .verify_subscription_response_403_errors_item import (
    VerifySubscriptionResponse403ErrorsItem,
)
from .verify_subscription_response_404 import VerifySubscriptionResponse404
from .verify_subscription_response_404_errors_item import (
    VerifySubscriptionResponse404ErrorsItem,
)
from .verify_subscription_response_422 import VerifySubscriptionResponse422
from .verify_subscription_response_422_errors_item import (
    VerifySubscriptionResponse422ErrorsItem,
)
from .verify_subscription_response_500 import VerifySubscriptionResponse500
from .verify_subscription_response_500_errors_item import (
    VerifySubscriptionResponse500ErrorsItem,
)
from .verify_subscription_response_503 import VerifySubscriptionResponse503
from .verify_subscription_response_503_errors_item import (
    VerifySubscriptionResponse503ErrorsItem,
)
from .verify_subscription_response_504 import VerifySubscriptionResponse504
from .verify_subscription_response_504_errors_item import (
    VerifySubscriptionResponse504ErrorsItem,
)
from .version_response import VersionResponse

__all__ = (
    "BatchPublishEventsRequest",
    "BatchPublishEventsResponse",
    "BatchPublishEventsResponse400",
    "BatchPublishEventsResponse400ErrorsItem",
    "BatchPublishEventsResponse401",
    "BatchPublishEventsResponse401ErrorsItem",
    "BatchPublishEventsResponse403",
    "BatchPublishEventsResponse403ErrorsItem",
    "BatchPublishEventsResponse422",
    "BatchPublishEventsResponse422ErrorsItem",
    "BatchPublishEventsResponse500",
    "BatchPublishEventsResponse500ErrorsItem",
    "BatchPublishEventsResponse503",
    "BatchPublishEventsResponse503ErrorsItem",
    "BatchPublishEventsResponse504",
    "BatchPublishEventsResponse504ErrorsItem",
    "BlockedHead",
    "BlockedHeadError",
    "BlockedHeadEvent",
    "BlockedKey",
    "BlockedKeysPage",
    "BrokerDeleteConfigResponse401",
    "BrokerDeleteConfigResponse401ErrorsItem",
    "BrokerDeleteConfigResponse403",
    "BrokerDeleteConfigResponse403ErrorsItem",
    "BrokerDeleteConfigResponse422",
    "BrokerDeleteConfigResponse422ErrorsItem",
    "BrokerDeleteConfigResponse500",
    "BrokerDeleteConfigResponse500ErrorsItem",
    "BrokerEventItem",
    "BrokerGetConfigResponse401",
    "BrokerGetConfigResponse401ErrorsItem",
    "BrokerGetConfigResponse403",
    "BrokerGetConfigResponse403ErrorsItem",
    "BrokerGetConfigResponse422",
    "BrokerGetConfigResponse422ErrorsItem",
    "BrokerGetConfigResponse500",
    "BrokerGetConfigResponse500ErrorsItem",
    "BrokerHistory",
    "BrokerHistoryResponse401",
    "BrokerHistoryResponse401ErrorsItem",
    "BrokerHistoryResponse403",
    "BrokerHistoryResponse403ErrorsItem",
    "BrokerHistoryResponse422",
    "BrokerHistoryResponse422ErrorsItem",
    "BrokerHistoryResponse500",
    "BrokerHistoryResponse500ErrorsItem",
    "BrokerListConfigsResponse401",
    "BrokerListConfigsResponse401ErrorsItem",
    "BrokerListConfigsResponse403",
    "BrokerListConfigsResponse403ErrorsItem",
    "BrokerListConfigsResponse422",
    "BrokerListConfigsResponse422ErrorsItem",
    "BrokerListConfigsResponse500",
    "BrokerListConfigsResponse500ErrorsItem",
    "BrokerPublishResponse400",
    "BrokerPublishResponse400ErrorsItem",
    "BrokerPublishResponse401",
    "BrokerPublishResponse401ErrorsItem",
    "BrokerPublishResponse403",
    "BrokerPublishResponse403ErrorsItem",
    "BrokerPublishResponse422",
    "BrokerPublishResponse422ErrorsItem",
    "BrokerPublishResponse500",
    "BrokerPublishResponse500ErrorsItem",
    "BrokerPublishResponse503",
    "BrokerPublishResponse503ErrorsItem",
    "BrokerPurgeResponse401",
    "BrokerPurgeResponse401ErrorsItem",
    "BrokerPurgeResponse403",
    "BrokerPurgeResponse403ErrorsItem",
    "BrokerPurgeResponse422",
    "BrokerPurgeResponse422ErrorsItem",
    "BrokerPurgeResponse500",
    "BrokerPurgeResponse500ErrorsItem",
    "BrokerPutConfigResponse400",
    "BrokerPutConfigResponse400ErrorsItem",
    "BrokerPutConfigResponse401",
    "BrokerPutConfigResponse401ErrorsItem",
    "BrokerPutConfigResponse403",
    "BrokerPutConfigResponse403ErrorsItem",
    "BrokerPutConfigResponse422",
    "BrokerPutConfigResponse422ErrorsItem",
    "BrokerPutConfigResponse500",
    "BrokerPutConfigResponse500ErrorsItem",
    "BrokerTopicTreeResponse401",
    "BrokerTopicTreeResponse401ErrorsItem",
    "BrokerTopicTreeResponse403",
    "BrokerTopicTreeResponse403ErrorsItem",
    "BrokerTopicTreeResponse422",
    "BrokerTopicTreeResponse422ErrorsItem",
    "BrokerTopicTreeResponse500",
    "BrokerTopicTreeResponse500ErrorsItem",
    "CatalogEvent",
    "CatalogProducer",
    "CatalogProducerLastRefreshErrorClass",
    "CatalogResponse",
    "CreateDurableQueueRequest",
    "CreateDurableQueueResponse",
    "CreateDurableQueueResponse400",
    "CreateDurableQueueResponse400ErrorsItem",
    "CreateDurableQueueResponse401",
    "CreateDurableQueueResponse401ErrorsItem",
    "CreateDurableQueueResponse403",
    "CreateDurableQueueResponse403ErrorsItem",
    "CreateDurableQueueResponse404",
    "CreateDurableQueueResponse404ErrorsItem",
    "CreateDurableQueueResponse422",
    "CreateDurableQueueResponse422ErrorsItem",
    "CreateDurableQueueResponse500",
    "CreateDurableQueueResponse500ErrorsItem",
    "CreateDurableQueueResponse503",
    "CreateDurableQueueResponse503ErrorsItem",
    "CreateSubscriptionRequest",
    "CreateSubscriptionRequestEventMajors",
    "CreateSubscriptionResponse",
    "CreateSubscriptionResponse400",
    "CreateSubscriptionResponse400ErrorsItem",
    "CreateSubscriptionResponse401",
    "CreateSubscriptionResponse401ErrorsItem",
    "CreateSubscriptionResponse403",
    "CreateSubscriptionResponse403ErrorsItem",
    "CreateSubscriptionResponse409",
    "CreateSubscriptionResponse409ErrorsItem",
    "CreateSubscriptionResponse422",
    "CreateSubscriptionResponse422ErrorsItem",
    "CreateSubscriptionResponse500",
    "CreateSubscriptionResponse500ErrorsItem",
    "CreateSubscriptionResponse503",
    "CreateSubscriptionResponse503ErrorsItem",
    "CreateSubscriptionResponse504",
    "CreateSubscriptionResponse504ErrorsItem",
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
    "DeleteDurableQueueResponse401",
    "DeleteDurableQueueResponse401ErrorsItem",
    "DeleteDurableQueueResponse403",
    "DeleteDurableQueueResponse403ErrorsItem",
    "DeleteDurableQueueResponse404",
    "DeleteDurableQueueResponse404ErrorsItem",
    "DeleteDurableQueueResponse422",
    "DeleteDurableQueueResponse422ErrorsItem",
    "DeleteDurableQueueResponse500",
    "DeleteDurableQueueResponse500ErrorsItem",
    "DeleteDurableQueueResponse503",
    "DeleteDurableQueueResponse503ErrorsItem",
    "DeleteSubscriptionResponse400",
    "DeleteSubscriptionResponse400ErrorsItem",
    "DeleteSubscriptionResponse401",
    "DeleteSubscriptionResponse401ErrorsItem",
    "DeleteSubscriptionResponse403",
    "DeleteSubscriptionResponse403ErrorsItem",
    "DeleteSubscriptionResponse409",
    "DeleteSubscriptionResponse409ErrorsItem",
    "DeleteSubscriptionResponse500",
    "DeleteSubscriptionResponse500ErrorsItem",
    "DeleteSubscriptionResponse503",
    "DeleteSubscriptionResponse503ErrorsItem",
    "DeleteSubscriptionResponse504",
    "DeleteSubscriptionResponse504ErrorsItem",
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
    "GetCatalogResponse401",
    "GetCatalogResponse401ErrorsItem",
    "GetCatalogResponse403",
    "GetCatalogResponse403ErrorsItem",
    "GetCatalogResponse429",
    "GetCatalogResponse429ErrorsItem",
    "GetCatalogResponse500",
    "GetCatalogResponse500ErrorsItem",
    "GetCatalogResponse503",
    "GetCatalogResponse503ErrorsItem",
    "GetCatalogResponse504",
    "GetCatalogResponse504ErrorsItem",
    "GetDashboardNeedsAttentionResponse401",
    "GetDashboardNeedsAttentionResponse401ErrorsItem",
    "GetDashboardNeedsAttentionResponse403",
    "GetDashboardNeedsAttentionResponse403ErrorsItem",
    "GetDashboardNeedsAttentionResponse422",
    "GetDashboardNeedsAttentionResponse422Details",
    "GetDashboardNeedsAttentionResponse422ErrorsItem",
    "GetDashboardNeedsAttentionResponse429",
    "GetDashboardNeedsAttentionResponse429ErrorsItem",
    "GetDashboardNeedsAttentionResponse500",
    "GetDashboardNeedsAttentionResponse500ErrorsItem",
    "GetDashboardNeedsAttentionResponse503",
    "GetDashboardNeedsAttentionResponse503ErrorsItem",
    "GetDashboardNeedsAttentionResponse504",
    "GetDashboardNeedsAttentionResponse504ErrorsItem",
    "GetDashboardResponse401",
    "GetDashboardResponse401ErrorsItem",
    "GetDashboardResponse403",
    "GetDashboardResponse403ErrorsItem",
    "GetDashboardResponse422",
    "GetDashboardResponse422Details",
    "GetDashboardResponse422ErrorsItem",
    "GetDashboardResponse429",
    "GetDashboardResponse429ErrorsItem",
    "GetDashboardResponse500",
    "GetDashboardResponse500ErrorsItem",
    "GetDashboardResponse503",
    "GetDashboardResponse503ErrorsItem",
    "GetDashboardResponse504",
    "GetDashboardResponse504ErrorsItem",
    "GetDurableQueueResponse401",
    "GetDurableQueueResponse401ErrorsItem",
    "GetDurableQueueResponse403",
    "GetDurableQueueResponse403ErrorsItem",
    "GetDurableQueueResponse404",
    "GetDurableQueueResponse404ErrorsItem",
    "GetDurableQueueResponse422",
    "GetDurableQueueResponse422ErrorsItem",
    "GetDurableQueueResponse429",
    "GetDurableQueueResponse429ErrorsItem",
    "GetDurableQueueResponse500",
    "GetDurableQueueResponse500ErrorsItem",
    "GetDurableQueueResponse503",
    "GetDurableQueueResponse503ErrorsItem",
    "GetDurableQueueResponse504",
    "GetDurableQueueResponse504ErrorsItem",
    "GetSubscriptionDeliveryOptionsResponse401",
    "GetSubscriptionDeliveryOptionsResponse401ErrorsItem",
    "GetSubscriptionDeliveryOptionsResponse403",
    "GetSubscriptionDeliveryOptionsResponse403ErrorsItem",
    "GetSubscriptionDeliveryOptionsResponse404",
    "GetSubscriptionDeliveryOptionsResponse404ErrorsItem",
    "GetSubscriptionDeliveryOptionsResponse429",
    "GetSubscriptionDeliveryOptionsResponse429ErrorsItem",
    "GetSubscriptionDeliveryOptionsResponse500",
    "GetSubscriptionDeliveryOptionsResponse500ErrorsItem",
    "GetSubscriptionDeliveryOptionsResponse503",
    "GetSubscriptionDeliveryOptionsResponse503ErrorsItem",
    "GetSubscriptionDeliveryOptionsResponse504",
    "GetSubscriptionDeliveryOptionsResponse504ErrorsItem",
    "GetSubscriptionDeliveryResponse401",
    "GetSubscriptionDeliveryResponse401ErrorsItem",
    "GetSubscriptionDeliveryResponse403",
    "GetSubscriptionDeliveryResponse403ErrorsItem",
    "GetSubscriptionDeliveryResponse404",
    "GetSubscriptionDeliveryResponse404ErrorsItem",
    "GetSubscriptionDeliveryResponse429",
    "GetSubscriptionDeliveryResponse429ErrorsItem",
    "GetSubscriptionDeliveryResponse500",
    "GetSubscriptionDeliveryResponse500ErrorsItem",
    "GetSubscriptionDeliveryResponse503",
    "GetSubscriptionDeliveryResponse503ErrorsItem",
    "GetSubscriptionDeliveryResponse504",
    "GetSubscriptionDeliveryResponse504ErrorsItem",
    "GetSubscriptionHealthResponse401",
    "GetSubscriptionHealthResponse401ErrorsItem",
    "GetSubscriptionHealthResponse403",
    "GetSubscriptionHealthResponse403ErrorsItem",
    "GetSubscriptionHealthResponse404",
    "GetSubscriptionHealthResponse404ErrorsItem",
    "GetSubscriptionHealthResponse429",
    "GetSubscriptionHealthResponse429ErrorsItem",
    "GetSubscriptionHealthResponse500",
    "GetSubscriptionHealthResponse500ErrorsItem",
    "GetSubscriptionHealthResponse503",
    "GetSubscriptionHealthResponse503ErrorsItem",
    "GetSubscriptionHealthResponse504",
    "GetSubscriptionHealthResponse504ErrorsItem",
    "GetSubscriptionRecoveryResponse401",
    "GetSubscriptionRecoveryResponse401ErrorsItem",
    "GetSubscriptionRecoveryResponse403",
    "GetSubscriptionRecoveryResponse403ErrorsItem",
    "GetSubscriptionRecoveryResponse404",
    "GetSubscriptionRecoveryResponse404ErrorsItem",
    "GetSubscriptionRecoveryResponse429",
    "GetSubscriptionRecoveryResponse429ErrorsItem",
    "GetSubscriptionRecoveryResponse500",
    "GetSubscriptionRecoveryResponse500ErrorsItem",
    "GetSubscriptionRecoveryResponse503",
    "GetSubscriptionRecoveryResponse503ErrorsItem",
    "GetSubscriptionRecoveryResponse504",
    "GetSubscriptionRecoveryResponse504ErrorsItem",
    "GetSubscriptionResponse401",
    "GetSubscriptionResponse401ErrorsItem",
    "GetSubscriptionResponse403",
    "GetSubscriptionResponse403ErrorsItem",
    "GetSubscriptionResponse404",
    "GetSubscriptionResponse404ErrorsItem",
    "GetSubscriptionResponse429",
    "GetSubscriptionResponse429ErrorsItem",
    "GetSubscriptionResponse500",
    "GetSubscriptionResponse500ErrorsItem",
    "GetSubscriptionResponse503",
    "GetSubscriptionResponse503ErrorsItem",
    "GetSubscriptionResponse504",
    "GetSubscriptionResponse504ErrorsItem",
    "GetSubscriptionSetupArtifactsResponse401",
    "GetSubscriptionSetupArtifactsResponse401ErrorsItem",
    "GetSubscriptionSetupArtifactsResponse403",
    "GetSubscriptionSetupArtifactsResponse403ErrorsItem",
    "GetSubscriptionSetupArtifactsResponse404",
    "GetSubscriptionSetupArtifactsResponse404ErrorsItem",
    "GetSubscriptionSetupArtifactsResponse422",
    "GetSubscriptionSetupArtifactsResponse422ErrorsItem",
    "GetSubscriptionSetupArtifactsResponse429",
    "GetSubscriptionSetupArtifactsResponse429ErrorsItem",
    "GetSubscriptionSetupArtifactsResponse500",
    "GetSubscriptionSetupArtifactsResponse500ErrorsItem",
    "GetSubscriptionSetupArtifactsResponse503",
    "GetSubscriptionSetupArtifactsResponse503ErrorsItem",
    "GetSubscriptionSetupArtifactsResponse504",
    "GetSubscriptionSetupArtifactsResponse504ErrorsItem",
    "ListDeadLetteredEventsResponse401",
    "ListDeadLetteredEventsResponse401ErrorsItem",
    "ListDeadLetteredEventsResponse403",
    "ListDeadLetteredEventsResponse403ErrorsItem",
    "ListDeadLetteredEventsResponse422",
    "ListDeadLetteredEventsResponse422ErrorsItem",
    "ListDeadLetteredEventsResponse500",
    "ListDeadLetteredEventsResponse500ErrorsItem",
    "ListDeadLetteredEventsResponse503",
    "ListDeadLetteredEventsResponse503ErrorsItem",
    "ListDeadLetteredEventsResponse504",
    "ListDeadLetteredEventsResponse504ErrorsItem",
    "ListDlqObservationsErrorClass",
    "ListDlqObservationsResponse400",
    "ListDlqObservationsResponse400ErrorsItem",
    "ListDlqObservationsResponse401",
    "ListDlqObservationsResponse401ErrorsItem",
    "ListDlqObservationsResponse403",
    "ListDlqObservationsResponse403ErrorsItem",
    "ListDlqObservationsResponse500",
    "ListDlqObservationsResponse500ErrorsItem",
    "ListDlqObservationsResponse503",
    "ListDlqObservationsResponse503ErrorsItem",
    "ListDlqObservationsResponse504",
    "ListDlqObservationsResponse504ErrorsItem",
    "ListDurableQueuesResponse401",
    "ListDurableQueuesResponse401ErrorsItem",
    "ListDurableQueuesResponse403",
    "ListDurableQueuesResponse403ErrorsItem",
    "ListDurableQueuesResponse422",
    "ListDurableQueuesResponse422ErrorsItem",
    "ListDurableQueuesResponse429",
    "ListDurableQueuesResponse429ErrorsItem",
    "ListDurableQueuesResponse500",
    "ListDurableQueuesResponse500ErrorsItem",
    "ListDurableQueuesResponse503",
    "ListDurableQueuesResponse503ErrorsItem",
    "ListDurableQueuesResponse504",
    "ListDurableQueuesResponse504ErrorsItem",
    "ListSubscriptionBlockedKeysResponse400",
    "ListSubscriptionBlockedKeysResponse400ErrorsItem",
    "ListSubscriptionBlockedKeysResponse401",
    "ListSubscriptionBlockedKeysResponse401ErrorsItem",
    "ListSubscriptionBlockedKeysResponse403",
    "ListSubscriptionBlockedKeysResponse403ErrorsItem",
    "ListSubscriptionBlockedKeysResponse404",
    "ListSubscriptionBlockedKeysResponse404ErrorsItem",
    "ListSubscriptionBlockedKeysResponse422",
    "ListSubscriptionBlockedKeysResponse422ErrorsItem",
    "ListSubscriptionBlockedKeysResponse429",
    "ListSubscriptionBlockedKeysResponse429ErrorsItem",
    "ListSubscriptionBlockedKeysResponse500",
    "ListSubscriptionBlockedKeysResponse500ErrorsItem",
    "ListSubscriptionBlockedKeysResponse503",
    "ListSubscriptionBlockedKeysResponse503ErrorsItem",
    "ListSubscriptionBlockedKeysResponse504",
    "ListSubscriptionBlockedKeysResponse504ErrorsItem",
    "ListSubscriptionDeliveriesResponse400",
    "ListSubscriptionDeliveriesResponse400ErrorsItem",
    "ListSubscriptionDeliveriesResponse401",
    "ListSubscriptionDeliveriesResponse401ErrorsItem",
    "ListSubscriptionDeliveriesResponse403",
    "ListSubscriptionDeliveriesResponse403ErrorsItem",
    "ListSubscriptionDeliveriesResponse404",
    "ListSubscriptionDeliveriesResponse404ErrorsItem",
    "ListSubscriptionDeliveriesResponse422",
    "ListSubscriptionDeliveriesResponse422ErrorsItem",
    "ListSubscriptionDeliveriesResponse429",
    "ListSubscriptionDeliveriesResponse429ErrorsItem",
    "ListSubscriptionDeliveriesResponse500",
    "ListSubscriptionDeliveriesResponse500ErrorsItem",
    "ListSubscriptionDeliveriesResponse503",
    "ListSubscriptionDeliveriesResponse503ErrorsItem",
    "ListSubscriptionDeliveriesResponse504",
    "ListSubscriptionDeliveriesResponse504ErrorsItem",
    "ListSubscriptionsResponse",
    "ListSubscriptionsResponse401",
    "ListSubscriptionsResponse401ErrorsItem",
    "ListSubscriptionsResponse403",
    "ListSubscriptionsResponse403ErrorsItem",
    "ListSubscriptionsResponse422",
    "ListSubscriptionsResponse422ErrorsItem",
    "ListSubscriptionsResponse429",
    "ListSubscriptionsResponse429ErrorsItem",
    "ListSubscriptionsResponse500",
    "ListSubscriptionsResponse500ErrorsItem",
    "ListSubscriptionsResponse503",
    "ListSubscriptionsResponse503ErrorsItem",
    "ListSubscriptionsResponse504",
    "ListSubscriptionsResponse504ErrorsItem",
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
    "PingSubscriptionResponse401",
    "PingSubscriptionResponse401ErrorsItem",
    "PingSubscriptionResponse403",
    "PingSubscriptionResponse403ErrorsItem",
    "PingSubscriptionResponse404",
    "PingSubscriptionResponse404ErrorsItem",
    "PingSubscriptionResponse422",
    "PingSubscriptionResponse422ErrorsItem",
    "PingSubscriptionResponse500",
    "PingSubscriptionResponse500ErrorsItem",
    "PingSubscriptionResponse503",
    "PingSubscriptionResponse503ErrorsItem",
    "PingSubscriptionResponse504",
    "PingSubscriptionResponse504ErrorsItem",
    "ProbeResult",
    "ProbeResultOutcome",
    "PublishBody",
    "PublishedEvent",
    "PublisherEvent",
    "PublisherEventMessage",
    "PublishEventRequest",
    "PublishEventResponse",
    "PublishEventResponse400",
    "PublishEventResponse400ErrorsItem",
    "PublishEventResponse401",
    "PublishEventResponse401ErrorsItem",
    "PublishEventResponse403",
    "PublishEventResponse403ErrorsItem",
    "PublishEventResponse422",
    "PublishEventResponse422ErrorsItem",
    "PublishEventResponse500",
    "PublishEventResponse500ErrorsItem",
    "PublishEventResponse503",
    "PublishEventResponse503ErrorsItem",
    "PublishEventResponse504",
    "PublishEventResponse504ErrorsItem",
    "PublishingResult",
    "PullEvent",
    "PullEventPayload",
    "PullEventsResponse",
    "PullEventsResponse400",
    "PullEventsResponse400ErrorsItem",
    "PullEventsResponse401",
    "PullEventsResponse401ErrorsItem",
    "PullEventsResponse403",
    "PullEventsResponse403ErrorsItem",
    "PullEventsResponse404",
    "PullEventsResponse404ErrorsItem",
    "PullEventsResponse429",
    "PullEventsResponse429ErrorsItem",
    "PullEventsResponse500",
    "PullEventsResponse500ErrorsItem",
    "PullEventsResponse503",
    "PullEventsResponse503ErrorsItem",
    "PullEventsResponse504",
    "PullEventsResponse504ErrorsItem",
    "PurgeCount",
    "PutSubscriptionCredentialResponse400",
    "PutSubscriptionCredentialResponse400ErrorsItem",
    "PutSubscriptionCredentialResponse401",
    "PutSubscriptionCredentialResponse401ErrorsItem",
    "PutSubscriptionCredentialResponse403",
    "PutSubscriptionCredentialResponse403ErrorsItem",
    "PutSubscriptionCredentialResponse404",
    "PutSubscriptionCredentialResponse404ErrorsItem",
    "PutSubscriptionCredentialResponse422",
    "PutSubscriptionCredentialResponse422ErrorsItem",
    "PutSubscriptionCredentialResponse500",
    "PutSubscriptionCredentialResponse500ErrorsItem",
    "PutSubscriptionCredentialResponse503",
    "PutSubscriptionCredentialResponse503ErrorsItem",
    "PutSubscriptionCredentialResponse504",
    "PutSubscriptionCredentialResponse504ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse400",
    "PutSubscriptionDelegatedGrantResponse400ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse401",
    "PutSubscriptionDelegatedGrantResponse401ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse403",
    "PutSubscriptionDelegatedGrantResponse403ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse404",
    "PutSubscriptionDelegatedGrantResponse404ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse409",
    "PutSubscriptionDelegatedGrantResponse409ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse422",
    "PutSubscriptionDelegatedGrantResponse422ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse500",
    "PutSubscriptionDelegatedGrantResponse500ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse503",
    "PutSubscriptionDelegatedGrantResponse503ErrorsItem",
    "PutSubscriptionDelegatedGrantResponse504",
    "PutSubscriptionDelegatedGrantResponse504ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse400",
    "PutSubscriptionDeliveryOptionsResponse400ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse401",
    "PutSubscriptionDeliveryOptionsResponse401ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse403",
    "PutSubscriptionDeliveryOptionsResponse403ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse404",
    "PutSubscriptionDeliveryOptionsResponse404ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse409",
    "PutSubscriptionDeliveryOptionsResponse409ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse422",
    "PutSubscriptionDeliveryOptionsResponse422ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse500",
    "PutSubscriptionDeliveryOptionsResponse500ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse503",
    "PutSubscriptionDeliveryOptionsResponse503ErrorsItem",
    "PutSubscriptionDeliveryOptionsResponse504",
    "PutSubscriptionDeliveryOptionsResponse504ErrorsItem",
    "ReadinessDetail",
    "ReadinessDetailState",
    "ReadinessResponse",
    "ReadinessResponseState",
    "RecoverRequest",
    "RecoverRequestOutcomesType0Item",
    "RecoverSubscriptionDeliveriesResponse400",
    "RecoverSubscriptionDeliveriesResponse400ErrorsItem",
    "RecoverSubscriptionDeliveriesResponse401",
    "RecoverSubscriptionDeliveriesResponse401ErrorsItem",
    "RecoverSubscriptionDeliveriesResponse403",
    "RecoverSubscriptionDeliveriesResponse403ErrorsItem",
    "RecoverSubscriptionDeliveriesResponse404",
    "RecoverSubscriptionDeliveriesResponse404ErrorsItem",
    "RecoverSubscriptionDeliveriesResponse409",
    "RecoverSubscriptionDeliveriesResponse409ErrorsItem",
    "RecoverSubscriptionDeliveriesResponse422",
    "RecoverSubscriptionDeliveriesResponse422ErrorsItem",
    "RecoverSubscriptionDeliveriesResponse500",
    "RecoverSubscriptionDeliveriesResponse500ErrorsItem",
    "RecoverSubscriptionDeliveriesResponse503",
    "RecoverSubscriptionDeliveriesResponse503ErrorsItem",
    "RecoverSubscriptionDeliveriesResponse504",
    "RecoverSubscriptionDeliveriesResponse504ErrorsItem",
    "Recovery",
    "RecoveryOutcomesItem",
    "RecoveryResponse",
    "RecoveryState",
    "ResendSubscriptionDeliveryResponse400",
    "ResendSubscriptionDeliveryResponse400ErrorsItem",
    "ResendSubscriptionDeliveryResponse401",
    "ResendSubscriptionDeliveryResponse401ErrorsItem",
    "ResendSubscriptionDeliveryResponse403",
    "ResendSubscriptionDeliveryResponse403ErrorsItem",
    "ResendSubscriptionDeliveryResponse404",
    "ResendSubscriptionDeliveryResponse404ErrorsItem",
    "ResendSubscriptionDeliveryResponse409",
    "ResendSubscriptionDeliveryResponse409ErrorsItem",
    "ResendSubscriptionDeliveryResponse500",
    "ResendSubscriptionDeliveryResponse500ErrorsItem",
    "ResendSubscriptionDeliveryResponse503",
    "ResendSubscriptionDeliveryResponse503ErrorsItem",
    "ResendSubscriptionDeliveryResponse504",
    "ResendSubscriptionDeliveryResponse504ErrorsItem",
    "ResourceFilter",
    "ResumeBlockedKeyRequest",
    "ResumeBlockedKeyRequestAction",
    "ResumeBlockedKeyResponse",
    "ResumedKey",
    "ResumedKeyAction",
    "ResumeSubscriptionBlockedKeyResponse400",
    "ResumeSubscriptionBlockedKeyResponse400ErrorsItem",
    "ResumeSubscriptionBlockedKeyResponse401",
    "ResumeSubscriptionBlockedKeyResponse401ErrorsItem",
    "ResumeSubscriptionBlockedKeyResponse403",
    "ResumeSubscriptionBlockedKeyResponse403ErrorsItem",
    "ResumeSubscriptionBlockedKeyResponse404",
    "ResumeSubscriptionBlockedKeyResponse404ErrorsItem",
    "ResumeSubscriptionBlockedKeyResponse409",
    "ResumeSubscriptionBlockedKeyResponse409ErrorsItem",
    "ResumeSubscriptionBlockedKeyResponse422",
    "ResumeSubscriptionBlockedKeyResponse422ErrorsItem",
    "ResumeSubscriptionBlockedKeyResponse500",
    "ResumeSubscriptionBlockedKeyResponse500ErrorsItem",
    "ResumeSubscriptionBlockedKeyResponse503",
    "ResumeSubscriptionBlockedKeyResponse503ErrorsItem",
    "ResumeSubscriptionBlockedKeyResponse504",
    "ResumeSubscriptionBlockedKeyResponse504ErrorsItem",
    "RevealSubscriptionEndpointResponse401",
    "RevealSubscriptionEndpointResponse401ErrorsItem",
    "RevealSubscriptionEndpointResponse403",
    "RevealSubscriptionEndpointResponse403ErrorsItem",
    "RevealSubscriptionEndpointResponse404",
    "RevealSubscriptionEndpointResponse404ErrorsItem",
    "RevealSubscriptionEndpointResponse429",
    "RevealSubscriptionEndpointResponse429ErrorsItem",
    "RevealSubscriptionEndpointResponse500",
    "RevealSubscriptionEndpointResponse500ErrorsItem",
    "RevealSubscriptionEndpointResponse503",
    "RevealSubscriptionEndpointResponse503ErrorsItem",
    "RevealSubscriptionEndpointResponse504",
    "RevealSubscriptionEndpointResponse504ErrorsItem",
    "RotateSecretResponse",
    "RotateSubscriptionSecretResponse400",
    "RotateSubscriptionSecretResponse400ErrorsItem",
    "RotateSubscriptionSecretResponse401",
    "RotateSubscriptionSecretResponse401ErrorsItem",
    "RotateSubscriptionSecretResponse403",
    "RotateSubscriptionSecretResponse403ErrorsItem",
    "RotateSubscriptionSecretResponse404",
    "RotateSubscriptionSecretResponse404ErrorsItem",
    "RotateSubscriptionSecretResponse409",
    "RotateSubscriptionSecretResponse409ErrorsItem",
    "RotateSubscriptionSecretResponse422",
    "RotateSubscriptionSecretResponse422ErrorsItem",
    "RotateSubscriptionSecretResponse500",
    "RotateSubscriptionSecretResponse500ErrorsItem",
    "RotateSubscriptionSecretResponse503",
    "RotateSubscriptionSecretResponse503ErrorsItem",
    "RotateSubscriptionSecretResponse504",
    "RotateSubscriptionSecretResponse504ErrorsItem",
    "RuntimeResponse",
    "ServiceHealth",
    "SetupArtifactsResponse",
    "SinkKind",
    "StaticHeader",
    "StaticHeaderRead",
    "StreamDurableEventsResponse401",
    "StreamDurableEventsResponse401ErrorsItem",
    "StreamDurableEventsResponse403",
    "StreamDurableEventsResponse403ErrorsItem",
    "StreamDurableEventsResponse404",
    "StreamDurableEventsResponse404ErrorsItem",
    "StreamDurableEventsResponse422",
    "StreamDurableEventsResponse422ErrorsItem",
    "StreamDurableEventsResponse500",
    "StreamDurableEventsResponse500ErrorsItem",
    "StreamDurableEventsResponse503",
    "StreamDurableEventsResponse503ErrorsItem",
    "StreamNonDurableEventsResponse401",
    "StreamNonDurableEventsResponse401ErrorsItem",
    "StreamNonDurableEventsResponse403",
    "StreamNonDurableEventsResponse403ErrorsItem",
    "StreamNonDurableEventsResponse404",
    "StreamNonDurableEventsResponse404ErrorsItem",
    "StreamNonDurableEventsResponse422",
    "StreamNonDurableEventsResponse422ErrorsItem",
    "StreamNonDurableEventsResponse500",
    "StreamNonDurableEventsResponse500ErrorsItem",
    "StreamNonDurableEventsResponse503",
    "StreamNonDurableEventsResponse503ErrorsItem",
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
    "TriageDeadLetteredEventsResponse400",
    "TriageDeadLetteredEventsResponse400ErrorsItem",
    "TriageDeadLetteredEventsResponse401",
    "TriageDeadLetteredEventsResponse401ErrorsItem",
    "TriageDeadLetteredEventsResponse403",
    "TriageDeadLetteredEventsResponse403ErrorsItem",
    "TriageDeadLetteredEventsResponse422",
    "TriageDeadLetteredEventsResponse422ErrorsItem",
    "TriageDeadLetteredEventsResponse500",
    "TriageDeadLetteredEventsResponse500ErrorsItem",
    "TriageDeadLetteredEventsResponse503",
    "TriageDeadLetteredEventsResponse503ErrorsItem",
    "TriageDeadLetteredEventsResponse504",
    "TriageDeadLetteredEventsResponse504ErrorsItem",
    "TriageOutcome",
    "TriageOutcomeAction",
    "TriageOutcomeOutcome",
    "TriageRequest",
    "TriageResponse",
    "UpdateDurableQueueRequest",
    "UpdateDurableQueueResponse400",
    "UpdateDurableQueueResponse400ErrorsItem",
    "UpdateDurableQueueResponse401",
    "UpdateDurableQueueResponse401ErrorsItem",
    "UpdateDurableQueueResponse403",
    "UpdateDurableQueueResponse403ErrorsItem",
    "UpdateDurableQueueResponse404",
    "UpdateDurableQueueResponse404ErrorsItem",
    "UpdateDurableQueueResponse422",
    "UpdateDurableQueueResponse422ErrorsItem",
    "UpdateDurableQueueResponse500",
    "UpdateDurableQueueResponse500ErrorsItem",
    "UpdateDurableQueueResponse503",
    "UpdateDurableQueueResponse503ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse400",
    "UpdateSubscriptionSchemaMajorResponse400ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse401",
    "UpdateSubscriptionSchemaMajorResponse401ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse403",
    "UpdateSubscriptionSchemaMajorResponse403ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse404",
    "UpdateSubscriptionSchemaMajorResponse404ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse409",
    "UpdateSubscriptionSchemaMajorResponse409ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse422",
    "UpdateSubscriptionSchemaMajorResponse422ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse500",
    "UpdateSubscriptionSchemaMajorResponse500ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse503",
    "UpdateSubscriptionSchemaMajorResponse503ErrorsItem",
    "UpdateSubscriptionSchemaMajorResponse504",
    "UpdateSubscriptionSchemaMajorResponse504ErrorsItem",
    "VerificationState",
    "VerifySubscriptionResponse401",
    "VerifySubscriptionResponse401ErrorsItem",
    "VerifySubscriptionResponse403",
    "VerifySubscriptionResponse403ErrorsItem",
    "VerifySubscriptionResponse404",
    "VerifySubscriptionResponse404ErrorsItem",
    "VerifySubscriptionResponse422",
    "VerifySubscriptionResponse422ErrorsItem",
    "VerifySubscriptionResponse500",
    "VerifySubscriptionResponse500ErrorsItem",
    "VerifySubscriptionResponse503",
    "VerifySubscriptionResponse503ErrorsItem",
    "VerifySubscriptionResponse504",
    "VerifySubscriptionResponse504ErrorsItem",
    "VersionResponse",
)
