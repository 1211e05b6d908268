# shellcheck shell=bash
# The standalone Flink cluster: a JobManager (StandaloneSessionClusterEntrypoint) and TaskManagers
# (TaskManagerRunner) from the Maven-built classpath, the S3 file system as a plugin, checkpoints
# and savepoints on S3Proxy, Flink's Prometheus reporter on every process. TaskManagers are
# numbered 1, 2, ... in the order they are started;
# a number is not reused until `down`, and it is also the TaskManager's resource id (tm-<n>).

TFL_JM_LOG="$TFL_LOGS/jobmanager.log"

tfl_tm_log() { echo "$TFL_LOGS/taskmanager-$1.log"; }

tfl_flink_write_config() {
  mkdir -p "$TFL_CONF" "$TFL_STATE/flink/tmp" "$TFL_STATE/flink/web" "$TFL_STATE/flink/blobs"
  cp "$TFL_HOME/conf/log4j.properties" "$TFL_CONF/log4j.properties"
  # config.yaml holds the S3 secret key: created readable by its owner only.
  local old_umask
  old_umask="$(umask)"
  umask 077
  rm -f "$TFL_CONF/config.yaml"
  cat >"$TFL_CONF/config.yaml" <<EOF
# Written by $TFL_CMD from $TFL_STATE/cluster.env; rewritten at every up.
# Extra settings: a file named by TFSTREAM_FLINK_CONFIG is appended below (its keys replace these).
jobmanager.rpc.address: localhost
jobmanager.rpc.port: $TFSTREAM_FLINK_RPC_PORT
jobmanager.bind-host: localhost
jobmanager.memory.process.size: $TFSTREAM_JM_MEMORY
taskmanager.host: localhost
taskmanager.bind-host: localhost
taskmanager.numberOfTaskSlots: $TFSTREAM_TM_SLOTS
taskmanager.memory.process.size: $TFSTREAM_TM_MEMORY
# The job keeps its state on the heap (checkpoints on S3): Flink's managed memory, 40% of a
# TaskManager by default for RocksDB and batch operators, would sit unused while the heap holds
# each open shard's tail and statistics (a checkpoint of them needs twice their size).
taskmanager.memory.managed.fraction: 0.05
# Spread a job's slots over the TaskManagers rather than filling one first.
taskmanager.load-balance.mode: slots
rest.address: localhost
rest.bind-address: localhost
rest.port: $TFSTREAM_FLINK_REST_PORT
# A killed TaskManager is noticed within seconds.
heartbeat.interval: 1000
heartbeat.timeout: 8000
parallelism.default: 1
# Keep restarting while a killed TaskManager is replaced (no slots: NoResourceAvailableException).
restart-strategy.type: fixed-delay
restart-strategy.fixed-delay.attempts: 2147483647
restart-strategy.fixed-delay.delay: 1 s
# The cluster's checkpoint interval: a job keeps it unless it sets checkpoint.interval.
execution.checkpointing.interval: 10 s
execution.checkpointing.storage: filesystem
execution.checkpointing.dir: s3://$TFSTREAM_S3_BUCKET/flink/checkpoints
execution.checkpointing.savepoint-dir: s3://$TFSTREAM_S3_BUCKET/flink/savepoints
# Read by flink-s3-fs-hadoop when each process starts (plugins/s3-fs-hadoop).
s3.endpoint: $TFL_S3_ENDPOINT
s3.path.style.access: true
s3.access-key: $TFL_S3_ACCESS_KEY
s3.secret-key: $TFL_S3_SECRET_KEY
# Flink's Prometheus reporter bound to loopback (tfstream's, plugins/tfstream-metrics: Flink's own
# listens on every interface): each process serves /metrics on the first free port of the range
# (the JobManager, started first, on the first one).
metrics.reporter.prom.factory.class: io.tfstream.metrics.BoundPrometheusReporterFactory
metrics.reporter.prom.host: 127.0.0.1
metrics.reporter.prom.port: $TFSTREAM_METRICS_PORT-$((TFSTREAM_METRICS_PORT + 16))
# Each process gets its own io.tmp.dirs, web.tmpdir and blob.storage.directory under
# flink/work/<role>/ (dynamic properties, tfl_flink_spawn); these are for other Flink tools.
io.tmp.dirs: $TFL_STATE/flink/tmp
web.tmpdir: $TFL_STATE/flink/web
blob.storage.directory: $TFL_STATE/flink/blobs
EOF
  if tfl_zookeeper_enabled; then
    cat >>"$TFL_CONF/config.yaml" <<EOF
# JobManager high availability (TFSTREAM_HA=zookeeper): a JobManager started again on the same
# ports (deploy/local/jobmanager start) is elected leader, recovers the running jobs under their
# ids from their latest completed checkpoints; the TaskManagers find it through ZooKeeper.
high-availability.type: zookeeper
high-availability.zookeeper.quorum: 127.0.0.1:$TFSTREAM_ZOOKEEPER_PORT
high-availability.zookeeper.path.root: /tfstream-local
high-availability.cluster-id: /default
high-availability.storageDir: s3://$TFSTREAM_S3_BUCKET/flink/ha
# The JobManager's RPC port with HA (jobmanager.rpc.port is not used then): fixed, as without.
high-availability.jobmanager.port: $TFSTREAM_FLINK_RPC_PORT
EOF
  fi
  if [ -n "${TFSTREAM_FLINK_CONFIG:-}" ]; then
    [ -f "$TFSTREAM_FLINK_CONFIG" ] || tfl_die 2 "TFSTREAM_FLINK_CONFIG: no such file: $TFSTREAM_FLINK_CONFIG"
    # Flink's YAML parser refuses a key twice: the generated lines of the keys the file sets go.
    local generated="$TFL_CONF/config.yaml.generated"
    mv "$TFL_CONF/config.yaml" "$generated"
    awk 'NR == FNR { if (match($0, /^[A-Za-z0-9_.-]+:/)) drop[substr($0, 1, RLENGTH)] = 1; next }
         !(match($0, /^[A-Za-z0-9_.-]+:/) && (substr($0, 1, RLENGTH) in drop))' \
      "$TFSTREAM_FLINK_CONFIG" "$generated" >"$TFL_CONF/config.yaml"
    rm -f "$generated"
    printf '# From %s:\n' "$TFSTREAM_FLINK_CONFIG" >>"$TFL_CONF/config.yaml"
    cat "$TFSTREAM_FLINK_CONFIG" >>"$TFL_CONF/config.yaml"
    printf '\n' >>"$TFL_CONF/config.yaml"
  fi
  umask "$old_umask"
}

