#!/bin/sh
# Regenerates docs/auditor.1, the man page, from the command model (swift-argument-parser's
# generate-manual plugin reads `auditor --experimental-dump-help`). Run it after changing any
# command, option or help text; the test "the man page documents every command and option"
# fails until you do.
#   scripts/generate-manual.sh [DATE]      DATE: yyyy-mm-dd printed in the page (default today, UTC)
set -eu
cd "$(dirname "$0")/.."
date=${1:-$(date -u +%Y-%m-%d)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift package plugin generate-manual --date "$date" --section 1 --output-directory "$out"
cp "$out/auditor.1" docs/auditor.1
echo "wrote docs/auditor.1"
