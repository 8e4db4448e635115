#!/usr/bin/env bash
# Builds the release archive swiftchat-VERSION-linux-ARCH.tar.gz: chat-server and chat linked with the Swift
# standard library (--static-swift-stdlib, so they run where Swift is not installed), Public/, deploy/, docs/,
# LICENSE, CHANGELOG.md and a README for the archive. VERSION is SwiftChatVersion.current's.
#
# Usage: scripts/release.sh
# Env:   OUT_DIR        where the archive goes (default .build/release-archive)
#        SCRATCH_PATH   the build folder (default .build-archive: a folder of its own, since objects compiled for a
#                       static standard library cannot be linked against the shared one, nor the other way round,
#                       and SwiftPM does not rebuild them when only that flag changes)
# Prints the archive's path last. Tests/Release/run.sh checks an archive; scripts/test.sh runs both with
# RELEASE_ARCHIVE=1 (CI does).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -eq 0 ]] || { sed -n '6,11p' "$0" >&2; exit 2; }
scratch="${SCRATCH_PATH:-.build-archive}"
out_dir="${OUT_DIR:-.build/release-archive}"

version="$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/ChatProtocol/SwiftChatVersion.swift)"
[[ -n "$version" ]] || { echo "release: no version in Sources/ChatProtocol/SwiftChatVersion.swift" >&2; exit 1; }
name="swiftchat-$version-linux-$(uname -m)"

build=(swift build -c release --scratch-path "$scratch" --static-swift-stdlib)
for product in chat-server chat; do
    "${build[@]}" --product "$product" >&2
done
bin="$("${build[@]}" --show-bin-path)"

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
root="$staging/$name"
mkdir -p "$root/bin"
for product in chat-server chat; do
    # Debug information is most of a binary's size; symbols stay, so a crash's backtrace still names functions.
    strip --strip-debug -o "$root/bin/$product" "$bin/$product"
done
cp -R Public deploy docs LICENSE CHANGELOG.md "$root/"
rm -f "$root/deploy/archive-README.md"
sed -e "s/VERSION/$version/" -e "s/ARCH/$(uname -m)/" deploy/archive-README.md > "$root/README.md"

mkdir -p "$out_dir"
archive="$out_dir/$name.tar.gz"
tar -C "$staging" -czf "$archive" --owner=0 --group=0 "$name"
echo "$archive"
