# shellcheck shell=bash
# The Kafka broker: one KRaft node (broker and controller in one process), its log directory in
# <state>/kafka/data, formatted once and kept across stops and starts.

TFL_BROKER_LOG="$TFL_LOGS/broker.log"

tfl_broker_write_config() {
  mkdir -p "$TFL_KAFKA_DIR/data"
  cat >"$TFL_KAFKA_DIR/server.properties" <<EOF
# Written by $TFL_CMD from $TFL_STATE/cluster.env; rewritten at every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:$TFSTREAM_KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://localhost:$TFSTREAM_KAFKA_PORT,CONTROLLER://localhost:$TFSTREAM_KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://localhost:$TFSTREAM_KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$TFL_KAFKA_DIR/data
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# The exactly-once sinks' output.transaction-timeout must not exceed this (15 min).
transaction.max.timeout.ms=900000
EOF
}

tfl_broker_java() { # main-class args...
  "$TFL_JAVA" -cp "$(tfl_classpath broker)" "$@"
}

tfl_broker_start() {
  if tfl_alive broker; then return 0; fi
  tfl_require_free_port "$TFSTREAM_KAFKA_PORT" TFSTREAM_KAFKA_PORT "Kafka broker"
  tfl_require_free_port "$TFSTREAM_KAFKA_CONTROLLER_PORT" TFSTREAM_KAFKA_CONTROLLER_PORT "Kafka controller"
  tfl_broker_write_config
  if [ ! -f "$TFL_KAFKA_DIR/data/meta.properties" ]; then
    local id
    id="$(tfl_broker_java kafka.tools.StorageTool random-uuid 2>>"$TFL_LOGS/broker.out")"
    tfl_broker_java kafka.tools.StorageTool format -t "$id" -c "$TFL_KAFKA_DIR/server.properties" \
      >>"$TFL_LOGS/broker.out" 2>&1 ||
      { tfl_log_tail "$TFL_LOGS/broker.out"; tfl_die 1 "formatting the broker's log directory failed"; }
  fi
  tfl_rotate "$TFL_BROKER_LOG"
  tfl_spawn broker "$TFL_LOGS/broker.out" -Xmx512m -Xms512m \
    -Dlog.file="$TFL_BROKER_LOG" -Dlog4j2.configurationFile="file:$TFL_HOME/conf/log4j.properties" \
    -cp "$(tfl_classpath broker)" kafka.Kafka "$TFL_KAFKA_DIR/server.properties"
}

tfl_broker_ready() {
  tfl_port_open "$TFSTREAM_KAFKA_PORT" && grep -q "Kafka Server started" "$TFL_BROKER_LOG" 2>/dev/null
}

tfl_broker_wait() {
  tfl_wait_until broker "$TFL_BROKER_LOG" tfl_broker_ready
}
