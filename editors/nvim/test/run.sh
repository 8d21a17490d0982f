#!/usr/bin/env bash
# Runs the headless Neovim test of `urlls serve` (server_test.lua) against a
# freshly built binary. Needs nvim (Debian's 0.7.2 is what CI installs) and go.
# Exits non-zero on any failure and then prints the server's log and the tail
# of Neovim's LSP log (the message trace).
set -euo pipefail
cd "$(dirname "$0")/../../.."

command -v nvim >/dev/null || { echo "run.sh: nvim not found" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/urlls" ./cmd/urlls

# A private cache and state: Neovim's lsp.log goes to $XDG_CACHE_HOME/nvim.
mkdir -p "$tmp/cache" "$tmp/state" "$tmp/data"
start=$(date +%s%N)
rc=0
URLLS_BIN="$tmp/urlls" URLLS_LOG="$tmp/server.log" \
  TMPDIR="$tmp" XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
  timeout 120 nvim --headless -u NONE -i NONE -n \
  -c 'lua vim.lsp.set_log_level("debug")' \
  -c 'luafile editors/nvim/test/server_test.lua' </dev/null || rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))

if [ "$rc" -ne 0 ]; then
  [ "$rc" -eq 124 ] && echo "run.sh: nvim timed out after 120 s"
  echo "run.sh: nvim test FAILED (exit $rc) after ${ms} ms"
  echo "---- server log ($tmp/server.log)"
  cat "$tmp/server.log" 2>/dev/null || echo "(none)"
  echo "---- Neovim LSP log, last 200 lines"
  tail -n 200 "$tmp"/cache/nvim/lsp.log 2>/dev/null || echo "(none)"
  exit 1
fi
echo "run.sh: nvim test passed in ${ms} ms"
