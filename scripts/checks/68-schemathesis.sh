#!/usr/bin/env bash
# lane: 2
# Conformance of the sandbox to its OpenAPI document (Sandbox/openapi.json, the Connect API as IFTTT documents it),
# judged by schemathesis, a tool no one here wrote: it starts the debug-built `ifttt-connect sandbox --port 0` on a
# fresh database, runs a bounded, seeded number of generated requests per operation with the demo's credentials,
# with all of schemathesis's default checks (server errors, undocumented statuses, content types, response headers and
# schemas, schema-violating requests the server accepts, valid ones it refuses, missing required headers, unsupported
# methods and their Allow header, ignored authentication, use after delete, resource availability) and the stateful
# phase's links. The document and the server agree: the only allowances, in the configuration below, are rules
# OpenAPI cannot state (a parameter required only with another's value, a value the server issued or registered),
# each limited to the operations and the status it concerns. Prints schemathesis's summary; on failure keeps its
# report (JUnit XML and the NDJSON event log) under .build-schemathesis/report and says where.
#
# schemathesis (pinned below) is installed with pip, when missing, into a venv kept per version in the user's cache
# (IFTTT_TOOLS_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/ifttt-connect-sdk; .build-schemathesis/ when that cannot be
# written), as SwiftPM keeps its clones of the dependencies: a fresh clone does not install it again (9 s of CPU).
# The binary is the test command's debug build (`swift build --package-path Sandbox`), built when missing, as
# scripts/checks/67-readme-commands.sh does; `--scratch-path DIR` uses another build directory's binary instead, and
# `--binary PATH` a given ifttt-connect (with its resource bundle beside it).
#
# Usage: scripts/checks/68-schemathesis.sh [--scratch-path DIR | --binary PATH] [--examples N] [--seed N]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root="$(pwd)"
version="4.32.5"
examples=25
seed=20
scratch=()
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
    --examples) examples="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --binary) binary="$2"; shift 2 ;;
    *) echo "usage: scripts/checks/68-schemathesis.sh [--scratch-path DIR | --binary PATH] [--examples N] [--seed N]" >&2
       exit 64 ;;
  esac
done

cache="$root/.build-schemathesis"
report="$cache/report"
tools="${IFTTT_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ifttt-connect-sdk}"
if mkdir -p "$tools" 2>/dev/null && [ -w "$tools" ]; then venv="$tools/schemathesis-$version"; else venv="$cache/venv"; fi
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -INT "$server_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# schemathesis, pinned, in a venv of its own; installed under a lock, since two test runs may share the cache.
install_schemathesis() {
  "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$version" && return 0
  echo "schemathesis: installing schemathesis $version into $venv"
  rm -rf "$venv"
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q "schemathesis==$version"; } >"$work/pip.log" 2>&1; then
    tail -20 "$work/pip.log"; rm -rf "$venv"; echo "schemathesis: could not install schemathesis $version"; return 1
  fi
}
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
install_schemathesis || exit 1
exec 9>&-

# The sandbox: the debug ifttt-connect of the test command.
if [ -n "$binary" ]; then
  bin_dir="$(cd "$(dirname "$binary")" && pwd)"
elif ! bin_dir="$(swift build --package-path Sandbox "${scratch[@]}" --show-bin-path 2>/dev/null)"; then
  echo "schemathesis: swift build --show-bin-path failed"; exit 1
fi
if [ -z "$binary" ] && [ ! -x "$bin_dir/ifttt-connect" ]; then
  echo "schemathesis: building ifttt-connect (debug, as scripts/test.sh does)"
  if ! swift build --package-path Sandbox "${scratch[@]}" --build-tests -Xswiftc -warnings-as-errors >"$work/build.log" 2>&1; then
    grep -E -A3 'error:' "$work/build.log" | head -40; echo "schemathesis: the build failed"; exit 1
  fi
fi
"$bin_dir/ifttt-connect" sandbox --port 0 --ephemeral >"$work/sandbox.out" 2>"$work/sandbox.err" &
server_pid=$!
url=""
for _ in $(seq 300); do
  url="$(sed -n 's/^IFTTT Connect sandbox listening on //p' "$work/sandbox.out" | head -1)"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  cat "$work/sandbox.err" | tail -20; echo "schemathesis: the sandbox did not start"; exit 1
fi

# The demo seed's credentials, one per security scheme of the document; each operation gets the ones it declares.
cat >"$work/schemathesis.toml" <<TOML
[auth.openapi.ServiceKey]
api_key = "sandbox-service-key-grocery-express"

[auth.openapi.UserToken]
bearer = "sandbox-user-token-alice"

# What remains is what OpenAPI 3.1 cannot state, so schemathesis's positive_data_acceptance (every schema-valid
# request is one the server must take) cannot know it; the server and the document agree on everything else, and each
# case below is the one status it needs. Each is a rule of the real API that the schema language has no word for:
# - the HTML pages: a parameter required only when another has a given value (redirect_uri once skip_config=true,
#   sdk_return_to a redirect URL registered for the service, one of the service's data, not of the document): 400.
# - GET /v1/location_events: a cursor must be one the list issued (opaque, server state): 400.
# - run, perform, test with the service key: user_id in the query OR in the body (OpenAPI has no "one of two
#   locations"), 400 when neither; run, test and PUT .../user_connection: a field id must be one of the Connection's
#   own fields (the seed's data, not the document's), 422 otherwise.
[[operations]]
include-name = ["GET /access/api/{connection_id}", "GET /connect/{connection_id}", "GET /embed/{service_id}/applets/{applet_id}", "GET /v1/location_events", "POST /v2/connections/{connection_id}/queries/{query_id}/perform"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]

[[operations]]
include-name = ["POST /v2/connections/{connection_id}/actions/{action_id}/run", "POST /v2/connections/{connection_id}/triggers/{trigger_id}/test"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "422", "429", "5xx"]

[[operations]]
include-name = ["PUT /v2/connections/{connection_id}/user_connection"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
TOML

rm -rf "$report"
start=$SECONDS
# From the scratch directory, so that nothing schemathesis writes lands in the repository.
(cd "$work" && "$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" run "$url/openapi.json" --url "$url" \
  --max-examples "$examples" --seed "$seed" --generation-database none --workers 1 \
  --phases examples,coverage,fuzzing,stateful \
  --request-timeout 10 --no-color --output-truncate true \
  --report junit,ndjson --report-dir "$work/report") >"$work/run.log" 2>&1
rc=$?
# The summary: from schemathesis's results section to its closing line.
sed -n '/^=* *SUMMARY *=*$/,$p' "$work/run.log" | sed '/^Reports:/,/^$/d' | sed 's/^/   /'
if [ "$rc" -ne 0 ]; then
  mkdir -p "$report"
  cp -r "$work/report/." "$report/" 2>/dev/null
  cp "$work/run.log" "$report/run.log"
  cp "$work/sandbox.err" "$report/sandbox.log"
  grep -E -A12 '^_+ .* _+$' "$work/run.log" | head -80
  echo "schemathesis: FAILED (exit $rc) after $((SECONDS - start)) s; the report is in $report"
  exit 1
fi
echo "   schemathesis $version against $url: $examples examples per operation, seed $seed, $((SECONDS - start)) s"
