#!/bin/sh
# Builds the DocC archive of the Auditor library (Sources/Auditor/Auditor.docc plus the
# public symbols) into .build/docs/Auditor.doccarchive, failing on any DocC warning.
#   scripts/docs.sh                 # build and check
#   scripts/docs.sh --preview       # serve it on http://localhost:8080 (docc preview)
# Needs the toolchain's `docc` (Swift 6 toolchains for Linux ship it next to `swift`).
set -eu
cd "$(dirname "$0")/.."
docc=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
[ -x "$docc" ] || { echo "docs.sh: no docc in the toolchain (looked next to swift)" >&2; exit 69; }

# Public symbols only, as a library user sees them (SPI and package symbols are left out).
# dump-symbol-graph reads every module of the package, the test modules included, so they
# must be built (incremental after `swift build --build-tests`, as in .ci/run).
if ! out=$(swift build --build-tests 2>&1); then
    printf '%s\n' "$out" >&2
    echo "docs.sh: the package does not build; fix that first" >&2
    exit 1
fi
swift package dump-symbol-graph --skip-inherited-docs --minimum-access-level public >/dev/null
graphs=$(swift build --show-bin-path)/../symbolgraph
[ -d "$graphs" ] || graphs=.build/$(uname -m)-unknown-linux-gnu/symbolgraph
input=.build/docs/symbolgraph
rm -rf "$input" && mkdir -p "$input"
cp "$graphs"/Auditor.symbols.json "$input"/
for extension in "$graphs"/Auditor@*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$input"/
done

if [ "${1:-}" = "--preview" ]; then
    exec "$docc" preview Sources/Auditor/Auditor.docc --additional-symbol-graph-dir "$input" \
        --fallback-display-name Auditor --fallback-bundle-identifier org.auditor.Auditor
fi
rm -rf .build/docs/Auditor.doccarchive
"$docc" convert Sources/Auditor/Auditor.docc --additional-symbol-graph-dir "$input" \
    --fallback-display-name Auditor --fallback-bundle-identifier org.auditor.Auditor \
    --output-path .build/docs/Auditor.doccarchive --warnings-as-errors
echo "docs.sh: .build/docs/Auditor.doccarchive"
