#!/usr/bin/env bash
# Writes the format-1 fixture: a backup (data.mdb + manifest.json) of a data directory holding the
# events of format-1-events.jsonl, made by the first release. Kept as it is: later releases must
# open and migrate it. Run from the repository root after `swift build`.
set -euo pipefail
here="Tests/EventLogTests/Fixtures"
muster="$(swift build --show-bin-path)/muster"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$muster" import --data "$work/data" "$here/format-1-events.jsonl"
"$muster" rebuild --data "$work/data"
rm -rf "$here/format-1"
"$muster" backup --data "$work/data" "$here/format-1"
