# Shared settings and helpers for deploy/local/stack.sh and stack-down.sh.
# Sourced, not executed.  Expects REPO_ROOT to be set by the caller.

# ---------------------------------------------------------------- locations
LOCAL_DIR="${HUB_LOCAL_DIR:-.local}"
case "$LOCAL_DIR" in
  /*) ;;
  *) LOCAL_DIR="$REPO_ROOT/$LOCAL_DIR" ;;   # relative paths are relative to the repo root
esac
LOCAL_DIR="${LOCAL_DIR%/}"
# The real path: a worktree's .local may be a symlink to another checkout's, and the running services are
# recognised by the paths in their command lines, which name the real directory.
[ -e "$LOCAL_DIR" ] && LOCAL_DIR="$(readlink -f "$LOCAL_DIR")"

VENV_DIR="$REPO_ROOT/.venv"
VENV_PY="$VENV_DIR/bin/python"
MOTO_BIN="$VENV_DIR/bin/moto_server"
WAIT_READY="$REPO_ROOT/deploy/local/wait_ready.py"

MARKER_DIR="$LOCAL_DIR/started-by-us"   # one file per service we started; content = pid
ENV_FILE="$LOCAL_DIR/env"

# -------------------------------------------------------------------- ports
BIND_HOST=127.0.0.1
KAFKA_PORT="${HUB_KAFKA_PORT:-59092}"
KAFKA_CONTROLLER_PORT="${HUB_KAFKA_CONTROLLER_PORT:-59093}"
PG_PORT="${HUB_PG_PORT:-55432}"
RMQ_PORT="${HUB_RABBITMQ_PORT:-55672}"
RMQ_DIST_PORT="${HUB_RABBITMQ_DIST_PORT:-55674}"
RMQ_CTL_DIST_PORT_MIN="${HUB_RABBITMQ_CTL_DIST_PORT_MIN:-55680}"
EPMD_PORT="${HUB_EPMD_PORT:-54369}"
MOTO_PORT="${HUB_MOTO_PORT:-55000}"

# -------------------------------------------------------------------- kafka
KAFKA_DIR="$LOCAL_DIR/kafka"
KAFKA_LIBS="$KAFKA_DIR/libs"
KAFKA_DATA="$KAFKA_DIR/data"
KAFKA_PROPS="$KAFKA_DIR/server.properties"
KAFKA_LOG4J="$KAFKA_DIR/log4j2.properties"
KAFKA_PIDFILE="$KAFKA_DIR/kafka.pid"
KAFKA_HEAP="${HUB_KAFKA_HEAP:--Xms256m -Xmx768m}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# --------------------------------------------------------------- postgresql
PG_DIR="$LOCAL_DIR/pg"
PG_DATA="$PG_DIR/data"
PG_RUN="$PG_DIR/run"              # unix socket directory
PG_LOG="$PG_DIR/postgres.log"
PG_OS_USER=postgres

pg_find_bindir() {
  # Prints the newest PostgreSQL server bin dir (Debian layout), or the dir of
  # an initdb found on PATH.  HUB_PG_BINDIR overrides.
  if [ -n "${HUB_PG_BINDIR:-}" ]; then echo "$HUB_PG_BINDIR"; return 0; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return 0; fi
  d=$(command -v initdb 2>/dev/null || true)
  if [ -n "$d" ]; then dirname "$d"; return 0; fi
  return 1
}

# ----------------------------------------------------------------- rabbitmq
RMQ_DIR="$LOCAL_DIR/rabbitmq"
RMQ_NODE="${HUB_RABBITMQ_NODENAME:-hub-local@localhost}"
RMQ_PIDFILE="$RMQ_DIR/rabbitmq.pid"       # written by the broker itself (beam pid)
RMQ_WRAPPER_PIDFILE="$RMQ_DIR/server-wrapper.pid"

rmq_find_sbindir() {
  # Debian's /usr/sbin/rabbitmq-* wrappers `su rabbitmq` (which resets HOME and
  # thus the Erlang cookie location), so prefer the real scripts.
  if [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]; then echo /usr/lib/rabbitmq/bin; return 0; fi
  local s
  s=$(command -v rabbitmq-server 2>/dev/null || true)
  if [ -n "$s" ]; then dirname "$s"; return 0; fi
  return 1
}

# Environment for every rabbitmq-server / rabbitmqctl / epmd invocation.
RMQ_ENV=(
  "HOME=$RMQ_DIR/home"
  "RABBITMQ_NODENAME=$RMQ_NODE"
  "RABBITMQ_NODE_IP_ADDRESS=$BIND_HOST"
  "RABBITMQ_NODE_PORT=$RMQ_PORT"
  "RABBITMQ_DIST_PORT=$RMQ_DIST_PORT"
  "RABBITMQ_CTL_DIST_PORT_MIN=$RMQ_CTL_DIST_PORT_MIN"
  "RABBITMQ_CTL_DIST_PORT_MAX=$((RMQ_CTL_DIST_PORT_MIN + 10))"
  "ERL_EPMD_PORT=$EPMD_PORT"
  "ERL_EPMD_ADDRESS=$BIND_HOST"
  "RABBITMQ_MNESIA_BASE=$RMQ_DIR/mnesia"
  "RABBITMQ_LOG_BASE=$RMQ_DIR/log"
  "RABBITMQ_CONFIG_FILE=$RMQ_DIR/rabbitmq.conf"
  "RABBITMQ_ADVANCED_CONFIG_FILE=$RMQ_DIR/advanced.config"
  "RABBITMQ_ENABLED_PLUGINS_FILE=$RMQ_DIR/enabled_plugins"
  "RABBITMQ_CONF_ENV_FILE=$RMQ_DIR/rabbitmq-env.conf"
  "RABBITMQ_PID_FILE=$RMQ_PIDFILE"
  "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-kernel inet_dist_use_interface {127,0,0,1}"
  "ERL_CRASH_DUMP=$RMQ_DIR/log/erl_crash.dump"
)

rmq_run() {  # rmq_run <tool> args...   (tool = rabbitmqctl, rabbitmq-server, ...)
  local tool="$1"; shift
  env "${RMQ_ENV[@]}" "$RMQ_SBIN/$tool" "$@"
}

rmqctl() { rmq_run rabbitmqctl -n "$RMQ_NODE" "$@"; }

# --------------------------------------------------------------------- moto
MOTO_DIR="$LOCAL_DIR/moto"
MOTO_PIDFILE="$MOTO_DIR/moto.pid"
MOTO_LOG="$MOTO_DIR/moto.log"

# ------------------------------------------------------------------ helpers
log()  { printf '[stack] %s\n' "$*"; }
warn() { printf '[stack] WARNING: %s\n' "$*" >&2; }
err()  { printf '[stack] ERROR: %s\n' "$*" >&2; }
die()  { err "$*"; exit 1; }

now_ms() { date +%s%3N; }
elapsed() { awk -v a="$1" -v b="$(now_ms)" 'BEGIN { printf "%.1fs", (b - a) / 1000 }'; }

read_pidfile() {  # prints the first line of a pid file if it is a number
  local f="$1" p
  [ -f "$f" ] || return 1
  p=$(head -n 1 "$f" 2>/dev/null | tr -dc '0-9')
  [ -n "$p" ] || return 1
  echo "$p"
}

pid_alive() {
  local p="${1:-}"
  [ -n "$p" ] || return 1
  kill -0 "$p" 2>/dev/null || return 1
  # zombies count as dead
  local st
  st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null | head -n1 || true)
  [ "$st" != "Z" ]
}

proc_comm()    { cat "/proc/$1/comm" 2>/dev/null || true; }
proc_cmdline() { tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null | sed 's/ $//' || true; }
proc_desc()    { echo "pid $1 [$(proc_comm "$1")] $(proc_cmdline "$1" | cut -c1-400)"; }

port_pids() {  # pids of processes listening on a TCP port (any address)
  ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u || true
}

port_in_use() {
  [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
}

# check_port <port> <label> <allowed pids...>
# Fails (returns 1, prints an error) if something other than the allowed pids
# listens on the port.
check_port() {
  local port="$1" label="$2"; shift 2
  port_in_use "$port" || return 0
  local pids p ok bad=()
  pids=$(port_pids "$port")
  if [ -z "$pids" ]; then
    err "port $port ($label) is in use by a process stack.sh cannot identify (try: ss -ltnp 'sport = :$port')"
    return 1
  fi
  for p in $pids; do
    ok=0
    for a in "$@"; do [ "$p" = "$a" ] && ok=1; done
    [ $ok = 1 ] || bad+=("$p")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    for p in "${bad[@]}"; do
      err "port $port ($label) is already in use by a process not managed by stack.sh: $(proc_desc "$p")"
    done
    return 1
  fi
  return 0
}

marker_set()   { mkdir -p "$MARKER_DIR"; echo "$2" > "$MARKER_DIR/$1"; }
marker_get()   { read_pidfile "$MARKER_DIR/$1"; }
marker_has()   { [ -f "$MARKER_DIR/$1" ]; }
marker_clear() { rm -f "$MARKER_DIR/$1"; }

# write_if_changed <file>  (content on stdin). Returns 0 if the file changed.
write_if_changed() {
  local f="$1" tmp
  tmp=$(mktemp "${f}.XXXXXX")
  cat > "$tmp"
  if [ -f "$f" ] && cmp -s "$tmp" "$f"; then
    rm -f "$tmp"; return 1
  fi
  chmod 0644 "$tmp"
  mv -f "$tmp" "$f"
  return 0
}

# ------------------------------------------------- "is this our process?"
kafka_pid_ok() {   # pid is our Kafka broker
  local p="$1"
  pid_alive "$p" || return 1
  local c; c=$(proc_cmdline "$p")
  [[ "$c" == *kafka.Kafka* && "$c" == *"$KAFKA_PROPS"* ]]
}

pg_pid_ok() {      # pid is a postmaster serving our data dir
  local p="$1"
  pid_alive "$p" || return 1
  [ "$(proc_comm "$p")" = postgres ] || return 1
  [ "$(readlink -f "/proc/$p/cwd" 2>/dev/null)" = "$(readlink -f "$PG_DATA")" ]
}

rmq_pid_ok() {     # pid is the beam of our RabbitMQ node
  local p="$1"
  pid_alive "$p" || return 1
  [[ "$(proc_comm "$p")" == beam* ]] || return 1
  local c; c=$(proc_cmdline "$p")
  # node name and dirs travel via the environment; HOME shows up as "-home <dir>"
  [[ "$c" == *"-home $RMQ_DIR/home "* ]]
}

moto_pid_ok() {
  local p="$1"
  pid_alive "$p" || return 1
  local c; c=$(proc_cmdline "$p")
  [[ "$c" == *moto_server* && "$c" == *"-p $MOTO_PORT"* ]]
}

kafka_running_pid() { local p; p=$(read_pidfile "$KAFKA_PIDFILE") && kafka_pid_ok "$p" && echo "$p"; }
pg_running_pid()    { local p; p=$(read_pidfile "$PG_DATA/postmaster.pid") && pg_pid_ok "$p" && echo "$p"; }
rmq_running_pid()   { local p; p=$(read_pidfile "$RMQ_PIDFILE") && rmq_pid_ok "$p" && echo "$p"; }
moto_running_pid()  { local p; p=$(read_pidfile "$MOTO_PIDFILE") && moto_pid_ok "$p" && echo "$p"; }

# stop_pid <pid> <label> <timeout-seconds>: TERM, wait, then KILL.
stop_pid() {
  local p="$1" label="$2" t="${3:-30}" i
  kill -TERM "$p" 2>/dev/null || return 0
  for ((i = 0; i < t * 5; i++)); do
    pid_alive "$p" || return 0
    sleep 0.2
  done
  warn "$label (pid $p) did not exit within ${t}s after SIGTERM; sending SIGKILL"
  kill -KILL "$p" 2>/dev/null || true
  sleep 0.5
}
