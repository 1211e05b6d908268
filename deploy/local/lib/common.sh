# shellcheck shell=bash disable=SC2034 # variables used by the scripts that source this file
# Sourced by every deploy/local command: settings, the state directory, processes (pid files,
# start, stop, health checks), ports, and the artifacts resolved from Maven Central.
#
# Exit codes of the commands: 0 done, 1 something failed (a process did not come up, a REST call
# failed), 2 usage or environment problem (bad argument, java/mvn/curl missing, port taken).
set -euo pipefail

TFL_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" # deploy/local
TFL_ROOT="$(cd "$TFL_HOME/../.." && pwd)"                   # the repository
TFL_CMD="deploy/local/$(basename "$0")"

# The settings a cluster is started with: recorded in <state>/cluster.env by `up`, so that every
# later command (from any shell) talks to the same ports. Defaults are ports rarely in use.
TFL_SETTINGS=(
  TFSTREAM_KAFKA_PORT TFSTREAM_KAFKA_CONTROLLER_PORT TFSTREAM_S3_PORT
  TFSTREAM_FLINK_REST_PORT TFSTREAM_FLINK_RPC_PORT TFSTREAM_S3_BUCKET
  TFSTREAM_TASKMANAGERS TFSTREAM_TM_SLOTS TFSTREAM_TM_MEMORY TFSTREAM_JM_MEMORY
  TFSTREAM_METRICS_PORT TFSTREAM_FLINK_LINE TFSTREAM_HA TFSTREAM_ZOOKEEPER_PORT
)
tfl_default() {
  case "$1" in
    TFSTREAM_KAFKA_PORT) echo 29092 ;;
    TFSTREAM_KAFKA_CONTROLLER_PORT) echo 29093 ;;
    TFSTREAM_S3_PORT) echo 29000 ;;
    TFSTREAM_FLINK_REST_PORT) echo 28081 ;;
    TFSTREAM_FLINK_RPC_PORT) echo 26123 ;;
    TFSTREAM_S3_BUCKET) echo tfstream ;;
    TFSTREAM_TASKMANAGERS) echo 2 ;;
    TFSTREAM_TM_SLOTS) echo 2 ;;
    TFSTREAM_TM_MEMORY) echo 2048m ;;
    TFSTREAM_JM_MEMORY) echo 1024m ;;
    # The JobManager's Prometheus endpoint; TaskManagers take the next free ports (flink.sh).
    TFSTREAM_METRICS_PORT) echo 29249 ;;
    # The Flink line of the cluster and the job jar (docs/operations.md#flink-versions).
    TFSTREAM_FLINK_LINE) echo 2.2 ;;
    # JobManager high availability: zookeeper (a ZooKeeper process, HA data on S3Proxy) or none.
    TFSTREAM_HA) echo zookeeper ;;
    TFSTREAM_ZOOKEEPER_PORT) echo 29181 ;;
    *) return 1 ;;
  esac
}

tfl_info() { printf '%s\n' "$*" >&2; }
tfl_die() { # code message...
  local code=$1
  shift
  printf '%s: %s\n' "$TFL_CMD" "$*" >&2
  exit "$code"
}

# --- state directory ---------------------------------------------------------------------------

tfl_absolute() { # a directory path, created, printed absolute
  mkdir -p "$1"
  (cd "$1" && pwd)
}

TFL_STATE="$(tfl_absolute "${TFSTREAM_LOCAL_DIR:-$TFL_HOME/.state}")"
TFL_CACHE="$(tfl_absolute "${TFSTREAM_LOCAL_CACHE:-$TFL_HOME/.cache}")"
TFL_LOGS="$TFL_STATE/logs"
TFL_PIDS="$TFL_STATE/pids"
TFL_CONF="$TFL_STATE/flink/conf"
TFL_S3_DIR="$TFL_STATE/s3"
TFL_KAFKA_DIR="$TFL_STATE/kafka"
mkdir -p "$TFL_LOGS" "$TFL_PIDS"