# The JVM memory flags (line 1) and dynamic properties (line 2) Flink derives from config.yaml for
# a JobManager (GET_JM_RESOURCE_PARAMS) or TaskManager (GET_TM_RESOURCE_PARAMS), as flink-dist's
# scripts do; cached until config.yaml changes.
tfl_flink_params() {
  local kind=$1 file="$TFL_STATE/flink/$1.params" key out
  key="$(cksum <"$TFL_CONF/config.yaml" | cut -d' ' -f1)"
  if [ -f "$file" ] && [ "$(head -n 1 "$file")" = "$key" ]; then
    tail -n 2 "$file"
    return
  fi
  local -a flags
  read -r -a flags <<<"$(tfl_jvm_flags)"
  out="$("$TFL_JAVA" "${flags[@]}" -cp "$(tfl_classpath flink)" \
    org.apache.flink.runtime.util.bash.BashJavaUtils "$kind" --configDir "$TFL_CONF" 2>&1)" ||
    { printf '%s\n' "$out" >&2; tfl_die 1 "Flink rejected the memory settings in $TFL_CONF/config.yaml"; }
  out="$(printf '%s\n' "$out" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tail -n 2)"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ] || tfl_die 1 "unexpected output of Flink's BashJavaUtils $kind"
  printf '%s\n%s\n' "$key" "$out" >"$file"
  printf '%s\n' "$out"
}

