#!/bin/sh
# Builds auditor for release and installs it, with its man page and shell completions.
#
#   scripts/install.sh [--prefix DIR] [--destdir DIR] [--no-build] [--binary PATH]
#                      [--package DIR --product NAME]
#
#   --prefix DIR    where it is installed (default /usr/local): DIR/bin/auditor,
#                   DIR/share/man/man1/auditor.1, the bash, zsh and fish completions, and
#                   DIR/share/auditor/ (the bundled example rules and data)
#   --destdir DIR   stage into DIR/PREFIX instead (for packaging; see scripts/release.sh)
#   --no-build      install the binary that is already built (.build-release/)
#   --binary PATH   install this binary instead of building one
#   --package DIR   build the executable product NAME of the package in DIR instead, and
#   --product NAME  install it as bin/auditor: a team's auditor that carries its Swift
#                   validators (AuditorTool.main(validators:); see docs/validators.md), e.g.
#                   --package examples/validators --product team-auditor
#
# The binary carries the Swift runtime and Foundation (--static-swift-stdlib), so the machine
# it runs on needs no Swift. It needs only four C libraries, as Debian packages:
#   libsqlite3-0, libxml2, libpq5 and libssl3 (Debian 12; the same names on Ubuntu 22.04 and later).
set -eu
here=$(pwd)
cd "$(dirname "$0")/.."

prefix=/usr/local
destdir=
build=yes
binary=
package=
product=auditor
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
        --prefix=*) prefix=${1#*=}; shift ;;
        --destdir) destdir=${2:?--destdir needs a folder}; shift 2 ;;
        --destdir=*) destdir=${1#*=}; shift ;;
        --no-build) build=no; shift ;;
        --binary) binary=${2:?--binary needs a file}; build=no; shift 2 ;;
        --package) package=${2:?--package needs a folder}; shift 2 ;;
        --product) product=${2:?--product needs a name}; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^set -eu/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
    esac
done
case "$prefix" in /*) ;; *) echo "install.sh: --prefix must be an absolute path; got '$prefix'" >&2; exit 64 ;; esac

set -- -c release --product "$product" --static-swift-stdlib --scratch-path .build-release
if [ -n "$package" ]; then
    case "$package" in /*) ;; *) package=$here/$package ;; esac
    [ -f "$package/Package.swift" ] || { echo "install.sh: no Package.swift in '$package'" >&2; exit 66; }
    set -- "$@" --package-path "$package" --scratch-path "$package/.build-release"
elif [ "$product" != auditor ]; then
    echo "install.sh: --product names a product of --package DIR; give both" >&2; exit 64
fi
[ "$build" = no ] || swift build "$@"
[ -n "$binary" ] || binary=$(swift build "$@" --show-bin-path)/$product
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
# Without the examples' build folders (examples/validators is a package of its own).
rm -rf "$root/share/auditor/rules" "$root/share/auditor/examples"
tar -cf - --exclude='.build*' rules examples | tar -C "$root/share/auditor" -xf -
echo "installed auditor $("$binary" --version) to $root"
