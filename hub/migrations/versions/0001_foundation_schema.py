"""Foundation schema: subscriptions, idempotency, rate limits, catalog, event log, jobs, DLQ.

Revision ID: 0001
Revises: 
Create Date: 2026-12-02 10:24:44.403004
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op
from sqlalchemy.dialects import postgresql

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('catalog_producers',
    sa.Column('target', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('manifest_url', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('topic', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('fetched_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_refresh_failed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_refresh_error_class', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('consecutive_failures', sa.Integer(), nullable=False),
    sa.Column('breaker_open_until', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('target')
    )
    op.create_table('delivery_attempts',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('job_id', sa.Uuid(), nullable=True),
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('subscription_id', sa.Uuid(), nullable=True),
    sa.Column('sink_kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('outcome', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=False),
    sa.Column('error_class', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('latency_ms', sa.Integer(), nullable=False),
    sa.Column('attempted_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_delivery_attempts_sub_time', 'delivery_attempts', ['subscription_id', 'attempted_at'], unique=False)
    op.create_index('ix_delivery_attempts_tenant_time', 'delivery_attempts', ['tenant_id', 'attempted_at'], unique=False)
    op.create_table('delivery_jobs',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('subscription_id', sa.Uuid(), nullable=False),
    sa.Column('event_seq', sa.BigInteger(), nullable=False),
    sa.Column('state', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error_class', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('subscription_id', 'tenant_id', 'event_seq', name='uq_delivery_jobs_event')
    )
    op.create_index('ix_delivery_jobs_due', 'delivery_jobs', ['next_attempt_at'], unique=False, postgresql_where=sa.text("state IN ('pending', 'retrying')"))
    op.create_index('ix_delivery_jobs_subscription', 'delivery_jobs', ['subscription_id', 'created_at'], unique=False)
    op.create_table('dlq_observations',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('source_topic', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('error_class', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('error_message', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('retry_count', sa.Integer(), nullable=False),
    sa.Column('first_failure_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('producer_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('observed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id_raw', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('dlq_partition', sa.Integer(), nullable=False),
    sa.Column('dlq_offset', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('dlq_partition', 'dlq_offset', name='uq_dlq_observations_record')
    )
    op.create_index('ix_dlq_observations_class', 'dlq_observations', ['error_class', 'id'], unique=False)
    op.create_index('ix_dlq_observations_tenant_raw', 'dlq_observations', ['tenant_id_raw', 'observed_at'], unique=False)
    op.create_index('ix_dlq_observations_topic', 'dlq_observations', ['source_topic', 'id'], unique=False)
    op.create_table('event_log',
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('seq', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('ce_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('event_type', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('schema_version', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('schema_major', sa.Integer(), nullable=False),
    sa.Column('delegated_scope', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('partition_key', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('event_time', sa.DateTime(timezone=True), nullable=True),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('attributes', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('data', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('kafka_topic', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kafka_partition', sa.Integer(), nullable=False),
    sa.Column('kafka_offset', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.PrimaryKeyConstraint('tenant_id', 'seq'),
    sa.UniqueConstraint('tenant_id', 'source', 'ce_id', name='uq_event_log_dedup')
    )
    op.create_index('ix_event_log_tenant_received', 'event_log', ['tenant_id', 'received_at'], unique=False)
    op.create_table('idempotency_records',
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('fingerprint', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('state', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=True),
    sa.Column('headers', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('body', sa.LargeBinary(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('tenant_id', 'key')
    )
    op.create_index(op.f('ix_idempotency_records_expires_at'), 'idempotency_records', ['expires_at'], unique=False)
    op.create_table('pull_cursors',
    sa.Column('subscription_id', sa.Uuid(), nullable=False),
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('acked_seq', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('subscription_id')
    )
    op.create_table('rate_limit_windows',
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('allowance', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('window_start', sa.DateTime(timezone=True), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('tenant_id', 'allowance')
    )
    op.create_table('subscription_health',
    sa.Column('subscription_id', sa.Uuid(), nullable=False),
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('last_success_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_failure_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('failing_since', sa.DateTime(timezone=True), nullable=True),
    sa.Column('consecutive_failures', sa.Integer(), nullable=False),
    sa.Column('auto_disabled', sa.Boolean(), nullable=False),
    sa.Column('disabled_reason', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('subscription_id')
    )
    op.create_table('subscription_versions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('subscriptions',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('delegated_scope', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('sink_kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('endpoint', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('event_types', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('event_majors', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('origin', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('schema_major', sa.Integer(), nullable=True),
    sa.Column('timeout_ms', sa.Integer(), nullable=True),
    sa.Column('signature_version', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('plan_tier', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('verification_state', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('credential_kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('secret_current', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('secret_previous', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('secret_rotated_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('secret_overlap_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('credential_sealed', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('credential_updated_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('delegated_grant', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.Column('external_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('auto_disabled', sa.Boolean(), nullable=False),
    sa.Column('disabled_reason', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_subscriptions_tenant_id_desc', 'subscriptions', ['tenant_id', sa.literal_column('id DESC')], unique=False)
    op.create_index('uq_subscriptions_live_name', 'subscriptions', ['tenant_id', sa.literal_column("coalesce(delegated_scope, '')"), 'name'], unique=True, postgresql_where=sa.text('deleted_at IS NULL'))
    op.create_table('tenant_counters',
    sa.Column('tenant_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('last_seq', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.PrimaryKeyConstraint('tenant_id')
    )
    op.create_table('catalog_events',
    sa.Column('producer_target', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('resource_type', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('event_type', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('schema_major', sa.Integer(), nullable=False),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('topic', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('schema_version', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('data_schema', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('description', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['producer_target'], ['catalog_producers.target'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('producer_target', 'resource_type', 'event_type', 'schema_major')
    )
    op.execute("INSERT INTO subscription_versions (id, version) VALUES (1, 0)")


def downgrade() -> None:
    op.drop_table('catalog_events')
    op.drop_table('tenant_counters')
    op.drop_index('uq_subscriptions_live_name', table_name='subscriptions', postgresql_where=sa.text('deleted_at IS NULL'))
    op.drop_index('ix_subscriptions_tenant_id_desc', table_name='subscriptions')
    op.drop_table('subscriptions')
    op.drop_table('subscription_versions')
    op.drop_table('subscription_health')
    op.drop_table('rate_limit_windows')
    op.drop_table('pull_cursors')
    op.drop_index(op.f('ix_idempotency_records_expires_at'), table_name='idempotency_records')
    op.drop_table('idempotency_records')
    op.drop_index('ix_event_log_tenant_received', table_name='event_log')
    op.drop_table('event_log')
    op.drop_index('ix_dlq_observations_topic', table_name='dlq_observations')
    op.drop_index('ix_dlq_observations_tenant_raw', table_name='dlq_observations')
    op.drop_index('ix_dlq_observations_class', table_name='dlq_observations')
    op.drop_table('dlq_observations')
    op.drop_index('ix_delivery_jobs_subscription', table_name='delivery_jobs')
    op.drop_index('ix_delivery_jobs_due', table_name='delivery_jobs', postgresql_where=sa.text("state IN ('pending', 'retrying')"))
    op.drop_table('delivery_jobs')
    op.drop_index('ix_delivery_attempts_tenant_time', table_name='delivery_attempts')
    op.drop_index('ix_delivery_attempts_sub_time', table_name='delivery_attempts')
    op.drop_table('delivery_attempts')
    op.drop_table('catalog_producers')