# The working directory of a Flink process of role $1 (temporary files, the RPC system's jar, JAAS
# files, the BLOB cache with the job's jar): flink/work/<role>/, emptied before the process starts.
# A process killed with kill -9 cannot remove its files, so the directories of roles no longer
# running go too: what is kept on disk follows the processes alive, not the failures so far.
tfl_flink_workdir() {
  local role=$1 dir
  for dir in "$TFL_STATE/flink/work"/*; do
    [ -d "$dir" ] || continue
    if [ "$(basename "$dir")" = "$role" ] || ! tfl_alive "$(basename "$dir")"; then rm -rf "$dir"; fi
  done
  mkdir -p "$TFL_STATE/flink/work/$role/tmp" "$TFL_STATE/flink/work/$role/blobs" "$TFL_STATE/flink/work/$role/web"
  printf '%s\n' "$TFL_STATE/flink/work/$role"
}

# Starts a Flink process: role, log file, main class, then the process's own arguments. Its GC log
# (<role>.gc.log beside the log, two files of 10 MB at most) shows the heap after each collection.
tfl_flink_spawn() {
  local role=$1 log=$2 main=$3 params=$4 work
  shift 4
  work="$(tfl_flink_workdir "$role")"
  local -a flags mem dyn
  read -r -a flags <<<"$(tfl_jvm_flags)"
  read -r -a mem <<<"$(printf '%s\n' "$params" | sed -n 1p)"
  read -r -a dyn <<<"$(printf '%s\n' "$params" | sed -n 2p)"
  tfl_rotate "$log"
  # AWS_* as a Kubernetes pod gets them from a Secret: tfstream's S3 shard store reads the AWS
  # default credential chain on the TaskManagers (the s3.* keys above are the Flink plugin's).
  FLINK_PLUGINS_DIR="$TFL_FLINK_CACHE/plugins" FLINK_CONF_DIR="$TFL_CONF" \
    AWS_ACCESS_KEY_ID="$TFL_S3_ACCESS_KEY" AWS_SECRET_ACCESS_KEY="$TFL_S3_SECRET_KEY" \
    tfl_spawn "$role" "${log%.log}.out" "${flags[@]}" "${mem[@]}" \
    -Daws.java.v1.disableDeprecationAnnouncement=true \
    "-Xlog:gc:file=${log%.log}.gc.log:time,uptime:filecount=2,filesize=10m" \
    -Dlog.file="$log" -Dlog4j.configurationFile="file:$TFL_CONF/log4j.properties" \
    -cp "$(tfl_classpath flink)" "$main" --configDir "$TFL_CONF" "${dyn[@]}" \
    -D "io.tmp.dirs=$work/tmp" -D "blob.storage.directory=$work/blobs" -D "web.tmpdir=$work/web" "$@"
}

tfl_jobmanager_start() {
  if tfl_alive jobmanager; then return 0; fi
  tfl_require_free_port "$TFSTREAM_FLINK_REST_PORT" TFSTREAM_FLINK_REST_PORT "Flink REST API and web UI"
  tfl_require_free_port "$TFSTREAM_FLINK_RPC_PORT" TFSTREAM_FLINK_RPC_PORT "Flink JobManager RPC"
  tfl_flink_spawn jobmanager "$TFL_JM_LOG" \
    org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
    "$(tfl_flink_params GET_JM_RESOURCE_PARAMS)"
}

tfl_jobmanager_ready() { tfl_rest_get /overview >/dev/null 2>&1; }

tfl_jobmanager_wait() { tfl_wait_until jobmanager "$TFL_JM_LOG" tfl_jobmanager_ready; }

# Numbers of the TaskManagers with a pid file (running or not), ascending.
tfl_tm_indexes() {
  local f
  for f in "$TFL_PIDS"/taskmanager-*.pid; do
    [ -e "$f" ] || continue
    f="${f##*/taskmanager-}"
    echo "${f%.pid}"
  done | sort -n
}

tfl_tm_alive_count() {
  local i n=0
  for i in $(tfl_tm_indexes); do if tfl_alive "taskmanager-$i"; then n=$((n + 1)); fi; done
  echo "$n"
}

# Starts one more TaskManager; prints its number.
tfl_taskmanager_start() {
  local counter="$TFL_STATE/flink/taskmanager.last" n=0
  if [ -f "$counter" ]; then n="$(cat "$counter")"; fi
  n=$((n + 1))
  echo "$n" >"$counter"
  tfl_flink_spawn "taskmanager-$n" "$(tfl_tm_log "$n")" \
    org.apache.flink.runtime.taskexecutor.TaskManagerRunner \
    "$(tfl_flink_params GET_TM_RESOURCE_PARAMS)" -D "taskmanager.resource-id=tm-$n"
  echo "$n"
}

# True when the JobManager lists TaskManager $1 as registered.
tfl_tm_registered() {
  local list
  list="$(tfl_rest_get /taskmanagers 2>/dev/null)" || return 1
  [[ "$list" == *"\"id\":\"tm-$1\""* ]]
}

tfl_taskmanager_wait() {
  tfl_wait_until "taskmanager-$1" "$(tfl_tm_log "$1")" tfl_tm_registered "$1"
}
