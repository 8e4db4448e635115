#!/usr/bin/env bash
# Formats every Swift file in git with swift-format (the toolchain's, configured by .swift-format: 120 columns,
# ordered imports, triple-slash doc comments), then lints them strictly.
#
# Usage: scripts/format.sh            rewrite the files in place, then lint
#        scripts/format.sh --check    change nothing; fail, listing the files, when formatting would change any or
#                                     the lint finds something (the test command runs this)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=format
case "${1:-}" in
    "") ;;
    --check) mode=check ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "format: unknown option $1" >&2; exit 2 ;;
esac

# Symlinks (the fuzz package's slice of ChatCore) are formatted where they point.
files=()
while IFS= read -r -d '' file; do
    [[ -L $file ]] || files+=("$file")
done < <(git ls-files -z '*.swift')

if [[ $mode == format ]]; then
    swift format format --parallel --in-place "${files[@]}"
else
    # Format copies (with the configuration beside them), then compare.
    copy=$(mktemp -d)
    trap 'rm -rf "$copy"' EXIT
    cp .swift-format "$copy/"
    printf '%s\0' "${files[@]}" | xargs -0 cp --parents -t "$copy"
    (cd "$copy" && swift format format --parallel --in-place "${files[@]}")
    unformatted=()
    for file in "${files[@]}"; do
        cmp -s "$file" "$copy/$file" || unformatted+=("$file")
    done
    if (( ${#unformatted[@]} > 0 )); then
        printf 'format: not formatted (run scripts/format.sh): %s\n' "${unformatted[@]}" >&2
        exit 1
    fi
fi
swift format lint --strict --parallel "${files[@]}"
echo "format: ${#files[@]} files formatted and lint-clean"
