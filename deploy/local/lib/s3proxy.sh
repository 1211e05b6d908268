# shellcheck shell=bash
# S3Proxy: the S3 API over <state>/s3 (filesystem-nio2 backend; a bucket is a directory, an object
# a file under it). The basedir is absolute: with a relative one, LIST answers nothing and
# multipart uploads cannot be completed, silently.

TFL_S3PROXY_LOG="$TFL_LOGS/s3proxy.log"

tfl_s3proxy_write_config() {
  mkdir -p "$TFL_S3_DIR/$TFSTREAM_S3_BUCKET"
  # Both files hold the secret key: created readable by their owner only.
  local old_umask
  old_umask="$(umask)"
  umask 077
  rm -f "$TFL_STATE/s3proxy.properties" "$TFL_STATE/s3-credentials.properties"
  cat >"$TFL_STATE/s3proxy.properties" <<EOF
s3proxy.endpoint=$TFL_S3_ENDPOINT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$TFL_S3_ACCESS_KEY
s3proxy.credential=$TFL_S3_SECRET_KEY
jclouds.provider=filesystem-nio2
jclouds.filesystem.basedir=$TFL_S3_DIR
EOF
  # The job's s3.credentials-file format, for jobs and tools that talk to this S3Proxy.
  printf 'access-key=%s\nsecret-key=%s\n' "$TFL_S3_ACCESS_KEY" "$TFL_S3_SECRET_KEY" \
    >"$TFL_STATE/s3-credentials.properties"
  umask "$old_umask"
}

tfl_s3proxy_start() {
  if tfl_alive s3proxy; then return 0; fi
  tfl_require_free_port "$TFSTREAM_S3_PORT" TFSTREAM_S3_PORT "S3Proxy"
  tfl_s3proxy_write_config
  tfl_rotate "$TFL_S3PROXY_LOG"
  tfl_spawn s3proxy "$TFL_S3PROXY_LOG" -Xmx256m \
    -jar "$TFL_CACHE/lib/s3proxy.jar" --properties "$TFL_STATE/s3proxy.properties"
}

# Any HTTP answer (403 without credentials) means S3Proxy serves requests.
tfl_s3proxy_ready() {
  local code
  code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$TFL_S3_ENDPOINT/" || true)"
  [ -n "$code" ] && [ "$code" != 000 ]
}

tfl_s3proxy_wait() {
  tfl_wait_until s3proxy "$TFL_S3PROXY_LOG" tfl_s3proxy_ready
}
