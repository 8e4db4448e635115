#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (every Swift module instrumented with -sanitize=fuzzer,address) and runs
# each one for a while, one after another, starting from its seed corpus in Fuzz/Corpus/<target>/. New inputs go to
# a temporary folder, so the committed corpus only changes with --update-corpus. Exits non-zero if any target
# crashes or breaks an invariant, and says where the input that did it was saved. See docs/FUZZING.md.
#
# Usage: scripts/fuzz.sh [--seconds N] [--update-corpus] [TARGET...]
#   --seconds N        how long each target runs (default 60)
#   --update-corpus    merge the inputs that reach new code into Fuzz/Corpus/<target>/ afterwards
#   TARGET             e.g. TCPLineFramerFuzzer (default: all of them)
# Env:   FUZZ_ARGS       more libFuzzer flags for every target (e.g. "-jobs=2 -workers=2", "-dict=FILE")
set -euo pipefail
cd "$(dirname "$0")/.."

# The longest input worth trying, per target: past each decoder's limit, small enough to stay fast.
declare -A max_len=(
    [TCPLineFramerFuzzer]=512        # line limits of 1 to 64 bytes
    [TCPCommandFuzzer]=512           # names up to 64 bytes
    [LobbyChatFuzzer]=5000           # past the 4096-byte message limit
    [ClientFrameFuzzer]=4096
    [ContentSnifferFuzzer]=4096      # room for JPEG segments before the frame header
    [SearchQueryFuzzer]=1024         # past 200 characters of 4 bytes
    [WebSocketFrameFuzzer]=4096
    [MultipartFuzzer]=4096
)
all_targets=(TCPLineFramerFuzzer TCPCommandFuzzer LobbyChatFuzzer ClientFrameFuzzer ContentSnifferFuzzer
    SearchQueryFuzzer WebSocketFrameFuzzer MultipartFuzzer)

seconds=60
update_corpus=0
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --update-corpus) update_corpus=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
        *) [[ -n "${max_len[$1]:-}" ]] || { echo "fuzz: no target $1 (${all_targets[*]})" >&2; exit 2; }
           targets+=("$1"); shift ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

# Release: the debug build renames each executable's entry point, which -parse-as-library leaves undefined.
# One job, so the other core stays free.
build=(swift build --package-path Fuzz -c release -j 1 -Xswiftc -sanitize=fuzzer,address)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "fuzz: ${build[*]}"
if ! "${build[@]}" >"$work/build.log" 2>&1; then
    # ld.gold warns about every ASan symbol it cannot export; those lines say nothing.
    grep -v "Cannot export local symbol" "$work/build.log" | tail -40
    echo "fuzz: build failed" >&2
    exit 1
fi
bin=$("${build[@]}" --show-bin-path)
crashes=Fuzz/.build/crashes
# Swift's own crash reporter would wait on the dying process; libFuzzer and ASan print the stack themselves.
export SWIFT_BACKTRACE=enable=no
failed=()
for target in "${targets[@]}"; do
    corpus=Fuzz/Corpus/$target
    mkdir -p "$corpus" "$work/$target" "$crashes/$target"
    log=$work/$target.log
    status=0
    # Every input that once crashed runs first (the guarded known issues pass; see Fuzz/Regressions/README.md).
    regressions=(Fuzz/Regressions/$target/*)
    if [[ -f "${regressions[0]:-}" ]] && ! "$bin/$target" "${regressions[@]}" >"$log" 2>&1; then
        failed+=("$target")
        echo "fuzz: $target FAILED on a saved regression input:"
        grep -v "Cannot export local symbol" "$log" | grep -E "Running:|invariant|Fatal|ERROR|SUMMARY" | tail -20
        continue
    fi
    # shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
    "$bin/$target" "$work/$target" "$corpus" -max_total_time="$seconds" -max_len="${max_len[$target]}" \
        -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$crashes/$target/" \
        ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    if [[ $status -ne 0 ]]; then
        failed+=("$target")
        echo "fuzz: $target FAILED (exit $status) after ${runs:-?} runs; the end of its log:"
        grep -v "Cannot export local symbol" "$log" | tail -60
        grep -o "Test unit written to .*" "$log" | sed "s|^|fuzz: $target: |" || true
        echo "fuzz: reproduce with: SWIFT_BACKTRACE=enable=no $bin/$target <that file>"
    else
        echo "fuzz: $target ok: ${runs:-?} runs in ${seconds} s, ${coverage:-cov: ?}"
    fi
    if [[ $update_corpus -eq 1 ]]; then
        "$bin/$target" -merge=1 -max_len="${max_len[$target]}" "$corpus" "$work/$target" >"$log.merge" 2>&1 \
            || { echo "fuzz: merging into $corpus failed:"; tail -20 "$log.merge"; }
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]} (inputs under $crashes/)"
    exit 1
fi
echo "fuzz: ${#targets[@]} targets ran ${seconds} s each without a crash"
