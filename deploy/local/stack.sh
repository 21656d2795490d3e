#!/usr/bin/env bash
# Local infrastructure for streaming-hub: Kafka (KRaft), PostgreSQL, RabbitMQ
# and a moto server, all bound to 127.0.0.1 on non-default ports, with their
# data under the git-ignored .local/ folder (override with HUB_LOCAL_DIR).
#
# Idempotent: services that already run (started by an earlier run of this
# script) are left alone and reported as "already running".  Stale pid files
# are cleaned up.  A port held by some other process is reported and the
# script exits non-zero without starting anything.
#
# Stop with deploy/local/stack-down.sh (stops only what this script started).
#
# Ports (overridable): HUB_KAFKA_PORT=59092 HUB_KAFKA_CONTROLLER_PORT=59093
#   HUB_PG_PORT=55432 HUB_RABBITMQ_PORT=55672 HUB_RABBITMQ_DIST_PORT=55674
#   HUB_EPMD_PORT=54369 HUB_MOTO_PORT=55000
# Other knobs: HUB_LOCAL_DIR, HUB_KAFKA_HEAP, HUB_PG_BINDIR, HUB_STACK_TIMEOUT
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
# shellcheck source=deploy/local/lib.sh
. "$SCRIPT_DIR/lib.sh"

T0=$(now_ms)
TIMEOUT="${HUB_STACK_TIMEOUT:-90}"   # readiness wait per service, seconds
rel() { local p="$1"; echo "${p#"$REPO_ROOT"/}"; }

# ============================================================ prerequisites
APT_UPDATED=0
apt_install() {
  [ "$(id -u)" = 0 ] || die "missing packages: $* — not running as root, please install them yourself"
  command -v apt-get >/dev/null 2>&1 || die "missing packages: $* — apt-get is not available, please install them yourself"
  export DEBIAN_FRONTEND=noninteractive
  if [ "$APT_UPDATED" = 0 ]; then
    log "apt-get update"
    apt-get update -q -o DPkg::Lock::Timeout=600
    APT_UPDATED=1
  fi
  log "apt-get install -y $*"
  # Another install (a browser for the console tests, say) may hold the dpkg lock: wait for it.
  apt-get install -y -q -o DPkg::Lock::Timeout=600 "$@"
}

kafka_jars_present() {
  compgen -G "$KAFKA_LIBS/kafka_2.13-*.jar" >/dev/null &&
    compgen -G "$KAFKA_LIBS/kafka-tools-*.jar" >/dev/null &&
    compgen -G "$KAFKA_LIBS/log4j-core-*.jar" >/dev/null
}

ensure_prerequisites() {
  # The readiness probes and the moto server come from the project virtualenv.
  if [ ! -x "$VENV_PY" ]; then
    die "the project virtualenv is missing (.venv/bin/python not found) — run \`make install\` first"
  fi
  if [ ! -x "$MOTO_BIN" ]; then
    die "moto server is not installed (.venv/bin/moto_server not found) — run \`make install\` first"
  fi

  local need=()
  command -v ss >/dev/null 2>&1 || need+=(iproute2)
  command -v runuser >/dev/null 2>&1 || need+=(util-linux)
  # Binaries are what matter (Debian keeps initdb off PATH, in /usr/lib/postgresql/N/bin).
  if ! pg_find_bindir >/dev/null; then need+=(postgresql); fi
  if ! rmq_find_sbindir >/dev/null; then need+=(rabbitmq-server); fi
  command -v "$JAVA" >/dev/null 2>&1 || need+=(default-jre-headless)
  if ! kafka_jars_present && ! command -v mvn >/dev/null 2>&1; then need+=(maven); fi
  if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; fi

  PG_BIN=$(pg_find_bindir) || die "PostgreSQL server binaries (initdb) not found"
  RMQ_SBIN=$(rmq_find_sbindir) || die "rabbitmq-server not found"

  if ! kafka_jars_present; then
    command -v mvn >/dev/null 2>&1 || die "maven (mvn) is needed to fetch the Kafka jars"
    local t; t=$(now_ms)
    local tmp="$KAFKA_DIR/libs.tmp"
    rm -rf "$tmp"; mkdir -p "$tmp"
    log "kafka: resolving broker jars with maven (deploy/kafka/pom.xml) ..."
    if ! (cd "$REPO_ROOT" && mvn -q -B -Dstyle.color=never -f deploy/kafka/pom.xml dependency:copy-dependencies \
            -DoutputDirectory="$tmp" -DincludeScope=runtime) >"$KAFKA_DIR/mvn.log" 2>&1; then
      rm -rf "$tmp"
      tail -n 30 "$KAFKA_DIR/mvn.log" >&2
      die "maven could not resolve the Kafka jars (log: $(rel "$KAFKA_DIR/mvn.log"))"
    fi
    rm -rf "$KAFKA_LIBS"; mv "$tmp" "$KAFKA_LIBS"
    log "kafka: $(ls "$KAFKA_LIBS" | wc -l) jars in $(rel "$KAFKA_LIBS") ($(elapsed "$t"))"
  fi

}

