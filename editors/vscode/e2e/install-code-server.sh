#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3; it needs Node 20) from the npm
# registry into DIR, by default $HOME/.cache/urlls-ci/code-server-4.100.3 — a
# cache outside the repository, so later runs only check a marker file.
#
# Why not `npm install -g code-server`: its postinstall.sh refuses root
# without --unsafe-perm and runs a nested `npm install` whose @vscode/ripgrep
# downloads a binary from outside the npm registry, which fails here. So the
# install scripts are skipped and postinstall.sh's steps are done by hand:
# the dependencies of lib/vscode and its extensions from their
# npm-shrinkwrap.json files, the native modules rebuilt from source (node-gyp
# with Node's headers), Debian's ripgrep in place of the download, and the
# symlinks postinstall.sh makes. The top-level tree is pinned by
# code-server/package-lock.json beside this script.
#
# Needs root for apt-get when g++, make, libkrb5-dev or ripgrep are missing.
# Usage: install-code-server.sh [DIR]. Reports progress on stderr and prints
# the install directory on stdout.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version=4.100.3
dir="${1:-${URLLS_CODE_SERVER_DIR:-$HOME/.cache/urlls-ci/code-server-$version}}"
marker="$dir/.urlls-installed"

fail() { echo "install-code-server.sh: FAIL: $*" >&2; exit 1; }

node_major="$(node -p 'process.versions.node.split(".")[0]')" || fail "node not found"
[ "$node_major" = 20 ] || fail "code-server $version runs on Node 20, found Node $(node --version)"

# A finished install is one whose marker names this version and lockfile.
want="code-server $version $(sha256sum "$here/code-server/package-lock.json" | cut -c1-16)"
if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ] && [ -x "$dir/node_modules/.bin/code-server" ]; then
  echo "code-server $version: cached in $dir" >&2
  echo "$dir"
  exit 0
fi

missing=()
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
command -v rg >/dev/null || missing+=(ripgrep)
[ -e /usr/include/krb5.h ] || [ -e /usr/include/krb5/krb5.h ] || missing+=(libkrb5-dev)  # kerberos builds from source
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}" >&2
  { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2; } \
    || fail "apt-get install ${missing[*]} failed (run as root)"
fi

echo "installing code-server $version into $dir (a few minutes the first time)" >&2
start=$SECONDS
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
cp "$here/code-server/package.json" "$here/code-server/package-lock.json" "$dir.tmp/"
cd "$dir.tmp"
log="$dir.tmp/install.log"
run() { "$@" >>"$log" 2>&1 || { tail -n 40 "$log" >&2; fail "$* (in $PWD; log $log)"; }; }

# 1) the pinned tree; allowScripts in package.json lets argon2 build (its
#    prebuilt download fails, node-pre-gyp falls back to a source build) and
#    keeps code-server's postinstall.sh from running.
export npm_config_build_from_source=true  # node-pre-gyp: no download attempt
# node-gyp builds against the headers of Debian's nodejs instead of
# downloading them (which fails here).
if [ -z "${npm_config_nodedir:-}" ] && [ -e /usr/include/node/node.h ]; then
  export npm_config_nodedir=/usr
fi
run npm ci --no-audit --no-fund --foreground-scripts
test -f node_modules/argon2/lib/binding/napi-v3/argon2.node || run npm rebuild argon2 --foreground-scripts
test -f node_modules/argon2/lib/binding/napi-v3/argon2.node || fail "argon2 did not build (log $log)"

# 2) postinstall.sh by hand.
cd node_modules/code-server/lib/vscode
run npm install --omit=dev --no-audit --no-fund --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
# node-pty's post-install.js fails at its last step (npx node-gyp
# compile_commands) after pty.node is built: the files are checked below.
npm rebuild @parcel/watcher @vscode/spdlog kerberos native-watchdog node-pty @vscode/deviceid --foreground-scripts >>"$log" 2>&1 || true
for f in node_modules/@vscode/spdlog/build/Release/spdlog.node node_modules/node-pty/build/Release/pty.node \
         node_modules/kerberos/build/Release/kerberos.node node_modules/native-watchdog/build/Release/watchdog.node \
         node_modules/@parcel/watcher/build/Release/watcher.node; do
  test -f "$f" || { tail -n 40 "$log" >&2; fail "native module $f did not build (log $log)"; }
done
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sf code-linux.sh code-server)
(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
cd extensions
run npm install --omit=dev --no-audit --no-fund --ignore-scripts
run node ./postinstall.mjs

cd "$dir.tmp"
got="$(XDG_CONFIG_HOME="$dir.tmp/.xdg" XDG_DATA_HOME="$dir.tmp/.xdg" node_modules/.bin/code-server --version 2>>"$log" | tail -n 1)" \
  || fail "code-server --version failed (log $log)"
case "$got" in "$version "*) ;; *) fail "code-server --version printed: $got" ;; esac
rm -rf "$dir.tmp/.xdg"
echo "$want" > "$dir.tmp/.urlls-installed"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "code-server $version installed in $((SECONDS - start)) s: $got" >&2
echo "$dir"
