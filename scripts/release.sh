#!/bin/sh
# Makes the release tarball: one command, one file.
#
#   scripts/release.sh [--no-build | --binary PATH | --package DIR --product NAME] [--out DIR]
#
# Writes DIR/auditor-VERSION-linux-ARCH.tar.gz (DIR defaults to out/), holding
# auditor-VERSION/ with bin/auditor (static Swift runtime), the man page, the shell
# completions, the bundled example and INSTALL. Unpack it anywhere; the machine needs only
# Debian's libsqlite3-0, libxml2, libpq5 and libssl3 (see INSTALL). scripts/test-release.sh tries it in a
# clean Debian 12 root with no Swift. --package and --product make the tarball of a team's
# auditor that carries its Swift validators (see scripts/install.sh and docs/validators.md).
set -eu
here=$(pwd)
cd "$(dirname "$0")/.."

out=out
build=
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=--no-build; shift ;;
        --binary) build="--binary ${2:?--binary needs a file}"; shift 2 ;;
        --package) p=${2:?--package needs a folder}; case "$p" in /*) ;; *) p=$here/$p ;; esac
                   build="$build --package $p"; shift 2 ;;
        --product) build="$build --product ${2:?--product needs a name}"; shift 2 ;;
        --out) out=${2:?--out needs a folder}; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^set -eu/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "release.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
    esac
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
sh scripts/install.sh $build --prefix /auditor --destdir "$stage/root" >&2
version=$("$stage/root/auditor/bin/auditor" --version)
arch=$(uname -m)
name=auditor-$version-linux-$arch
mv "$stage/root/auditor" "$stage/$name"
cat > "$stage/$name/INSTALL" <<TEXT
auditor $version for Linux ($arch)

bin/auditor carries the Swift runtime and Foundation; no Swift is needed. It needs four
C libraries, which Debian 12 and Ubuntu 22.04 or later ship as packages:

    apt-get install libsqlite3-0 libxml2 libpq5 libssl3

Put it on your PATH, or copy the folders under a prefix:

    cp -R bin share /usr/local/

Then:  auditor --help    man auditor    auditor run share/auditor/rules/people.yml
Completions are in share/bash-completion, share/zsh and share/fish.
TEXT
mkdir -p "$out"
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz"