# ================================================================ preflight
# Decides per service whether it is already running (ours) or must be started,
# removes stale pid files, and refuses ports held by foreign processes.
PREFLIGHT_FAIL=0

kafka_preflight() {
  KAFKA_PID=""
  if KAFKA_PID=$(kafka_running_pid); then
    KAFKA_ACTION=running
  else
    KAFKA_PID=""; KAFKA_ACTION=start
    if [ -f "$KAFKA_PIDFILE" ]; then
      log "kafka: stale pid file (pid $(read_pidfile "$KAFKA_PIDFILE" || echo '?') is not our broker) — removing it"
      rm -f "$KAFKA_PIDFILE"
    fi
    marker_clear kafka
  fi
  check_port "$KAFKA_PORT" "kafka broker" $KAFKA_PID || PREFLIGHT_FAIL=1
  check_port "$KAFKA_CONTROLLER_PORT" "kafka controller" $KAFKA_PID || PREFLIGHT_FAIL=1
}

pg_preflight() {
  PG_PID=""
  if PG_PID=$(pg_running_pid); then
    PG_ACTION=running
  else
    PG_PID=""; PG_ACTION=start
    if [ -f "$PG_DATA/postmaster.pid" ] && ! port_in_use "$PG_PORT"; then
      local sp; sp=$(read_pidfile "$PG_DATA/postmaster.pid" || echo '?')
      log "postgres: stale postmaster.pid (pid $sp is not our postmaster) — removing it"
      rm -f "$PG_DATA/postmaster.pid"
    fi
    marker_clear postgres
  fi
  check_port "$PG_PORT" postgres $PG_PID || PREFLIGHT_FAIL=1
}

rmq_preflight() {
  RMQ_PID=""
  if RMQ_PID=$(rmq_running_pid); then
    RMQ_ACTION=running
  else
    RMQ_PID=""; RMQ_ACTION=start
    if [ -f "$RMQ_PIDFILE" ]; then
      log "rabbitmq: stale pid file (pid $(read_pidfile "$RMQ_PIDFILE" || echo '?') is not our node) — removing it"
      rm -f "$RMQ_PIDFILE"
    fi
    rm -f "$RMQ_WRAPPER_PIDFILE"
    marker_clear rabbitmq
  fi
  check_port "$RMQ_PORT" "rabbitmq amqp" $RMQ_PID || PREFLIGHT_FAIL=1
  check_port "$RMQ_DIST_PORT" "rabbitmq erlang distribution" $RMQ_PID || PREFLIGHT_FAIL=1
  # epmd is shared by design: any epmd on our epmd port is fine, anything else is not.
  EPMD_WAS_RUNNING=0
  if port_in_use "$EPMD_PORT"; then
    EPMD_WAS_RUNNING=1
    local p epmds=()
    for p in $(port_pids "$EPMD_PORT"); do [ "$(proc_comm "$p")" = epmd ] && epmds+=("$p"); done
    check_port "$EPMD_PORT" "erlang epmd" "${epmds[@]}" || PREFLIGHT_FAIL=1
  fi
}

