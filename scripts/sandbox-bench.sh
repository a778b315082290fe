#!/usr/bin/env bash
# The sandbox load check: starts a release `ifttt-connect sandbox` on a fresh database in a temporary directory,
# records --events location events for alice, then drives each route with wrk from this (second) process on
# loopback, paired with the sandbox's own /health on the same server in the same round, and prints each route's
# throughput as a ratio to /health (lower is better) with min/median/max over the rounds, the server's peak RSS,
# and whether each goal is met.
#
# Usage: scripts/sandbox-bench.sh [--seconds N] [--connections C] [--rounds R] [--events N] [--check]
#   --seconds N      seconds of load per route and per /health run (default 5)
#   --connections C  concurrent connections (default 32; wrk uses 2 threads)
#   --rounds R       rounds (default 3)
#   --events N       location events recorded before the load (default 100000)
#   --check          the short form for scripts/test.sh: 1 round of 2 s, and fail (exit 1) only when a ratio or
#                    the RSS is beyond twice its goal (the machine is shared and noisy)
#   IFTTT_CONNECT_BIN=path  use this ifttt-connect binary instead of building the release one
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=5 connections=32 rounds=3 events=100000 check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --events) events="$2"; shift 2 ;;
    --check) check=1; seconds=2; rounds=1; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sandbox-bench: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
for n in "$seconds" "$connections" "$rounds" "$events"; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] || { echo "sandbox-bench: options take positive integers" >&2; exit 64; }
done

# Goals: route throughput as a ratio to /health (route | goal), and peak RSS in MB. At a fixed number of connections
# the throughput ratio is the ratio of mean latencies (Little's law): POST a location event within 4x /health's
# latency, GET a connection within 2x (issue 31; they measured 7.5x and 1.4x before the group commit, and 9.5x and
# 1.9x (CI: 10.5x, 2.6x) on 2026-11-27 while every event commit still emptied the store's caches; 3.0x and 1.3x once
# it no longer did).
goal_connection=2 goal_post=4 goal_list=4 goal_rss=100
factor=1; [ "$check" -eq 1 ] && factor=2

scripts/bootstrap.sh wrk curl || exit 1
if [ -n "${IFTTT_CONNECT_BIN:-}" ]; then
  bin="$IFTTT_CONNECT_BIN"
else
  echo "sandbox-bench: building the release ifttt-connect" >&2
  source scripts/lib/cli-build.sh
  bin="$(build_cli sandbox-bench release)" || exit 1
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; then
    # A graceful shutdown waits for requests in flight; give it 5 s, then stop the server for good.
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"$bin" sandbox --port 0 --db "$work/bench.sqlite" >"$work/server.log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 300); do
  url="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/server.log" | head -1)"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$url" ] || { echo "sandbox-bench: the sandbox did not start"; tail -20 "$work/server.log"; exit 1; }
: >"$work/server.log"   # keep the temporary directory small; the server appends its request log here

token="sandbox-user-token-alice"
subscription="alice-arrive-trigger-1"

# Record the events in batches of 1,000 (the body limit is 1 MiB), each with a unique record id.
start=$(date +%s.%N)
batch=1000
for ((b = 0; b * batch < events; b++)); do
  n=$(( events - b * batch < batch ? events - b * batch : batch ))
  awk -v b="$b" -v n="$n" -v sub_id="$subscription" 'BEGIN {
    printf "["
    for (i = 0; i < n; i++) {
      if (i > 0) printf ","
      printf "{\"record_id\":\"00000000-0000-4000-8000-%06d%06d\",\"region_type\":\"geo\",", b, i
      printf "\"occurred_at\":\"2026-11-20T10:%02d:%02d+0000\",\"event_type\":\"%s\",", (i / 60) % 60, i % 60, (i % 2 ? "exit" : "entry")
      printf "\"channel_id\":\"941030000\",\"trigger_subscription_id\":\"%s\",\"installation_id\":\"bench\"}", sub_id
    }
    printf "]"
  }' >"$work/batch.json"
  code=$(curl -s -o "$work/answer.json" -w '%{http_code}' -X POST "$url/v1/location_events" \
    -H "Authorization: Bearer $token" -H 'Content-Type: application/json' --data-binary @"$work/batch.json")
  [ "$code" = 200 ] || { echo "sandbox-bench: recording events failed with $code: $(head -c 300 "$work/answer.json")"; exit 1; }
done
printf 'sandbox-bench: %d events recorded in %.1f s; %s rounds of %s s per run, %s connections\n' \
  "$events" "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')" "$rounds" "$seconds" "$connections"

# Each upload carries a record id no other upload of the whole run uses: wrk's thread number, the run's number (the
# script's argument, one per round) and a counter, so every POST of every round is a new event, not a duplicate.
cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
local run = 0
function init(args) run = tonumber(args[1]) or 0 end
local counter = 0
function request()
  counter = counter + 1
  local body = string.format('[{"record_id":"%08x-%04x-4000-9000-%012x","region_type":"geo",'
    .. '"occurred_at":"2026-11-21T08:00:00+0000","event_type":"entry","channel_id":"941030000",'
    .. '"trigger_subscription_id":"$subscription","installation_id":"bench"}]', tid, run, counter)
  return wrk.format(nil, nil, nil, body)
end
LUA

# settle: waits (up to 5 minutes) until the server answers a request that reads the database within 50 ms twice in
# a row, so requests still queued from one run (a slow route can leave many) do not slow the next one.
settle() {
  local fast=0 t
  for _ in $(seq 1 3000); do
    t=$(curl -s -o /dev/null -w '%{time_total}' --max-time 5 -H "Authorization: Bearer $token" \
      "$url/v2/connections/gx-weekly-deals" || echo 9)
    if awk -v t="$t" 'BEGIN { exit !(t < 0.05) }'; then fast=$((fast + 1)); [ "$fast" -ge 2 ] && return; else fast=0; fi
    sleep 0.1
  done
}

