#!/usr/bin/env bash
# Smoke tests of the built artifacts as an operator runs them (after `npm run build`):
#  1. `node dist/src/main.js` on a fresh SQLite file: 503 API_DISABLED, then the CLI enables the API
#     in another process and the running server opens within 5 s, without a restart.
#     With API_PROCESSES=2 two HTTP processes share the port and SIGTERM stops them, exit 0.
#  2. `npm run demo`: serves, and the printed curl line works.
#  3. with REDIS_URL set: `npm run worker` starts, consumes, and stops cleanly on SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
TMP=$(mktemp -d /tmp/hr-smoke.XXXXXX)
PIDS=()
cleanup() {
  # Each background command runs in its own process group (setsid): kill the whole group, so
  # `npm run demo`'s node child goes too.
  for p in "${PIDS[@]}"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

# get <url> [token] -> prints "<status> <body>"
get() {
  node -e '
    const [url, token] = process.argv.slice(1);
    fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })
      .then(async (r) => console.log(r.status, await r.text()))
      .catch((e) => { console.log("000", e.message); });' "$1" "${2:-}"
}

wait_http() { # wait_http <url> <seconds>
  for _ in $(seq 1 $(($2 * 10))); do
    case "$(get "$1")" in 000*) sleep 0.1 ;; *) return 0 ;; esac
  done
  echo "no answer from $1" >&2
  return 1
}

echo "-- an older Node is refused in one line, not by a segmentation fault (the machine's own Node, when older than 22.15)"
OLD_NODE=$(PATH=/usr/local/bin:/usr/bin:/bin command -v node || true)
if [ -n "$OLD_NODE" ] && [ "$("$OLD_NODE" -p 'Number(process.versions.node.split(".")[0]) < 22')" = "true" ]; then
  for entry in dist/src/cli.js dist/src/main.js dist/src/worker.js; do
    rc=0
    out=$("$OLD_NODE" "$entry" settings:get "Enable Rest Api" 2>&1) || rc=$?
    case "$rc:$out" in "1:hr-service needs Node.js"*) echo "$entry on $("$OLD_NODE" -v): rc 1, $out" ;; *) echo "$entry on $("$OLD_NODE" -v): rc $rc: $out" >&2; exit 1 ;; esac
  done
else
  echo "no Node older than 22 on this machine: skipped"
fi
echo "-- ./bin/hr --help answers without loading the application"
t0=$(date +%s%N)
bin/hr --help | head -1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "bin/hr --help took $ms ms"
[ "$ms" -lt 3000 ] || { echo "bin/hr --help took $ms ms: it loads the application" >&2; exit 1; }

echo "-- server + CLI: the REST API gate"
export DATABASE_URL="sqlite:$TMP/smoke.sqlite" PORT=3931 HOST=127.0.0.1 LOG_LEVEL=warn
setsid node dist/src/main.js >"$TMP/server.log" 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:3931/app/api/health/live" 30
res=$(get http://127.0.0.1:3931/app/api/echo)
case "$res" in 503*API_DISABLED*) echo "disabled: $res" ;; *) echo "expected 503 API_DISABLED, got: $res" >&2; exit 1 ;; esac
bin/hr settings:set "Enable Rest Api" Yes
start=$(date +%s%N)
until get http://127.0.0.1:3931/app/api/echo | grep -q '^200 '; do
  if [ $(( ($(date +%s%N) - start) / 1000000 )) -gt 5000 ]; then echo "echo did not open within 5 s" >&2; exit 1; fi
  sleep 0.1
