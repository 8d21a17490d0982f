#!/usr/bin/env bash
# Builds the VS Code extension and packages it with the linux-x64 server:
# npm ci (package-lock.json), type check, unit tests, `go build` of
# cmd/urlls into bin/linux-x64/urlls, then `vsce package`, which bundles
# src/ with esbuild (vscode:prepublish). Writes editors/vscode/urlls-VERSION.vsix
# and prints its path last. Needs Node >= 20, npm and Go.
set -euo pipefail
ext="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$ext/../.." && pwd)"
fail() { echo "package.sh: FAIL: $*" >&2; exit 1; }

node_major="$(node -p 'process.versions.node.split(".")[0]')" || fail "node not found"
[ "$node_major" -ge 20 ] || fail "@vscode/vsce 3 needs Node >= 20, found $(node --version)"

cd "$ext"
version="$(node -p 'require("./package.json").version')"
vsix="$ext/urlls-$version.vsix"

echo "-- npm ci (editors/vscode)"
npm ci --no-audit --no-fund --loglevel=error
echo "-- type check (tsc --noEmit)"
npm run -s typecheck
echo "-- unit tests (node --test)"
testlog="$(mktemp)"
trap 'rm -f "$testlog"' EXIT
npm test --silent >"$testlog" 2>&1 || { cat "$testlog"; fail "unit tests failed"; }
pass="$(sed -n 's/^# pass //p' "$testlog")"; nfail="$(sed -n 's/^# fail //p' "$testlog")"
[ -n "$pass" ] && [ "$pass" -gt 0 ] || { cat "$testlog"; fail "no unit test ran"; }
echo "unit tests: $pass passed, $nfail failed"

echo "-- go build: bin/linux-x64/urlls"
rm -rf "$ext/bin" "$ext"/*.vsix
mkdir -p "$ext/bin/linux-x64"
(cd "$root" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -o "$ext/bin/linux-x64/urlls" ./cmd/urlls)
"$ext/bin/linux-x64/urlls" version

echo "-- vsce package"
npm run -s package -- --out "$vsix" 2>&1 | grep -v '^npm warn' | grep -vE '^\s*$'
python3 - "$vsix" <<'PY' || fail "$vsix lacks what it must ship"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
need = ["extension/package.json", "extension/dist/extension.js", "extension/readme.md", "extension/LICENSE.txt",
        "extension/changelog.md", "extension/images/screenshot.png", "extension/bin/linux-x64/urlls"]
missing = [n for n in need if n not in names]
if missing:
    sys.exit("missing in the vsix: " + ", ".join(missing))
mode = (z.getinfo("extension/bin/linux-x64/urlls").external_attr >> 16) & 0o777
if not mode & 0o100:
    sys.exit("bin/linux-x64/urlls is not executable in the vsix (mode %o)" % mode)
print("vsix holds %d files, the server with mode %o" % (len(names), mode))
PY
echo "$vsix"
