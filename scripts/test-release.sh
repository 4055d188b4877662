#!/bin/sh
# Tries the release tarball in a clean Debian 12 root with no Swift (issue 23):
# debootstraps a minimal root (cached in $AUDITOR_TEST_ROOT, default
# /var/cache/auditor/bookworm-minbase), unpacks the tarball there and runs, with chroot,
# `auditor --version` and an audit of the bundled example (exit 1: it has errors by design)
# and of a 10-row file that passes (exit 0). Needs root, debootstrap and Debian's mirror.
#
#   scripts/test-release.sh [TARBALL]      (default: make one with scripts/release.sh)
set -eu
cd "$(dirname "$0")/.."
tarball=${1:-}
[ -n "$tarball" ] || tarball=$(sh scripts/release.sh | tail -1)
[ -f "$tarball" ] || { echo "test-release.sh: no tarball '$tarball'" >&2; exit 66; }
command -v debootstrap > /dev/null || { echo "test-release.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 69; }

cache=${AUDITOR_TEST_ROOT:-/var/cache/auditor/bookworm-minbase}
packages=libsqlite3-0,libxml2,libpq5,libssl3
if [ ! -x "$cache/bin/sh" ] || [ "$(cat "$cache/.complete" 2> /dev/null)" != "$packages" ]; then
    rm -rf "$cache"
    mkdir -p "$cache"
    # Only what the INSTALL file names as runtime packages, on top of minbase.
    debootstrap --variant=minbase --include=$packages bookworm "$cache" http://deb.debian.org/debian >&2
    echo "$packages" > "$cache/.complete"
fi
root=$(mktemp -d)
cp -a "$cache/." "$root/"
# A real machine has /proc (the Swift runtime of a static binary reads its arguments there).
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2> /dev/null; rm -rf "$root"' EXIT
if [ -e "$root/usr/bin/swift" ] || ls "$root"/usr/lib/swift* > /dev/null 2>&1; then
    echo "test-release.sh: the root has Swift in it; it must not" >&2; exit 1
fi
mkdir -p "$root/opt"
tar -C "$root/opt" -xzf "$tarball"
dir=$(basename "$tarball" .tar.gz)
bin=/opt/$dir/bin/auditor

fail() { echo "test-release.sh: FAILED: $*" >&2; exit 1; }
version=$(chroot "$root" "$bin" --version) || fail "auditor --version in the clean root"
echo "auditor --version in a clean Debian 12 root: $version"
chroot "$root" ldd "$bin" | grep -q "not found" && fail "missing libraries: $(chroot "$root" ldd "$bin" | grep 'not found')"

status=0
chroot "$root" "$bin" run "/opt/$dir/share/auditor/rules/people.yml" --format json --output /tmp/report.json --quiet || status=$?
[ "$status" = 1 ] || fail "the bundled example should exit 1 (errors by design); got $status"
grep -q '"ruleID"\|"rules"' "$root/tmp/report.json" || fail "no JSON report from the audit"

mkdir -p "$root/tmp/ten"
printf 'id,name,age\n' > "$root/tmp/ten/people.csv"
for i in 1 2 3 4 5 6 7 8 9 10; do printf '%s,Person %s,%s\n' "$i" "$i" "$((20 + i))" >> "$root/tmp/ten/people.csv"; done
cat > "$root/tmp/ten/rules.yml" <<'YAML'
version: 1
sources:
  people: { path: people.csv }
entities:
  Person:
    source: people
    key: [id]
    attributes:
      id: { type: integer, required: true, unique: true }
      name: { type: string, required: true, minLength: 1 }
      age: { type: integer, min: 0, max: 150 }
YAML
status=0
chroot "$root" "$bin" run /tmp/ten/rules.yml --quiet > "$root/tmp/ten/report.txt" || status=$?
[ "$status" = 0 ] || fail "the 10-row audit should pass (exit 0); got $status: $(cat "$root/tmp/ten/report.txt")"
echo "test-release.sh: the tarball runs in a clean Debian 12 root (no Swift): --version, the bundled example (exit 1), a 10-row audit (exit 0)"
