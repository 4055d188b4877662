#!/bin/sh
# Builds auditor for release and installs it, with its man page and shell completions.
#
#   scripts/install.sh [--prefix DIR] [--destdir DIR] [--no-build] [--binary PATH]
#
#   --prefix DIR    where it is installed (default /usr/local): DIR/bin/auditor,
#                   DIR/share/man/man1/auditor.1, the bash, zsh and fish completions, and
#                   DIR/share/auditor/ (the bundled example rules and data)
#   --destdir DIR   stage into DIR/PREFIX instead (for packaging; see scripts/release.sh)
#   --no-build      install the binary that is already built (.build-release/)
#   --binary PATH   install this binary instead of building one
#
# The binary carries the Swift runtime and Foundation (--static-swift-stdlib), so the machine
# it runs on needs no Swift. It needs only three C libraries, as Debian packages:
#   libsqlite3-0, libxml2 and libpq5 (Debian 12; the same names on Ubuntu 22.04 and later).
set -eu
cd "$(dirname "$0")/.."

prefix=/usr/local
destdir=
build=yes
binary=
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
        --prefix=*) prefix=${1#*=}; shift ;;
        --destdir) destdir=${2:?--destdir needs a folder}; shift 2 ;;
        --destdir=*) destdir=${1#*=}; shift ;;
        --no-build) build=no; shift ;;
        --binary) binary=${2:?--binary needs a file}; build=no; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
    esac
done
case "$prefix" in /*) ;; *) echo "install.sh: --prefix must be an absolute path; got '$prefix'" >&2; exit 64 ;; esac

scratch=.build-release
if [ "$build" = yes ]; then
    swift build -c release --product auditor --static-swift-stdlib --scratch-path "$scratch"
fi
[ -n "$binary" ] || binary=$(swift build -c release --product auditor --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/auditor
[ -x "$binary" ] || { echo "install.sh: no binary at '$binary'; build it first (drop --no-build)" >&2; exit 66; }

root=$destdir$prefix
install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d" "$root/share/auditor"
install -m 0755 "$binary" "$root/bin/auditor"
strip "$root/bin/auditor"      # symbols are most of the size (92 MB -> 64 MB); crash reports keep addresses
install -m 0644 docs/auditor.1 "$root/share/man/man1/auditor.1"
"$binary" --generate-completion-script bash > "$root/share/bash-completion/completions/auditor"
"$binary" --generate-completion-script zsh > "$root/share/zsh/site-functions/_auditor"
"$binary" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/auditor.fish"
# The bundled example, so that `auditor run "$prefix/share/auditor/rules/people.yml"` works.
rm -rf "$root/share/auditor/rules" "$root/share/auditor/examples"
cp -R rules examples "$root/share/auditor/"
echo "installed auditor $("$binary" --version) to $root"
