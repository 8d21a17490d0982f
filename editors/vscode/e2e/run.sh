#!/usr/bin/env bash
# The VS Code end-to-end test: installs VSIX into code-server 4.100.3 (real
# VS Code 1.100.3; installed by install-code-server.sh into a cache outside
# the repository), serves the workbench on 127.0.0.1 only with --auth none,
# and drives it in Debian's Chromium through playwright-core (test.js).
#
#   bash editors/vscode/e2e/run.sh VSIX
#
# Installs Debian's chromium when it is missing (root). Never skips: anything
# missing or broken is a failure. Screenshots go to e2e/results/ (hover.png,
# final.png; failure.png on failure), and on failure the code-server and
# extension logs are printed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
vsix="${1:?usage: run.sh VSIX}"
vsix="$(cd "$(dirname "$vsix")" && pwd)/$(basename "$vsix")"
results="${URLLS_E2E_RESULTS:-$here/results}"
fail() { echo "e2e/run.sh: FAIL: $*" >&2; exit 1; }
[ -f "$vsix" ] || fail "no such file: $vsix"
start=$SECONDS

# Debian's Chromium.
if ! command -v chromium >/dev/null; then
  echo "chromium not found: installing Debian's chromium"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null; } \
    || fail "could not install chromium (apt-get update && apt-get install -y chromium)"
fi
chromium_version="$(chromium --version 2>/dev/null)" || fail "chromium --version failed"
echo "$chromium_version"

# code-server, cached outside the repository.
cs_dir="$(bash "$here/install-code-server.sh")" || fail "installing code-server"
cs="$cs_dir/node_modules/.bin/code-server"
[ -x "$cs" ] || fail "code-server missing at $cs"

# playwright-core, pinned by e2e/package-lock.json.
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci in $here"

tmp="$(mktemp -d)"
cspid=""
cleanup() {
  if [ -n "$cspid" ]; then
    kill -- "-$cspid" 2>/dev/null || true # the whole group: extension host, watchers, urlls
    wait "$cspid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# Private state: code-server's config, VS Code's user data and extensions.
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/share" XDG_CACHE_HOME="$tmp/cache"
data="$tmp/data" exts="$tmp/extensions" ws="$tmp/ws"
mkdir -p "$data/User" "$exts" "$ws"
cp "$here/user-settings.json" "$data/User/settings.json"
cp -r "$here/workspace/." "$ws/"

echo "-- code-server --install-extension $(basename "$vsix")"
"$cs" --user-data-dir "$data" --extensions-dir "$exts" --install-extension "$vsix" --force >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log"; fail "code-server --install-extension $vsix"; }
ls -d "$exts"/urlls.urlls-* >/dev/null 2>&1 || { cat "$tmp/install.log"; fail "the extension is not in $exts after the install"; }

# A PATH without urlls, so the extension must find the binary it ships.
clean_path=""
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [ -n "$d" ] && [ ! -e "$d/urlls" ] && clean_path="${clean_path:+$clean_path:}$d"
done

port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
echo "-- code-server on 127.0.0.1:$port"
PATH="$clean_path" setsid "$cs" --user-data-dir "$data" --extensions-dir "$exts" \
  --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --ignore-last-opened "$ws" \
  >"$tmp/code-server.log" 2>&1 &
cspid=$!
up=""
for _ in $(seq 1 100); do
  if node -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "http://127.0.0.1:$port/healthz"; then up=1; break; fi
  kill -0 "$cspid" 2>/dev/null || break
  sleep 0.2
done
[ -n "$up" ] || { cat "$tmp/code-server.log"; fail "code-server did not come up on 127.0.0.1:$port"; }

echo "-- Chromium + playwright-core (e2e/test.js)"
rm -rf "$results"
rc=0
PATH="$clean_path" timeout 240 node "$here/test.js" "http://127.0.0.1:$port/?folder=$ws" "$ws" "$results" "$exts" || rc=$?
if [ "$rc" -ne 0 ]; then
  [ "$rc" -eq 124 ] && echo "e2e/run.sh: test.js timed out after 240 s"
  echo "---- code-server log"
  cat "$tmp/code-server.log"
  for f in $(find "$data/logs" -type f \( -name '*urlls*' -o -name 'exthost.log' -o -name 'remoteexthost.log' \) 2>/dev/null); do
    echo "---- $f (last 80 lines)"
    tail -n 80 "$f"
  done
  fail "the VS Code end-to-end test failed after $((SECONDS - start)) s (screenshots in $results)"
fi
echo "-- the urlls output channel, without the trace:"
find "$data/logs" -type f -name '*urlls*' -exec grep -hv '^\[Trace' {} + 2>/dev/null | grep -v '^\s*$' | head -n 12 || true
echo "e2e/run.sh: VS Code end-to-end test passed in $((SECONDS - start)) s; screenshots in $results"