# S3Proxy's keys: random, made for this state directory when it has none (at its first `up`), kept
# in <state>/s3-keys (owner only) until `down --purge`, since `up` keeps what already runs. Keys
# written in the sources would open the local bucket to everyone on a shared host.
tfl_s3_keys() {
  local f="$TFL_STATE/s3-keys"
  if [[ ! -s $f ]]; then
    (
      umask 077
      printf 'TFL_S3_ACCESS_KEY=tfstream-local-%s\nTFL_S3_SECRET_KEY=%s\n' \
        "$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')" \
        "$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')" >"$f.tmp"
      mv "$f.tmp" "$f"
    )
  fi
  # shellcheck source=/dev/null
  source "$f"
}
tfl_s3_keys

# Serialises commands that start or stop processes on one state directory. Started processes
# close the lock's file descriptor (tfl_spawn), so it is released when the command ends.
tfl_lock() {
  exec 9>"$TFL_STATE/.lock"
  if command -v flock >/dev/null 2>&1; then
    flock -w 600 9 || tfl_die 1 "another deploy/local command on $TFL_STATE did not finish in 10 minutes"
  fi
}

# --- settings ------------------------------------------------------------------------------------

# Loads the settings: those recorded by `up` when there are any, else the environment and the
# defaults. With "fresh", the environment and defaults win unless a process of this state
# directory is running (then the recorded ones stay, and differing variables are reported).
tfl_load_settings() {
  local mode=${1:-recorded} recorded="$TFL_STATE/cluster.env" k v
  local use_recorded=false
  if [ -f "$recorded" ]; then
    if [ "$mode" = recorded ] || tfl_any_running; then use_recorded=true; fi
  fi
  if $use_recorded; then
    while IFS='=' read -r k v; do
      [ -n "$k" ] || continue
      if [ "$mode" = fresh ] && [ "$k" != TFSTREAM_TASKMANAGERS ] &&
        [ -n "${!k:-}" ] && [ "${!k}" != "$v" ]; then
        tfl_info "note: $k=${!k} ignored: the running cluster in $TFL_STATE has $k=$v (run deploy/local/down first to change it)"
      fi
      printf -v "$k" '%s' "$v"
    done <"$recorded"
  fi
  for k in "${TFL_SETTINGS[@]}"; do
    if [ -z "${!k:-}" ]; then printf -v "$k" '%s' "$(tfl_default "$k")"; fi
    export "${k?}"
  done
  for k in TFSTREAM_KAFKA_PORT TFSTREAM_KAFKA_CONTROLLER_PORT TFSTREAM_S3_PORT \
    TFSTREAM_FLINK_REST_PORT TFSTREAM_FLINK_RPC_PORT TFSTREAM_TASKMANAGERS TFSTREAM_TM_SLOTS \
    TFSTREAM_METRICS_PORT TFSTREAM_ZOOKEEPER_PORT; do
    [[ "${!k}" =~ ^[0-9]+$ ]] || tfl_die 2 "$k must be a number, got '${!k}'"
  done
  case "$TFSTREAM_HA" in
    zookeeper | none) ;;
    *) tfl_die 2 "TFSTREAM_HA must be zookeeper or none, got '$TFSTREAM_HA'" ;;
  esac
  # The line's build directory in each module and its own Flink artifacts in the cache (the
  # default line's directly in it, as before there were two).
  case "$TFSTREAM_FLINK_LINE" in
    2.2) TFL_BUILD_DIR=target TFL_FLINK_CACHE="$TFL_CACHE" ;;
    1.20) TFL_BUILD_DIR=target/flink-1.20 TFL_FLINK_CACHE="$TFL_CACHE/flink-1.20" ;;
    *) tfl_die 2 "TFSTREAM_FLINK_LINE must be 2.2 or 1.20, got '$TFSTREAM_FLINK_LINE'" ;;
  esac
  mkdir -p "$TFL_FLINK_CACHE"
  TFL_BOOTSTRAP="localhost:$TFSTREAM_KAFKA_PORT"
  TFL_S3_ENDPOINT="http://127.0.0.1:$TFSTREAM_S3_PORT"
  TFL_REST="http://localhost:$TFSTREAM_FLINK_REST_PORT"
}

tfl_record_settings() {
  local k tmp="$TFL_STATE/cluster.env.tmp"
  : >"$tmp"
  for k in "${TFL_SETTINGS[@]}"; do printf '%s=%s\n' "$k" "${!k}" >>"$tmp"; done
  mv "$tmp" "$TFL_STATE/cluster.env"
}

# --- tools ---------------------------------------------------------------------------------------

