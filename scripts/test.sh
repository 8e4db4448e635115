#!/usr/bin/env bash
# Runs every test: the format check, the unit and integration suites (swift test, real sockets, real SQLite files
# and a throwaway PostgreSQL server), the integration suites again with every test server on PostgreSQL, a short run
# of chat-bench in each of its modes, 10 s of each fuzz target, the Autobahn WebSocket conformance suite against
# /echo, the web client's tests in headless Chromium against the real server, then (with RELEASE_ARCHIVE=1, as in CI)
# the release archive, unpacked and run.
# Missing Debian packages are installed first when running as root (scripts/install-test-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-test-deps.sh
# The tests' files (SQLite databases, PostgreSQL clusters, uploads, browser profiles) go to memory when /dev/shm is
# there. On a fresh clone the build leaves gigabytes for the disk to write back as the tests start, and in CI a
# SQLite commit's fsync waited behind them for over ten seconds (its busy timeout), failing ten tests at once. What
# the tests check never depends on the disk under those files; a TMPDIR of your own is kept.
if [[ -z "${TMPDIR:-}" && -d /dev/shm && -w /dev/shm ]]; then
    TMPDIR="$(mktemp -d /dev/shm/swiftchat-tests.XXXXXX)"
    # As /tmp: the test PostgreSQL runs as the postgres user when the tests run as root.
    chmod 1777 "$TMPDIR"
    export TMPDIR
    trap 'rm -rf "$TMPDIR"' EXIT
fi
scripts/format.sh --check
# The package graph keeps the layers: each target depends only on what its layer may use (docs/ARCHITECTURE.md §1).
scripts/check-layers.py
swift build
# Strict mode turns misuse of a stopped event loop into a crash instead of a log line.
# stdbuf: each line reaches the log as printed, so a run that hangs shows which test never finished.
# The two-node and HAProxy suites run after the rest, on their own: each test runs two servers on one PostgreSQL
# database, or HAProxy's health checks with their 3 s deadline, and beside the whole parallel run a two-core machine
# sometimes kept a node from answering for over 20 s (HAProxy then marks every node down).
stdbuf -oL -eL env SWIFTNIO_STRICT=1 swift test --skip 'TwoNode|HAProxy'
stdbuf -oL -eL env SWIFTNIO_STRICT=1 swift test --skip-build --filter 'TwoNode|HAProxy'
# The same integration suites on PostgreSQL (TestServer's switch: a database of its own per server); the suites left
# out test SQLite itself (its file, lock, checkpoints, backup) or the real executable, which runs on SQLite.
postgres_suites="ModernSocketTests|RichChatTests|LobbyChatTests|TCPTextProtocolTests|EchoRelayTests|CrossTransportTests"
postgres_suites+="|RoomsAPITests|AccountAPITests|SearchTests|AttachmentTests|LiveStateTests|RoomRenameTests|IdentityTests"
postgres_suites+="|RobustnessTests|OutageTests|StoreFaultTests|ExhaustionTests|ChaosTests|AdministrationTests|InvitationTests|ExportAndRoomListTests|BlockingTests|AccountDeletionTests|RetentionTests|RoomModerationTests|ReportTests|MentionTests|PushSubscriptionTests|PushNotificationTests|SearchScriptTests|SearchFilterTests|HistoryAroundTests|PostMessageTests|BotTests|WebhookTests|OutgoingWebhookTests|PinsAndDraftsTests|LinkPreviewTests|ForwardTests|ContactsTests|AvatarTests|VoiceMessageTests|MessagePinTests"
# In two halves, one after the other: every test server makes its own database and migrates it as it starts, and
# with all 46 suites starting at once a two-core machine spent two minutes in PostgreSQL's start-up work (85 % system
# time, 40 backends runnable), long enough for tests waiting on the lobby's first commit to time out.
IFS='|' read -r -a suites <<<"$postgres_suites"
half=$((${#suites[@]} / 2))
for part in "${suites[*]:0:half}" "${suites[*]:half}"; do
    stdbuf -oL -eL env CHAT_TEST_DATABASE=postgres SWIFTNIO_STRICT=1 swift test --skip-build --filter "${part// /|}"
done
# The load generator in each mode the benchmarks use, a few seconds each: no benchmark runs in the tests, and a broken
# chat-bench would otherwise be found on the day of one.
bench/smoke.sh "$(swift build --show-bin-path)"
scripts/fuzz.sh --seconds 10
scripts/autobahn.sh
# Screenshots go to a temporary folder unless asked for (UPDATE_SCREENSHOTS=1 rewrites docs/screenshots/).
if [[ "${UPDATE_SCREENSHOTS:-0}" != 1 ]]; then
    export SCREENSHOT_DIR="${SCREENSHOT_DIR:-$(mktemp -d)}"
fi
Tests/Web/run.sh "$(swift build --show-bin-path)/chat-server"
# The release archive, built as scripts/release.sh builds it (a release build of its own, with a static standard
# library: about 20 minutes from nothing on two cores), unpacked and run as a machine without Swift would. CI sets
# RELEASE_ARCHIVE=1; by hand, it is the one stage worth skipping while working on something else.
if [[ "${RELEASE_ARCHIVE:-0}" == 1 ]]; then
    Tests/Release/run.sh "$(OUT_DIR="$(mktemp -d)" scripts/release.sh | tail -1)"
fi
