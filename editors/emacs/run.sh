#!/usr/bin/env bash
# Runs the batch Emacs test of the eglot snippet of editors/README.md
# (urlls-test.el) against a freshly built binary. Needs emacs (Debian's
# emacs-nox 28.2), Debian's elpa-eglot and elpa-markdown-mode, and go.
# Exits non-zero on any failure and then prints the server's log.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v emacs >/dev/null || { echo "run.sh: emacs not found" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/bin/urlls" ./cmd/urlls
# The server logs to a file through a wrapper: the snippet runs plain "urlls".
mkdir -p "$tmp/wrap"
cat > "$tmp/wrap/urlls" <<WRAP
#!/bin/sh
exec "$tmp/bin/urlls" serve --log-file "$tmp/server.log" --log-level debug "\$@"
WRAP
chmod +x "$tmp/wrap/urlls"

start=$(date +%s%N)
rc=0
URLLS_BIN="$tmp/wrap/urlls" TMPDIR="$tmp" HOME="$tmp" \
  timeout 120 emacs -Q --batch -l editors/emacs/urlls-test.el </dev/null || rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))

if [ "$rc" -ne 0 ]; then
  [ "$rc" -eq 124 ] && echo "run.sh: emacs timed out after 120 s"
  echo "run.sh: emacs test FAILED (exit $rc) after ${ms} ms"
  echo "---- server log ($tmp/server.log)"
  cat "$tmp/server.log" 2>/dev/null || echo "(none)"
  exit 1
fi
if grep -E $'\t(WARN|ERROR)\t|panic' "$tmp/server.log"; then
  echo "run.sh: the server logged warnings or errors (above)"
  exit 1
fi
echo "run.sh: emacs test passed in ${ms} ms"
