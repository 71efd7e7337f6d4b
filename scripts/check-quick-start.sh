#!/usr/bin/env bash
# The README's quick start as a newcomer meets it: `npm start` (after `npm ci`) on an empty data
# folder must build, start on the embedded database, answer /healthz, serve the sign-in page, print
# the banner with the generated password, and accept that password. Run by .ci/run on every landing.
set -euo pipefail
cd "$(dirname "$0")/.."

data_dir=$(mktemp -d)
log="$data_dir/start.log"
port=$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
base="http://127.0.0.1:$port"

fail() {
  echo "quick start check failed: $*" >&2
  echo "--- what npm start printed ---" >&2
  cat "$log" >&2 || true
  exit 1
}

echo "quick start: npm start on an empty data folder, port $port"
started=$(date +%s)
DATA_DIR="$data_dir/data" PORT=$port setsid npm start >"$log" 2>&1 &
pid=$!
cleanup() {
  kill -INT -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$data_dir"
}
trap cleanup EXIT

until curl -fs "$base/healthz" >/dev/null 2>&1; do
  kill -0 "$pid" 2>/dev/null || fail "npm start exited before /healthz answered"
  [ $(($(date +%s) - started)) -lt 300 ] || fail "/healthz did not answer within 300 s"
  sleep 0.5
done
# The banner is printed right after the server starts listening.
for _ in $(seq 1 20); do grep -q "Ledgerline is ready" "$log" && break; sleep 0.25; done
echo "quick start: /healthz answered after $(($(date +%s) - started)) s"

[ "$(curl -fs "$base/healthz")" = '{"status":"ok"}' ] || fail "/healthz did not answer {\"status\":\"ok\"}"

page=$(curl -fs "$base/login") || fail "GET /login failed"
grep -q '<div id="root">' <<<"$page" || fail "GET /login did not serve the web app"
script=$(grep -o 'src="/assets/[^"]*\.js"' <<<"$page" | head -1 | cut -d'"' -f2)
[ -n "$script" ] || fail "the page names no script"
curl -fs "$base$script" | grep -q "Please log in to continue" || fail "the app's script lacks the sign-in page"

grep -q "Ledgerline is ready: open $base" "$log" || fail "the banner does not name the address"
password=$(grep -o "with the password [^ ]*" "$log" | head -1 | cut -d' ' -f4)
[ -n "$password" ] || fail "the banner does not show the generated password"
profile=$(curl -fs -H "Origin: $base" --data-urlencode username=admin --data-urlencode "password=$password" "$base/auth/login") ||
  fail "signing in with the printed password failed"
grep -q '"username":"admin"' <<<"$profile" || fail "signing in did not answer the profile"

if grep -Eq "EBADENGINE|DeprecationWarning|ExperimentalWarning" "$log"; then
  fail "npm start printed an engine or deprecation warning"
fi
echo "quick start: built, started, served the sign-in page and signed in as admin"