tfl_java() {
  if [ -n "${TFL_JAVA:-}" ]; then return; fi
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    TFL_JAVA="$JAVA_HOME/bin/java"
  elif command -v java >/dev/null 2>&1; then
    TFL_JAVA="$(command -v java)"
  else
    tfl_die 2 "java not found: install a JDK 17 or newer (e.g. apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"
  fi
  local version major
  version="$("$TFL_JAVA" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)"
  major="${version%%.*}"
  if [ "$major" = 1 ]; then major="$(echo "$version" | cut -d. -f2)"; fi
  if ! [[ "$major" =~ ^[0-9]+$ ]] || [ "$major" -lt 17 ]; then
    tfl_die 2 "$TFL_JAVA is Java '$version'; Flink 2 and this project need Java 17 or newer (set JAVA_HOME)"
  fi
}

tfl_need() { # command why
  command -v "$1" >/dev/null 2>&1 || tfl_die 2 "$1 not found: $2"
}

# Runs Maven quietly, its output appended to <state>/logs/maven.log (shown when it fails).
tfl_mvn() {
  tfl_need mvn "install Maven 3.8+ (e.g. apt-get install maven); it fetches the broker, Flink, S3Proxy and the job's dependencies from Maven Central"
  local log="$TFL_LOGS/maven.log"
  printf '\n=== %s: mvn %s\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$*" >>"$log"
  # shellcheck disable=SC2086 # TFSTREAM_MVN_OPTS holds several options
  if ! mvn -B -q -Dstyle.color=never -Dflink.line="${TFSTREAM_FLINK_LINE:-2.2}" ${TFSTREAM_MVN_OPTS:-} "$@" </dev/null >>"$log" 2>&1 9>&-; then
    tfl_log_tail "$log"
    tfl_die 1 "Maven failed (mvn $*); its output is in $log"
  fi
}

# The Java 17 module flags every Flink JVM needs (one definition, in the root pom).
tfl_jvm_flags() {
  if [ -z "${TFL_JVM_FLAGS:-}" ]; then TFL_JVM_FLAGS="$("$TFL_ROOT/deploy/jvm-flags.sh")"; fi
  printf '%s\n' "$TFL_JVM_FLAGS"
}

# --- artifacts from Maven Central ----------------------------------------------------------------

# Resolves one of maven/{broker,flink,s3proxy,zookeeper}/pom.xml into the cache directory, once per
# content of that pom and the root pom (which holds the versions): broker.classpath, flink.classpath
# and plugins/s3-fs-hadoop/ and plugins/metrics-prometheus/, lib/s3proxy.jar, zookeeper.classpath.
tfl_resolve() {
  local name=$1 pom="$TFL_HOME/maven/$1/pom.xml" cache="$TFL_CACHE" stamp key
  if [ "$name" = flink ]; then cache="$TFL_FLINK_CACHE"; fi
  stamp="$cache/$1.stamp"
  key="$(cat "$pom" "$TFL_ROOT/pom.xml" | cksum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && tfl_resolved "$name"; then return; fi
  (
    if command -v flock >/dev/null 2>&1; then
      exec 8>"$TFL_CACHE/.lock"
      flock -w 900 8
    fi
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && tfl_resolved "$name"; then exit 0; fi
    tfl_info "resolving the $name artifacts with Maven into $TFL_CACHE (once; the first time downloads them from Maven Central)..."
    case "$name" in
      broker | zookeeper)
        tfl_mvn -f "$pom" dependency:build-classpath -Dmdep.outputFile="$TFL_CACHE/$name.classpath" ;;
      flink)
        tfl_mvn -f "$pom" dependency:build-classpath dependency:copy \
          -Dmdep.outputFile="$cache/flink.classpath" -Dtfstream.local.plugins="$cache/plugins" ;;
      s3proxy)
        tfl_mvn -f "$pom" dependency:copy -Dtfstream.local.lib="$TFL_CACHE/lib" ;;
    esac
    tfl_resolved "$name" || tfl_die 1 "Maven did not produce the $name artifacts in $cache"
    echo "$key" >"$stamp"
  )
}