moto_preflight() {
  MOTO_PID=""
  if MOTO_PID=$(moto_running_pid); then
    MOTO_ACTION=running
  else
    MOTO_PID=""; MOTO_ACTION=start
    if [ -f "$MOTO_PIDFILE" ]; then
      log "moto: stale pid file (pid $(read_pidfile "$MOTO_PIDFILE" || echo '?') is not our moto server) — removing it"
      rm -f "$MOTO_PIDFILE"
    fi
    marker_clear moto
  fi
  check_port "$MOTO_PORT" "moto server" $MOTO_PID || PREFLIGHT_FAIL=1
}

# ============================================================ configuration
kafka_configure() {
  mkdir -p "$KAFKA_DATA"
  local changed=0
  write_if_changed "$KAFKA_PROPS" <<EOF && changed=1
# Generated by deploy/local/stack.sh — edits are overwritten on the next run.
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=$BIND_HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$BIND_HOST:$KAFKA_PORT,CONTROLLER://$BIND_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$BIND_HOST:$KAFKA_PORT,CONTROLLER://$BIND_HOST:$KAFKA_CONTROLLER_PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$KAFKA_DATA
auto.create.topics.enable=false
num.partitions=6
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
EOF
  # Without -Dlog4j2.configurationFile Kafka 4.x logs nothing at all (log4j2's
  # default config is ERROR-to-console), so we always pass this file.
  write_if_changed "$KAFKA_LOG4J" <<'EOF' && changed=1
# Generated by deploy/local/stack.sh.  kafka.logs.dir is set on the java command line.
status = warn
name = hub-local-kafka
appender.file.type = RollingFile
appender.file.name = FILE
appender.file.fileName = ${sys:kafka.logs.dir}/broker.log
appender.file.filePattern = ${sys:kafka.logs.dir}/broker.log.%i
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
appender.file.policies.type = Policies
appender.file.policies.size.type = SizeBasedTriggeringPolicy
appender.file.policies.size.size = 50MB
appender.file.strategy.type = DefaultRolloverStrategy
appender.file.strategy.max = 3
rootLogger.level = WARN
rootLogger.appenderRef.file.ref = FILE
# lifecycle messages ("Kafka Server started", shutdown) are INFO in kafka.server
logger.server.name = kafka.server
logger.server.level = INFO
EOF
  KAFKA_CONFIG_CHANGED=$changed
}

pg_as() {  # run a PostgreSQL tool as the postgres OS user (initdb refuses root)
  if [ "$(id -u)" = 0 ]; then
    (cd "$PG_DIR" && runuser -u "$PG_OS_USER" -- "$@")
  else
    (cd "$PG_DIR" && "$@")
  fi
}

pg_ensure_traversable() {
  # The postgres user must be able to reach .local/pg through every parent.
  [ "$(id -u)" = 0 ] || return 0
  local d
  d=$(dirname "$PG_DIR")
  while :; do
    if ! runuser -u "$PG_OS_USER" -- test -x "$d"; then
      chmod o+x "$d"
      log "postgres: granted o+x (traverse only) on $d so the $PG_OS_USER user can reach $(rel "$PG_DIR")"
    fi
    [ "$d" = / ] && break
    d=$(dirname "$d")
  done
  runuser -u "$PG_OS_USER" -- test -r "$PG_DIR" -a -w "$PG_DIR" -a -x "$PG_DIR" ||
    die "the $PG_OS_USER user cannot access $PG_DIR"
}

