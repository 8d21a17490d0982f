#!/usr/bin/env bash
# The work of the GitHub Action of urlls (action.yml at the repository's
# root), run by the runner in the workspace:
#
# 1. Install urlls: with URLLS_VERSION empty, build it from the action's own
#    checkout (GITHUB_ACTION_PATH, the ref named in "uses:"); otherwise
#    "go install github.com/urlls/urlls/cmd/urlls@$URLLS_VERSION". The
#    binary goes to RUNNER_TEMP, which later steps find on PATH
#    (GITHUB_PATH).
# 2. Run "urlls check --format github $URLLS_ARGS -- $URLLS_PATHS": each
#    finding becomes an annotation (errors, warnings, notices), the closing
#    summary goes to the log, the job summary (GITHUB_STEP_SUMMARY) and the
#    step's "summary" output (GITHUB_OUTPUT).
# 3. With URLLS_SARIF_FILE set, run it again with --format sarif into that
#    file, and set the "sarif-file" output.
#
# It exits as urlls check does: 0 when no finding is an error, 1 when some
# are, 2 on a usage or I/O error. CI runs it outside GitHub with the
# environment a runner sets (editors/nvim/test/snippets_test.py).
set -euo pipefail

: "${GITHUB_ACTION_PATH:?not set: run by the action (action.yml)}"
workspace="${GITHUB_WORKSPACE:-$PWD}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
bindir="$(mktemp -d "$temp/urlls.XXXXXX")"
urlls="$bindir/urlls$(go env GOEXE)" # urlls.exe on Windows, as go install names it

echo "::group::Install urlls"
if [ -z "${URLLS_VERSION:-}" ]; then
  echo "go build ./cmd/urlls in $GITHUB_ACTION_PATH"
  (cd "$GITHUB_ACTION_PATH" && go build -o "$urlls" ./cmd/urlls)
else
  echo "go install github.com/urlls/urlls/cmd/urlls@$URLLS_VERSION"
  GOBIN="$bindir" go install "github.com/urlls/urlls/cmd/urlls@$URLLS_VERSION"
fi
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$bindir" >> "$GITHUB_PATH"
fi
"$urlls" version
echo "::endgroup::"

# Split the inputs at white space, with no glob expansion: a path or an
# argument is passed as written.
set -f
read -r -d '' -a paths <<< "${URLLS_PATHS:-.}" || true
read -r -d '' -a args <<< "${URLLS_ARGS:-}" || true
set +f
if [ "${#paths[@]}" -eq 0 ]; then
  paths=(.)
fi

cd "$workspace"
errors="$bindir/stderr"
status=0
# ${args[@]+...}: an empty array is no error under set -u in bash 3.2 (macOS).
"$urlls" check --format github ${args[@]+"${args[@]}"} -- "${paths[@]}" 2> "$errors" || status=$?
cat "$errors" >&2
summary="$(grep -E '; [0-9,]+ URLs? in [0-9,]+ files? checked$' "$errors" | tail -n 1 || true)"
if [ -n "$summary" ]; then
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "summary=$summary" >> "$GITHUB_OUTPUT"
  fi
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '### urlls\n\n%s\n' "$summary" >> "$GITHUB_STEP_SUMMARY"
  fi
fi

if [ -n "${URLLS_SARIF_FILE:-}" ]; then
  sarif_status=0
  "$urlls" check --format sarif --quiet ${args[@]+"${args[@]}"} -- "${paths[@]}" > "$URLLS_SARIF_FILE" 2> "$errors" || sarif_status=$?
  if [ "$sarif_status" -gt 1 ]; then
    cat "$errors" >&2
    echo "::error title=urlls::could not write SARIF to $URLLS_SARIF_FILE (exit $sarif_status)"
    exit "$sarif_status"
  fi
  echo "SARIF written to $URLLS_SARIF_FILE"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "sarif-file=$URLLS_SARIF_FILE" >> "$GITHUB_OUTPUT"
  fi
fi
exit "$status"
