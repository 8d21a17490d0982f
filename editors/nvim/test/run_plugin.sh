#!/usr/bin/env bash
# Runs the headless test of the urlls Neovim plugin (plugin_test.lua) against
# a freshly built binary. Needs nvim (Debian's 0.7.2 is what CI installs) and
# go. The plugin is copied to a temporary directory first, so that :helptags
# writes its tags file there rather than into the work tree, and so that the
# test sees the plugin as a user would: on 'runtimepath' before startup, its
# plugin/ file loaded by Neovim. Exits non-zero on any failure and then prints
# the server's log and the tail of Neovim's LSP log.
set -euo pipefail
cd "$(dirname "$0")/../../.."

command -v nvim >/dev/null || { echo "run_plugin.sh: nvim not found" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/bin/urlls" ./cmd/urlls
plugin="$tmp/urlls.nvim"
mkdir -p "$plugin"
cp -R editors/nvim/lua editors/nvim/plugin editors/nvim/lsp editors/nvim/doc "$plugin/"
rm -f "$plugin/doc/tags"

mkdir -p "$tmp/cache" "$tmp/state" "$tmp/data" "$tmp/config"
start=$(date +%s%N)
rc=0
# -u NORC: no init file, but plugins load (the copy is first on 'runtimepath').
URLLS_BIN="$tmp/bin/urlls" URLLS_PLUGIN="$plugin" URLLS_LOG="$tmp/server.log" \
  TMPDIR="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state" \
  XDG_DATA_HOME="$tmp/data" \
  timeout 120 nvim --headless -u NORC -i NONE -n \
  --cmd "set runtimepath^=$plugin" \
  -c 'lua vim.lsp.set_log_level("debug")' \
  -c 'luafile editors/nvim/test/plugin_test.lua' </dev/null || rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))

if [ "$rc" -ne 0 ]; then
  [ "$rc" -eq 124 ] && echo "run_plugin.sh: nvim timed out after 120 s"
  echo "run_plugin.sh: plugin test FAILED (exit $rc) after ${ms} ms"
  echo "---- server log ($tmp/server.log)"
  cat "$tmp/server.log" 2>/dev/null || echo "(none)"
  echo "---- Neovim LSP log, last 200 lines"
  tail -n 200 "$tmp"/cache/nvim/lsp.log 2>/dev/null || echo "(none)"
  exit 1
fi
echo "run_plugin.sh: plugin test passed in ${ms} ms"