done
echo "echo answered $(( ($(date +%s%N) - start) / 1000000 )) ms after settings:set: $(get http://127.0.0.1:3931/app/api/echo)"
bin/hr users:create-admin --username smoke --email smoke@example.com --password 'smoke-Secret-1' >/dev/null
TOKEN=$(bin/hr tokens:issue --username smoke --ttl 5m)
case "$(get http://127.0.0.1:3931/app/api/settings "$TOKEN")" in 200*) echo "CLI token works" ;; *) echo "CLI token refused" >&2; exit 1 ;; esac
echo "-- metrics to loopback, a user token refused there; db:backup of the serving database"
case "$(get http://127.0.0.1:3931/app/api/metrics)" in 200*hr_http_request_duration_seconds_bucket*) echo "metrics served to loopback" ;; *) echo "no metrics" >&2; exit 1 ;; esac
case "$(get http://127.0.0.1:3931/app/api/metrics "$TOKEN")" in 401*) echo "a user token is refused on /metrics" ;; *) echo "/metrics took a user token" >&2; exit 1 ;; esac
bin/hr db:backup "$TMP/smoke-copy.sqlite"
out=$(bin/hr db:restore "$TMP/smoke-copy.sqlite" 2>&1 || true)
case "$out" in *"in use"*) echo "db:restore refused while the server runs" ;; *) echo "db:restore did not refuse: $out" >&2; exit 1 ;; esac
echo "-- API_PROCESSES=2: two HTTP processes on one port, SIGTERM stops both, exit 0"
PORT=3933 API_PROCESSES=2 node dist/src/main.js >"$TMP/cluster.log" 2>&1 &
cpid=$!
wait_http "http://127.0.0.1:3933/app/api/health/live" 30
[ "$(pgrep -P "$cpid" | wc -l)" -eq 2 ] || { echo "expected 2 HTTP processes under $cpid" >&2; cat "$TMP/cluster.log"; exit 1; }
for _ in $(seq 1 10); do get "http://127.0.0.1:3933/app/api/echo" "" | grep -q '^200 ' || { echo "cluster echo failed" >&2; exit 1; }; done
kill -TERM "$cpid"
wait "$cpid" && echo "both processes served and stopped; exit 0" || { echo "API_PROCESSES=2 did not exit 0" >&2; cat "$TMP/cluster.log"; exit 1; }
echo "-- API_PROCESSES=2 stopped while starting (the first process listening, the second loading): exit 0"
PORT=3934 API_PROCESSES=2 node dist/src/main.js >"$TMP/cluster2.log" 2>&1 &
cpid=$!
wait_http "http://127.0.0.1:3934/app/api/health/live" 30
kill -TERM "$cpid"
wait "$cpid" && echo "stopped while starting; exit 0" || { echo "API_PROCESSES=2 stopped while starting did not exit 0" >&2; cat "$TMP/cluster2.log"; exit 1; }
unset DATABASE_URL PORT HOST LOG_LEVEL

echo "-- npm run demo"
rm -rf data/demo.sqlite*
PORT=3932 setsid npm run -s demo >"$TMP/demo.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 300); do grep -q 'curl -s' "$TMP/demo.log" && break; sleep 0.1; done
cat "$TMP/demo.log"
line=$(grep -o 'curl -s .*' "$TMP/demo.log") || { echo "demo printed no curl line" >&2; exit 1; }
url=$(echo "$line" | grep -o 'http://[^ "]*')
token=$(echo "$line" | grep -o 'hra_[A-Za-z0-9_-]*')
res=$(get "$url" "$token")
case "$res" in 200*'"status":"SUCCESS"'*) echo "the demo's curl line works" ;; *) echo "demo curl line failed: $res" >&2; exit 1 ;; esac
if command -v curl >/dev/null; then eval "$line" | grep -q '"status":"SUCCESS"' && echo "(and with curl itself)"; fi

if [ -n "${REDIS_URL:-}" ]; then
  echo "-- npm run worker"
  node dist/src/worker.js >"$TMP/worker.log" 2>&1 &
  wpid=$!
  for _ in $(seq 1 150); do grep -q 'worker consuming jobs' "$TMP/worker.log" && break; sleep 0.1; done
  grep -q 'worker consuming jobs' "$TMP/worker.log" || { cat "$TMP/worker.log"; echo "worker did not start" >&2; exit 1; }
  kill -TERM "$wpid"
  for _ in $(seq 1 100); do kill -0 "$wpid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$wpid" 2>/dev/null; then echo "worker did not stop on SIGTERM" >&2; exit 1; fi
  wait "$wpid" && echo "worker started and stopped cleanly"
fi
echo "smoke: ok"