# run_wrk PATH [LUA [RUN]]: "requests/s p50 requests" (RUN is the Lua script's argument)
run_wrk() {
  local path="$1" lua="${2:-}" run="${3:-0}" out
  if [ -n "$lua" ]; then
    out=$(wrk -t2 -c"$connections" -d"${seconds}s" --timeout 30s --latency -s "$lua" "$url$path" -- "$run" 2>&1)
  else
    out=$(wrk -t2 -c"$connections" -d"${seconds}s" --timeout 30s --latency -H "Authorization: Bearer $token" "$url$path" 2>&1)
  fi
  : >"$work/server.log"
  settle
  local rps p50 bad requests
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  bad=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  if [ -z "$rps" ] || [ -n "$bad" ]; then
    echo "sandbox-bench: wrk on $path failed (non-2xx: ${bad:-?})" >&2; echo "$out" >&2; echo 0; return
  fi
  echo "$rps $p50 ${requests:-0}"
}

routes=("connection|/v2/connections/gx-arrive-store||GET /v2/connections/{id}|$goal_connection"
        "post|/v1/location_events|$work/post.lua|POST /v1/location_events (1 event)|$goal_post"
        "list|/v1/location_events?limit=100||GET /v1/location_events?limit=100|$goal_list")
for r in "${routes[@]}"; do : >"$work/ratios.${r%%|*}"; done

posted=0
printf '%-5s %-40s %10s %8s %10s %8s %7s\n' round route "health/s" "p50" "route/s" "p50" ratio
for ((round = 1; round <= rounds; round++)); do
  for r in "${routes[@]}"; do
    IFS='|' read -r key path lua label goal <<<"$r"
    read -r hrps hp50 _ <<<"$(run_wrk /health)"
    read -r rrps rp50 rcount <<<"$(run_wrk "$path" "$lua" "$round")"
    [ "$key" = post ] && posted=$((posted + ${rcount:-0}))
    ratio=$(awk -v h="$hrps" -v r="$rrps" 'BEGIN { if (r > 0) printf "%.2f", h / r; else print "inf" }')
    echo "$ratio" >>"$work/ratios.$key"
    printf '%-5s %-40s %10.0f %8s %10.0f %8s %6sx\n' "$round" "$label" "$hrps" "$hp50" "$rrps" "$rp50" "$ratio"
  done
done

rss_kb=$(awk '/VmHWM/ {print $2}' "/proc/$server_pid/status" 2>/dev/null || echo 0)
rss_mb=$(( rss_kb / 1024 ))

# Consistency: page through every event of alice once; the count must be the events recorded before the load plus
# the uploads wrk saw answered (wrk may stop with up to C requests still in flight, which the server still records).
count=0 cursor="" pages=0
while :; do
  q="limit=1000"; [ -n "$cursor" ] && q="$q&cursor=$cursor"
  curl -s -H "Authorization: Bearer $token" "$url/v1/location_events?$q" >"$work/page.json"
  n=$(grep -o '"record_id"' "$work/page.json" | wc -l)
  count=$((count + n)); pages=$((pages + 1))
  cursor=$(grep -o '"cursor":"[^"]*"' "$work/page.json" | head -1 | cut -d'"' -f4)
  [ -n "$cursor" ] || break
  [ "$pages" -lt 100000 ] || break
done

echo
status=0
printf '%-40s %6s %6s %6s %8s  %s\n' route min median max goal result
for r in "${routes[@]}"; do
  IFS='|' read -r key path lua label goal <<<"$r"
  read -r min med max <<<"$(sort -g "$work/ratios.$key" | awk '{v[NR] = $1} END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s %.2f %s", v[1], m, v[NR] }')"
  limit=$(( goal * factor ))
  verdict=$(awk -v m="$med" -v g="$goal" -v l="$limit" 'BEGIN {
    if (m == "inf" || m > l) print "FAIL"; else if (m <= g) print "meets goal"; else print "MISSES goal (within the check margin)" }')
  [ "$verdict" = FAIL ] && status=1
  printf '%-40s %5sx %5sx %5sx %6s  %s\n' "$label" "$min" "$med" "$max" "<=${goal}x" "$verdict"
done
rss_verdict="meets goal"; [ "$rss_mb" -ge "$goal_rss" ] && rss_verdict="MISSES goal"
[ "$rss_mb" -ge $(( goal_rss * factor )) ] && { rss_verdict=FAIL; status=1; }
printf '%-40s %20s %8s  %s\n' "peak RSS of the sandbox" "$rss_mb MB" "<${goal_rss} MB" "$rss_verdict"
printf 'events listed by cursor: %d in %d pages of up to 1000 (recorded before the load: %d)\n' "$count" "$pages" "$events"
# Every answered upload carried a new record id, so each one is a new event; up to C per round may still have been in
# flight when wrk stopped (recorded by the server, not counted by wrk).
new_events=$((count - events))
printf 'new events from the uploads: %d (uploads answered: %d)\n' "$new_events" "$posted"
if [ "$new_events" -lt "$posted" ] || [ "$new_events" -gt $((posted + connections * rounds)) ]; then
  echo "sandbox-bench: FAIL: the uploads answered and the new events differ (a record id used twice, or events lost)"
  status=1
fi
if [ "$count" -lt "$events" ]; then echo "sandbox-bench: FAIL: events are missing"; status=1; fi
[ "$check" -eq 1 ] && echo "(check mode: fails only beyond ${factor}x a goal)"
exit $status
