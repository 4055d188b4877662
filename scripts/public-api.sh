#!/bin/sh
# Prints the top-level public declarations of the library modules (Auditor, Readers, Reports),
# one per line: `<module> [spi] <kind> <name>`, sorted. `scripts/public-api.txt` is the
# committed allow-list that PublicSurfaceTests compares this with: a new public type is a
# deliberate change, made by adding its line there.
#   scripts/public-api.sh | diff scripts/public-api.txt -     # what changed
# An optional argument names another package root (the tests scan a scratch copy).
set -eu
cd "${1:-$(dirname "$0")/..}"
for module in Auditor Readers Reports; do
    [ -d "Sources/$module" ] || continue
    find "Sources/$module" -name '*.swift' | sort | while read -r file; do
        awk -v module="$module" '
            { line = $0 }
            match(line, /^(@[A-Za-z_]+(\([A-Za-z_]+\))? +)*(public|open) +((final|indirect) +)*(struct|class|enum|protocol|actor|typealias|func|var|let|extension) +[A-Za-z_][A-Za-z0-9_]*/) {
                decl = substr(line, 1, RLENGTH)
                spi = (decl ~ /@_spi/ || previous ~ /^@_spi\([A-Za-z_]+\) *$/) ? " spi" : ""
                n = split(decl, words, / +/)
                print module spi " " words[n - 1] " " words[n]
            }
            { previous = line }' "$file"
    done
done | sort
