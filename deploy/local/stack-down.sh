#!/usr/bin/env bash
# Stops the local services that deploy/local/stack.sh started (and only those:
# a service counts as ours when .local/started-by-us/<service> exists and its
# pid still belongs to our instance).  Data under .local/ is kept.
# Idempotent: running it when nothing runs just says so.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
# shellcheck source=deploy/local/lib.sh
. "$SCRIPT_DIR/lib.sh"

T0=$(now_ms)
RC=0

not_ours() {  # not_ours <service> <pid>
  log "$1: running (pid $2) but not started by stack.sh — leaving it alone"
}

# Kafka's controlled shutdown is the slowest, so it is signalled first and
# awaited last, while the other services stop.
KAFKA_STOPPING=""
stop_kafka_begin() {
  local p m
  m=$(marker_get kafka || true)
  if p=$(kafka_running_pid); then
    if [ -n "$m" ] && [ "$m" = "$p" ]; then
      log "kafka: stopping (pid $p) ..."
      kill -TERM "$p" 2>/dev/null || true
      KAFKA_STOPPING=$p
    else
      not_ours kafka "$p"
    fi
  else
    rm -f "$KAFKA_PIDFILE"; marker_clear kafka
    log "kafka: not running"
  fi
}

stop_kafka_finish() {
  [ -n "$KAFKA_STOPPING" ] || return 0
  stop_pid "$KAFKA_STOPPING" kafka 60
  rm -f "$KAFKA_PIDFILE"; marker_clear kafka
  log "kafka: stopped"
}

stop_postgres() {
  local p m bin
  m=$(marker_get postgres || true)
  if p=$(pg_running_pid); then
    if [ -n "$m" ] && [ "$m" = "$p" ]; then
      bin=$(pg_find_bindir) || { err "postgres: pg_ctl not found; cannot stop pid $p"; RC=1; return 0; }
      log "postgres: stopping (pid $p) ..."
      if [ "$(id -u)" = 0 ]; then
        (cd "$PG_DIR" && runuser -u "$PG_OS_USER" -- "$bin/pg_ctl" -D "$PG_DATA" stop -m fast -w -t 60 -s) || {
          err "postgres: pg_ctl stop failed"; RC=1; return 0; }
      else
        (cd "$PG_DIR" && "$bin/pg_ctl" -D "$PG_DATA" stop -m fast -w -t 60 -s) || {
          err "postgres: pg_ctl stop failed"; RC=1; return 0; }
      fi
      marker_clear postgres
      log "postgres: stopped"
    else
      not_ours postgres "$p"
    fi
  else
    marker_clear postgres
    log "postgres: not running"
  fi
}

stop_rabbitmq() {
  local p m w
  m=$(marker_get rabbitmq || true)
  if p=$(rmq_running_pid); then
    w=$(read_pidfile "$RMQ_WRAPPER_PIDFILE" || true)
    if [ -n "$m" ] && { [ "$m" = "$p" ] || [ "$m" = "$w" ]; }; then
      RMQ_SBIN=$(rmq_find_sbindir) || { err "rabbitmq: rabbitmqctl not found; cannot stop pid $p"; RC=1; return 0; }
      log "rabbitmq: stopping node $RMQ_NODE (pid $p) ..."
      if ! timeout 90 env "${RMQ_ENV[@]}" "$RMQ_SBIN/rabbitmqctl" -n "$RMQ_NODE" -q stop "$RMQ_PIDFILE" >/dev/null 2>&1; then
        warn "rabbitmq: rabbitmqctl stop failed; terminating pid $p"
        stop_pid "$p" rabbitmq 30
      fi
      pid_alive "$p" && stop_pid "$p" rabbitmq 10
      [ -n "$w" ] && pid_alive "$w" && stop_pid "$w" "rabbitmq-server wrapper" 10
      rm -f "$RMQ_WRAPPER_PIDFILE"; marker_clear rabbitmq
      log "rabbitmq: stopped"
    else
      not_ours rabbitmq "$p"
    fi
  else
    # A wrapper we started whose node never came up fully.
    w=$(read_pidfile "$RMQ_WRAPPER_PIDFILE" || true)
    if [ -n "$m" ] && [ -n "$w" ] && [ "$m" = "$w" ] && pid_alive "$w" &&
       [[ "$(proc_cmdline "$w")" == *rabbitmq-server* ]]; then
      log "rabbitmq: terminating half-started server (pid $w)"
      stop_pid "$w" rabbitmq 30
    else
      log "rabbitmq: not running"
    fi
    rm -f "$RMQ_WRAPPER_PIDFILE"; marker_clear rabbitmq
  fi
  stop_epmd
}

stop_epmd() {
  # epmd is started implicitly by the Erlang VM.  Only stop the one that was
  # not running before stack.sh started RabbitMQ, and only when no Erlang node
  # is registered with it any more.
  local m p
  m=$(marker_get epmd || true)
  [ -n "$m" ] || return 0
  if pid_alive "$m" && [ "$(proc_comm "$m")" = epmd ]; then
    local names
    names=$(ERL_EPMD_PORT="$EPMD_PORT" epmd -names 2>/dev/null | grep -c '^name ' || true)
    if [ "${names:-0}" = 0 ]; then
      ERL_EPMD_PORT="$EPMD_PORT" epmd -kill >/dev/null 2>&1 || stop_pid "$m" epmd 5
      pid_alive "$m" && stop_pid "$m" epmd 5
      log "epmd: stopped (port $EPMD_PORT)"
    else
      log "epmd: other Erlang nodes still registered on port $EPMD_PORT — leaving it running"
      return 0
    fi
  fi
  marker_clear epmd
}

stop_moto() {
  local p m
  m=$(marker_get moto || true)
  if p=$(moto_running_pid); then
    if [ -n "$m" ] && [ "$m" = "$p" ]; then
      log "moto: stopping (pid $p) ..."
      stop_pid "$p" moto 15
      rm -f "$MOTO_PIDFILE"; marker_clear moto
      log "moto: stopped"
    else
      not_ours moto "$p"
    fi
  else
    rm -f "$MOTO_PIDFILE"; marker_clear moto
    log "moto: not running"
  fi
}

stop_kafka_begin
stop_moto
stop_rabbitmq
stop_postgres
stop_kafka_finish

if [ "$RC" = 0 ]; then
  log "done ($(elapsed "$T0"))"
fi
exit "$RC"
