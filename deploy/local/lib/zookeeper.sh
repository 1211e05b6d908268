# shellcheck shell=bash
# ZooKeeper: one standalone server (QuorumPeerMain) for the JobManager's high availability
# (TFSTREAM_HA=zookeeper, the default): leader election and the pointers to the job graphs and
# completed checkpoints, whose bytes are in s3://<bucket>/flink/ha. Bound to 127.0.0.1, its
# AdminServer (an HTTP port on every interface by default) off; data in <state>/zookeeper.

TFL_ZK_LOG="$TFL_LOGS/zookeeper.log"
TFL_ZK_DIR="$TFL_STATE/zookeeper"

tfl_zookeeper_enabled() { [ "$TFSTREAM_HA" = zookeeper ]; }

tfl_zookeeper_write_config() {
  mkdir -p "$TFL_ZK_DIR/data"
  cat >"$TFL_ZK_DIR/zoo.cfg" <<EOF
# Written by $TFL_CMD from $TFL_STATE/cluster.env; rewritten at every start.
tickTime=2000
dataDir=$TFL_ZK_DIR/data
clientPort=$TFSTREAM_ZOOKEEPER_PORT
clientPortAddress=127.0.0.1
admin.enableServer=false
# srvr for the readiness check, on the loopback client port only.
4lw.commands.whitelist=srvr
# Old snapshots and logs go: the HA data is small and rewritten as jobs run.
autopurge.snapRetainCount=3
autopurge.purgeInterval=1
EOF
}

tfl_zookeeper_start() {
  if tfl_alive zookeeper; then return 0; fi
  tfl_require_free_port "$TFSTREAM_ZOOKEEPER_PORT" TFSTREAM_ZOOKEEPER_PORT "ZooKeeper"
  tfl_zookeeper_write_config
  tfl_rotate "$TFL_ZK_LOG"
  tfl_spawn zookeeper "$TFL_LOGS/zookeeper.out" -Xmx128m \
    -Dzookeeper.admin.enableServer=false -Dzookeeper.jmx.log4j.disable=true \
    -Dlog.file="$TFL_ZK_LOG" -Dlog4j2.configurationFile="file:$TFL_HOME/conf/log4j.properties" \
    -cp "$(tfl_classpath zookeeper)" org.apache.zookeeper.server.quorum.QuorumPeerMain \
    "$TFL_ZK_DIR/zoo.cfg"
}

# The server serves requests: srvr names its mode (ruok answers imok before it does, and also when
# it failed to start behind a listening port).
tfl_zookeeper_ready() {
  local answer
  answer="$( (exec 3<>"/dev/tcp/127.0.0.1/$TFSTREAM_ZOOKEEPER_PORT" && printf 'srvr' >&3 &&
    timeout 2 cat <&3) 2>/dev/null || true)"
  [[ "$answer" == *"Mode: standalone"* ]]
}

tfl_zookeeper_wait() {
  tfl_wait_until zookeeper "$TFL_ZK_LOG" tfl_zookeeper_ready
}