pg_configure() {
  mkdir -p "$PG_DIR" "$PG_RUN"
  if [ "$(id -u)" = 0 ]; then chown "$PG_OS_USER:" "$PG_DIR" "$PG_RUN"; fi
  pg_ensure_traversable
  local sock="$PG_RUN/.s.PGSQL.$PG_PORT"
  [ ${#sock} -lt 108 ] || die "unix socket path too long (${#sock} > 107 chars): $sock — use a shorter HUB_LOCAL_DIR"

  if [ ! -s "$PG_DATA/PG_VERSION" ]; then
    if [ -d "$PG_DATA" ] && [ -n "$(ls -A "$PG_DATA" 2>/dev/null)" ]; then
      die "$PG_DATA exists but is not a PostgreSQL data directory; move it away and rerun"
    fi
    local t; t=$(now_ms)
    local locale_args=(--no-locale)
    if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then locale_args=(--locale=C.UTF-8); fi
    log "postgres: initdb $(rel "$PG_DATA") ..."
    if ! pg_as "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -E UTF8 "${locale_args[@]}" \
          --auth-local=peer --auth-host=scram-sha-256 >"$PG_DIR/initdb.log" 2>&1; then
      tail -n 20 "$PG_DIR/initdb.log" >&2
      die "initdb failed (log: $(rel "$PG_DIR/initdb.log"))"
    fi
    log "postgres: initdb done ($(elapsed "$t"))"
  fi
  if ! grep -q "^include_if_exists = 'hub-local.conf'" "$PG_DATA/postgresql.conf"; then
    printf "\n# Added by deploy/local/stack.sh\ninclude_if_exists = 'hub-local.conf'\n" >>"$PG_DATA/postgresql.conf"
  fi
  PG_CONFIG_CHANGED=0
  write_if_changed "$PG_DATA/hub-local.conf" <<EOF && PG_CONFIG_CHANGED=1
# Generated by deploy/local/stack.sh — edits are overwritten on the next run.
listen_addresses = '$BIND_HOST'
port = $PG_PORT
unix_socket_directories = '$PG_RUN'
max_connections = 200
# Statement statistics (what each statement costs per delivery: bench/sustained.py reads them).
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = top
EOF
  if [ "$(id -u)" = 0 ]; then chown "$PG_OS_USER:" "$PG_DATA/hub-local.conf"; fi
}

rmq_configure() {
  mkdir -p "$RMQ_DIR/home" "$RMQ_DIR/mnesia" "$RMQ_DIR/log"
  chmod 700 "$RMQ_DIR/home"   # holds the Erlang cookie
  local changed=0
  write_if_changed "$RMQ_DIR/rabbitmq.conf" <<'EOF' && changed=1
# Generated by deploy/local/stack.sh.  Listener address/port come from
# RABBITMQ_NODE_IP_ADDRESS / RABBITMQ_NODE_PORT set by the script.
log.console = false
log.file.level = info
disk_free_limit.absolute = 50MB
EOF
  write_if_changed "$RMQ_DIR/enabled_plugins" <<<'[].' && changed=1
  write_if_changed "$RMQ_DIR/advanced.config" <<<'[].' && changed=1
  write_if_changed "$RMQ_DIR/rabbitmq-env.conf" <<<'# Intentionally empty: stack.sh sets the environment (keeps the system /etc/rabbitmq/rabbitmq-env.conf out).' && changed=1
  RMQ_CONFIG_CHANGED=$changed
}

# =================================================================== start
kafka_start() {
  if [ ! -f "$KAFKA_DATA/meta.properties" ]; then
    local cid
    cid=$("$JAVA" -cp "$KAFKA_LIBS/*" kafka.tools.StorageTool random-uuid)
    log "kafka: formatting storage in $(rel "$KAFKA_DATA") (cluster id $cid)"
    if ! "$JAVA" -cp "$KAFKA_LIBS/*" kafka.tools.StorageTool format --standalone \
          -t "$cid" -c "$KAFKA_PROPS" >"$KAFKA_DIR/format.log" 2>&1; then
      cat "$KAFKA_DIR/format.log" >&2
      die "kafka storage format failed"
    fi
  fi
  log "kafka: starting broker+controller (KRaft) on $BIND_HOST:$KAFKA_PORT"
  # shellcheck disable=SC2086
  (cd "$KAFKA_DIR" && exec setsid nohup "$JAVA" $KAFKA_HEAP -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
      -Djava.awt.headless=true -Dkafka.logs.dir="$KAFKA_DIR" \
      -Dlog4j2.configurationFile="$KAFKA_LOG4J" \
      -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_PROPS" >>"$KAFKA_DIR/kafka.out" 2>&1 </dev/null) &
  KAFKA_PID=$!
  echo "$KAFKA_PID" >"$KAFKA_PIDFILE"
  marker_set kafka "$KAFKA_PID"
}

pg_start() {
  rm -f "$PG_RUN/.s.PGSQL.$PG_PORT.lock" "$PG_RUN/.s.PGSQL.$PG_PORT"
  log "postgres: starting on $BIND_HOST:$PG_PORT"
  if ! pg_as "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t "$TIMEOUT" -s start; then
    tail -n 20 "$PG_LOG" >&2 || true
    die "postgres failed to start (log: $(rel "$PG_LOG"))"
  fi
  PG_PID=$(pg_running_pid) || die "postgres started but no postmaster found for $(rel "$PG_DATA")"
  marker_set postgres "$PG_PID"
}

rmq_start() {
  log "rabbitmq: starting node $RMQ_NODE on $BIND_HOST:$RMQ_PORT"
  (cd "$RMQ_DIR" && exec env "${RMQ_ENV[@]}" setsid nohup "$RMQ_SBIN/rabbitmq-server" \
      >>"$RMQ_DIR/log/startup.log" 2>&1 </dev/null) &
  RMQ_WRAPPER_PID=$!
  echo "$RMQ_WRAPPER_PID" >"$RMQ_WRAPPER_PIDFILE"
  marker_set rabbitmq "$RMQ_WRAPPER_PID"   # replaced by the beam pid once the node is up
}

moto_start() {
  mkdir -p "$MOTO_DIR"
  log "moto: starting on $BIND_HOST:$MOTO_PORT"
  (cd "$MOTO_DIR" && exec setsid nohup "$MOTO_BIN" -H "$BIND_HOST" -p "$MOTO_PORT" \
      >>"$MOTO_LOG" 2>&1 </dev/null) &
  MOTO_PID=$!
  echo "$MOTO_PID" >"$MOTO_PIDFILE"
  marker_set moto "$MOTO_PID"
}

# ================================================================== waiting
FAILED=()

probe() {  # probe <service> <timeout> [pid]
  local args=("$1" --timeout "$2")
  [ -n "${3:-}" ] && args+=(--pid "$3")
  "$VENV_PY" "$WAIT_READY" "${args[@]}" | sed 's/^/[stack] /'
}

quick_probe() {  # one attempt, output printed only on success
  local out
  out=$("$VENV_PY" "$WAIT_READY" "$1" 2>/dev/null) || return 1
  printf '[stack] %s\n' "$out"
}

service_failed() {  # service_failed <name> <logfile>
  FAILED+=("$1")
  if [ -f "$2" ]; then
    err "$1: last lines of $(rel "$2"):"
    tail -n 15 "$2" | sed 's/^/    /' >&2
  fi
}

pg_psql() {
  pg_as "$PG_BIN/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h "$PG_RUN" -p "$PG_PORT" -U postgres -d postgres "$@"
}

pg_provision() {
  if [ "$(pg_psql -c "select 1 from pg_roles where rolname = 'hub'")" != 1 ]; then
    pg_psql -c "create role hub login createdb password 'hub'"
    log "postgres: created role hub"
  fi
  if [ "$(pg_psql -c "select 1 from pg_database where datname = 'hub'")" != 1 ]; then
    pg_psql -c "create database hub owner hub"
    log "postgres: created database hub"
  fi
  pg_extensions
}

pg_extensions() {
  # In template1 too, so every database created later (tests', benches') has the view.
  local db
  for db in template1 hub; do
    pg_psql -d "$db" -c "create extension if not exists pg_stat_statements" 2>/dev/null ||
      warn "postgres: pg_stat_statements is not loaded in $db (restart: stack-down.sh && stack.sh)"
  done
}

pg_finish() {
  local t; t=$(now_ms)
  if [ "$PG_ACTION" = running ]; then
    log "postgres: already running (pid $PG_PID)"
    if quick_probe postgres; then pg_extensions; return 0; fi
  fi
  if ! pg_provision; then service_failed postgres "$PG_LOG"; return 0; fi
  if probe postgres "$TIMEOUT" "$PG_PID"; then
    [ "$PG_ACTION" = start ] && log "postgres: up in $(elapsed "$t")"
  else
    service_failed postgres "$PG_LOG"
  fi
  return 0
}

rmq_provision() {
  # Each rabbitmqctl call boots a small Erlang VM (~0.5 s), so keep them few.
  local users perms
  users=$(rmqctl -s list_users) || return 1
  if ! awk '{print $1}' <<<"$users" | grep -qx hub; then
    rmqctl -s add_user hub hub >/dev/null
    rmqctl -s set_user_tags hub administrator >/dev/null
    rmqctl -s set_permissions -p / hub '.*' '.*' '.*' >/dev/null
    log "rabbitmq: created user hub (administrator, full permissions on vhost /)"
    return 0
  fi
  if ! grep -E '^hub[[:space:]]' <<<"$users" | grep -q administrator; then
    rmqctl -s set_user_tags hub administrator >/dev/null
    log "rabbitmq: tagged user hub as administrator"
  fi
  perms=$(rmqctl -s list_user_permissions hub 2>/dev/null || true)
  if ! grep -qE '^/[[:space:]]+\.\*[[:space:]]+\.\*[[:space:]]+\.\*$' <<<"$perms"; then
    rmqctl -s set_permissions -p / hub '.*' '.*' '.*' >/dev/null
    log "rabbitmq: granted hub full permissions on vhost /"
  fi
}

rmq_finish() {
  local t="$T_START"
  if [ "$RMQ_ACTION" = running ]; then
    log "rabbitmq: already running (pid $RMQ_PID)"
    if quick_probe rabbitmq; then return 0; fi
  else
    # The broker writes its pid file early; `wait` then blocks until the app is up.
    if ! timeout "$((TIMEOUT + 5))" env "${RMQ_ENV[@]}" "$RMQ_SBIN/rabbitmqctl" -n "$RMQ_NODE" -q \
          wait --timeout "$TIMEOUT" "$RMQ_PIDFILE" >/dev/null 2>&1; then
      err "rabbitmq: node $RMQ_NODE did not come up within ${TIMEOUT}s"
      local p; p=$(read_pidfile "$RMQ_PIDFILE" || true)
      [ -n "$p" ] && marker_set rabbitmq "$p"
      service_failed rabbitmq "$RMQ_DIR/log/startup.log"
      [ -f "$RMQ_DIR/log/$RMQ_NODE.log" ] && tail -n 15 "$RMQ_DIR/log/$RMQ_NODE.log" | sed 's/^/    /' >&2
      return 0
    fi
    RMQ_PID=$(rmq_running_pid) || { service_failed rabbitmq "$RMQ_DIR/log/startup.log"; return 0; }
    marker_set rabbitmq "$RMQ_PID"
    if [ "$EPMD_WAS_RUNNING" = 0 ]; then
      local e
      for e in $(port_pids "$EPMD_PORT"); do
        [ "$(proc_comm "$e")" = epmd ] && marker_set epmd "$e"
      done
    fi
  fi
  if ! rmq_provision; then service_failed rabbitmq "$RMQ_DIR/log/$RMQ_NODE.log"; return 0; fi
  if probe rabbitmq 30 "$RMQ_PID"; then
    [ "$RMQ_ACTION" = start ] && log "rabbitmq: up in $(elapsed "$t")"
  else
    service_failed rabbitmq "$RMQ_DIR/log/$RMQ_NODE.log"
  fi
  return 0
}

kafka_finish() {
  local t="$T_START"
  [ "$KAFKA_ACTION" = running ] && log "kafka: already running (pid $KAFKA_PID)"
  if probe kafka "$TIMEOUT" "$KAFKA_PID"; then
    [ "$KAFKA_ACTION" = start ] && log "kafka: up in $(elapsed "$t")"
    # sanity: the process we recorded is the one listening
    check_port "$KAFKA_PORT" "kafka broker" "$KAFKA_PID" || FAILED+=(kafka)
  else
    service_failed kafka "$KAFKA_DIR/broker.log"
    [ -s "$KAFKA_DIR/kafka.out" ] && tail -n 10 "$KAFKA_DIR/kafka.out" | sed 's/^/    /' >&2
  fi
  return 0
}

moto_finish() {
  local t="$T_START"
  [ "$MOTO_ACTION" = running ] && log "moto: already running (pid $MOTO_PID)"
  if probe moto "$TIMEOUT" "$MOTO_PID"; then
    [ "$MOTO_ACTION" = start ] && log "moto: up in $(elapsed "$t")"
  else
    service_failed moto "$MOTO_LOG"
  fi
  return 0
}

# Delegated-grant onboarding works out of the box: a development principal of moto's default account,
# and the delivery-role template served from a moto S3 bucket (the quick-create link's templateURL).
DEV_PRINCIPAL_ARN="arn:aws:iam::123456789012:role/streaming-hub-local"
DEV_TEMPLATE_BUCKET="streaming-hub-local"
dev_template_url() { echo "http://$BIND_HOST:$MOTO_PORT/$DEV_TEMPLATE_BUCKET/delivery-role.yaml"; }

publish_dev_template() {
  "$VENV_PY" - "$REPO_ROOT/deploy/aws/delivery-role.yaml" "$DEV_TEMPLATE_BUCKET" "$(dev_template_url)" <<'PY' ||
import contextlib, sys, boto3
path, bucket, url = sys.argv[1:4]
s3 = boto3.client("s3", region_name="us-east-1", endpoint_url=url.rsplit("/", 2)[0],
                  aws_access_key_id="testing", aws_secret_access_key="testing")
with contextlib.suppress(s3.exceptions.BucketAlreadyOwnedByYou, s3.exceptions.BucketAlreadyExists):
    s3.create_bucket(Bucket=bucket)
with open(path, "rb") as template:
    s3.put_object(Bucket=bucket, Key="delivery-role.yaml", Body=template.read(), ACL="public-read")
PY
    warn "moto: could not publish the delivery-role template (setup artifacts still render)"
  return 0
}

write_env_file() {
  local pg_url="postgresql+psycopg://hub:hub@$BIND_HOST:$PG_PORT/hub"
  local changed=0
  write_if_changed "$ENV_FILE" <<EOF && changed=1
HUB_DATABASE_URL=$pg_url
HUB_KAFKA_BOOTSTRAP=$BIND_HOST:$KAFKA_PORT
HUB_RABBITMQ_URL=amqp://hub:hub@$BIND_HOST:$RMQ_PORT/%2F
HUB_AWS_ENDPOINT_URL=http://$BIND_HOST:$MOTO_PORT
HUB_AWS_REGION=us-east-1
HUB_AWS_HUB_PRINCIPAL_ARN=$DEV_PRINCIPAL_ARN
HUB_AWS_SETUP_TEMPLATE_URL=$(dev_template_url)
EOF
  [ "$changed" = 1 ] && log "wrote $(rel "$ENV_FILE")"
  return 0
}

# ==================================================================== main
main() {
  mkdir -p "$LOCAL_DIR" "$MARKER_DIR" "$KAFKA_DIR" "$RMQ_DIR" "$MOTO_DIR"
  ensure_prerequisites

  # The probes read these (same values as .local/env).
  export HUB_DATABASE_URL="postgresql+psycopg://hub:hub@$BIND_HOST:$PG_PORT/hub"
  export HUB_KAFKA_BOOTSTRAP="$BIND_HOST:$KAFKA_PORT"
  export HUB_RABBITMQ_URL="amqp://hub:hub@$BIND_HOST:$RMQ_PORT/%2F"
  export HUB_AWS_ENDPOINT_URL="http://$BIND_HOST:$MOTO_PORT"
  export HUB_AWS_REGION=us-east-1

  kafka_preflight
  pg_preflight
  rmq_preflight
  moto_preflight
  if [ "$PREFLIGHT_FAIL" != 0 ]; then
    die "refusing to start: free the port(s) above or override them (HUB_*_PORT); nothing was started"
  fi

  kafka_configure
  pg_configure
  rmq_configure
  [ "$KAFKA_ACTION" = running ] && [ "$KAFKA_CONFIG_CHANGED" = 1 ] &&
    warn "kafka config changed while running; restart (stack-down.sh && stack.sh) to apply"
  [ "$PG_ACTION" = running ] && [ "$PG_CONFIG_CHANGED" = 1 ] &&
    warn "postgres config changed while running; restart (stack-down.sh && stack.sh) to apply"
  # A package upgrade (Debian's postgresql-15, e.g. pulled in by the Citus build's server headers) replaces the
  # binary and the libraries under a running server, which then cannot load a library it had not loaded yet.
  [ "$PG_ACTION" = running ] && [[ "$(readlink "/proc/$PG_PID/exe" 2>/dev/null)" == *"(deleted)" ]] &&
    warn "postgres was upgraded while running; restart (stack-down.sh && stack.sh) before using it"
  [ "$RMQ_ACTION" = running ] && [ "$RMQ_CONFIG_CHANGED" = 1 ] &&
    warn "rabbitmq config changed while running; restart (stack-down.sh && stack.sh) to apply"

  # Start the slow JVM/BEAM services first so they boot while postgres initialises.
  T_START=$(now_ms)
  [ "$KAFKA_ACTION" = start ] && kafka_start
  [ "$RMQ_ACTION" = start ] && rmq_start
  [ "$MOTO_ACTION" = start ] && moto_start
  [ "$PG_ACTION" = start ] && pg_start

  pg_finish
  moto_finish
  publish_dev_template
  rmq_finish
  kafka_finish

  write_env_file

  if [ ${#FAILED[@]} -gt 0 ]; then
    die "not ready: ${FAILED[*]} (logs under $(rel "$LOCAL_DIR")/); stop what did start with deploy/local/stack-down.sh"
  fi

  cat <<EOF
[stack] all services ready ($(elapsed "$T0"))
  kafka     $BIND_HOST:$KAFKA_PORT (KRaft controller $BIND_HOST:$KAFKA_CONTROLLER_PORT)   log: $(rel "$KAFKA_DIR/broker.log")
  postgres  postgresql://hub:hub@$BIND_HOST:$PG_PORT/hub   log: $(rel "$PG_LOG")
  rabbitmq  amqp://hub:hub@$BIND_HOST:$RMQ_PORT/%2F (node $RMQ_NODE)   log: $(rel "$RMQ_DIR/log")/
  moto      http://$BIND_HOST:$MOTO_PORT (region us-east-1)   log: $(rel "$MOTO_LOG")
  env file  $(rel "$ENV_FILE")
EOF
}

main "$@"