# tfstream's Prometheus reporter (the metrics/ module: Flink's reporter bound to one address) as a
# Flink plugin beside Flink's own, with the flink-metrics-prometheus jar it extends; built with
# Maven when missing or older than its sources.
tfl_metrics_plugin() {
  local dir="$TFL_FLINK_CACHE/plugins/tfstream-metrics" jar
  jar="$(tfl_metrics_jar)"
  if [ -z "$jar" ] || [ -n "$(find "$TFL_ROOT/metrics/src/main" "$TFL_ROOT/metrics/pom.xml" -newer "$jar" -print -quit)" ]; then
    tfl_info "building tfstream's metrics reporter with Maven..."
    tfl_mvn -f "$TFL_ROOT/pom.xml" -pl metrics -DskipTests -Dspotless.check.skip=true package
    jar="$(tfl_metrics_jar)"
    [ -n "$jar" ] || tfl_die 1 "Maven did not build the metrics reporter in $TFL_ROOT/metrics/$TFL_BUILD_DIR"
  fi
  mkdir -p "$dir"
  rm -f "$dir"/*.jar
  cp "$jar" "$TFL_FLINK_CACHE"/plugins/metrics-prometheus/flink-metrics-prometheus-*.jar "$dir/"
}

tfl_metrics_jar() {
  local j
  for j in "$TFL_ROOT"/metrics/"$TFL_BUILD_DIR"/tfstream-metrics-*.jar; do
    case "$j" in *-tests.jar | *-sources.jar | *'*'*) ;; *) echo "$j"; return ;; esac
  done
}

tfl_resolved() {
  case "$1" in
    broker | flink | zookeeper)
      local jar cache="$TFL_CACHE"
      if [ "$1" = flink ]; then cache="$TFL_FLINK_CACHE"; fi
      [ -s "$cache/$1.classpath" ] || return 1
      while IFS= read -r -d ':' jar; do [ -f "$jar" ] || return 1; done \
        < <(cat "$cache/$1.classpath"; printf ':')
      if [ "$1" = flink ]; then
        compgen -G "$cache/plugins/s3-fs-hadoop/flink-s3-fs-hadoop-*.jar" >/dev/null || return 1
        compgen -G "$cache/plugins/metrics-prometheus/flink-metrics-prometheus-*.jar" >/dev/null || return 1
      fi
      ;;
    s3proxy) [ -s "$TFL_CACHE/lib/s3proxy.jar" ] || return 1 ;;
  esac
}

tfl_classpath() {
  if [ "$1" = flink ]; then cat "$TFL_FLINK_CACHE/flink.classpath"; else cat "$TFL_CACHE/$1.classpath"; fi
}

# --- processes -----------------------------------------------------------------------------------

tfl_pidfile() { echo "$TFL_PIDS/$1.pid"; }

tfl_pid() {
  local f
  f="$(tfl_pidfile "$1")"
  if [ -f "$f" ]; then cat "$f"; fi
}

# True when the process of role $1 runs: its pid is alive and, where /proc tells, its command line
# carries this state directory's marker (so a reused pid or a zombie does not count).
tfl_alive() {
  local pid
  pid="$(tfl_pid "$1")"
  [ -n "$pid" ] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  if [ -d /proc/self ]; then
    [ -r "/proc/$pid/cmdline" ] || return 1
    local cmdline
    cmdline="$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
    grep -qxF -- "-Dtfstream.local.process=$1@$TFL_STATE" <<<"$cmdline" || return 1
  fi
}

tfl_any_running() {
  local f
  for f in "$TFL_PIDS"/*.pid; do
    [ -e "$f" ] || continue
    if tfl_alive "$(basename "$f" .pid)"; then return 0; fi
  done
  return 1
}

# Moves a log file of an earlier start to <file>.1 (and .1 to .2, .2 to .3).
tfl_rotate() {
  local f=$1 i
  [ -s "$f" ] || return 0
  for i in 2 1; do if [ -f "$f.$i" ]; then mv -f "$f.$i" "$f.$((i + 1))"; fi; done
  mv -f "$f" "$f.1"
}

# Starts `java ARGS...` detached (own session, no terminal, output appended to $2) as role $1,
# with the marker tfl_alive looks for. The pid file is written by the process itself.
tfl_spawn() {
  local role=$1 out=$2
  shift 2
  local pidfile
  pidfile="$(tfl_pidfile "$role")"
  rm -f "$pidfile"
  printf '\n=== %s: %s starting\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$role" >>"$out"
  local launcher=(nohup)
  if command -v setsid >/dev/null 2>&1; then launcher=(setsid); fi
  "${launcher[@]}" bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" \
    "$TFL_JAVA" "-Dtfstream.local.process=$role@$TFL_STATE" "$@" \
    </dev/null >>"$out" 2>&1 9>&- &
  local i
  for i in $(seq 1 50); do
    if [ -s "$pidfile" ]; then return 0; fi
    sleep 0.1
  done
  tfl_die 1 "$role did not start; see $out"
}

# Sends SIGTERM to the processes of the given roles, waits up to TFSTREAM_STOP_TIMEOUT seconds
# (default 30) for them to end, then SIGKILLs what is left. Roles not running are skipped. Pid
# files stay (status lists a stopped TaskManager); tfl_alive does not trust them alone.
tfl_stop() {
  local role pid deadline left
  local -a roles=()
  for role in "$@"; do
    if tfl_alive "$role"; then
      kill -TERM "$(tfl_pid "$role")" 2>/dev/null || true
      roles+=("$role")
    fi
  done
  [ ${#roles[@]} -gt 0 ] || return 0
  deadline=$((SECONDS + ${TFSTREAM_STOP_TIMEOUT:-30}))
  while :; do
    left=()
    for role in "${roles[@]}"; do if tfl_alive "$role"; then left+=("$role"); fi; done
    [ ${#left[@]} -gt 0 ] || break
    if [ $SECONDS -ge $deadline ]; then
      for role in "${left[@]}"; do
        tfl_info "$role did not stop within ${TFSTREAM_STOP_TIMEOUT:-30} s: killing it"
        pid="$(tfl_pid "$role")"
        kill -KILL "$pid" 2>/dev/null || true
      done
      deadline=$((SECONDS + 10))
      roles=("${left[@]}")
      sleep 0.5
      continue
    fi
    sleep 0.2
  done
}

# kill -9, as a crash; returns once the process is gone.
tfl_kill() {
  local role=$1 pid
  tfl_alive "$role" || return 1
  pid="$(tfl_pid "$role")"
  kill -KILL "$pid" 2>/dev/null || true
  while tfl_alive "$role"; do sleep 0.1; done
}

# --- ports and health checks ---------------------------------------------------------------------

tfl_port_in_use() {
  if command -v ss >/dev/null 2>&1; then
    [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ] && return 0
  fi
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

tfl_require_free_port() { # port variable what
  if tfl_port_in_use "$1"; then
    tfl_die 2 "port $1 ($3) is already in use by another process: set $2 to a free port (e.g. export $2=$(($1 + 100))) and run again"
  fi
}

tfl_timeout() { echo "${TFSTREAM_START_TIMEOUT:-120}"; }

tfl_log_tail() { # file
  if [ -f "$1" ]; then
    tfl_info "--- last lines of $1:"
    tail -n 25 "$1" >&2
  fi
}

# Polls `$3...` until it succeeds; fails after TFSTREAM_START_TIMEOUT seconds or as soon as the
# process of role $1 has died, showing the end of its log $2.
tfl_wait_until() {
  local role=$1 log=$2
  shift 2
  local deadline=$((SECONDS + $(tfl_timeout)))
  until "$@"; do
    if ! tfl_alive "$role"; then
      tfl_log_tail "$log"
      tfl_die 1 "$role exited while starting; logs in $TFL_LOGS"
    fi
    if [ $SECONDS -ge $deadline ]; then
      tfl_log_tail "$log"
      tfl_die 1 "$role not ready after $(tfl_timeout) s (TFSTREAM_START_TIMEOUT); logs in $TFL_LOGS"
    fi
    sleep 0.3
  done
}

tfl_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# GET on the Flink REST API; prints the body, fails on a connection error or HTTP error.
tfl_rest_get() { curl -fsS --max-time 10 "$TFL_REST$1"; }

tfl_json_string() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\r'/\\r}
  s=${s//$'\t'/\\t}
  printf '"%s"' "$s"
}

# The value of a flat string field in a JSON text (enough for Flink's REST answers).
tfl_json_field() { # json field
  printf '%s' "$1" | sed -n "s/.*\"$2\":\"\\([^\"]*\\)\".*/\\1/p" | head -n 1
}
