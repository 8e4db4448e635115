#!/usr/bin/env bash
# The release archive as someone without Swift gets it: unpacked into an empty folder, its binaries link no Swift
# library (ldd), and the server started from there, with a bare environment and nothing from the source tree, serves
# the archive's web client, the API, the TCP protocol, and the terminal client talks to it.
#   Tests/Release/run.sh PATH/TO/swiftchat-VERSION-linux-ARCH.tar.gz
set -euo pipefail
archive="$(realpath "$1")"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill -9 "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "release test: $*" >&2
    [[ -f "$work/server.log" ]] && tail -20 "$work/server.log" >&2
    exit 1
}

tar -xzf "$archive" -C "$work"
root="$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'swiftchat-*')"
[[ -d "$root" ]] || fail "the archive holds no swiftchat-* folder"
for path in bin/chat-server bin/chat Public/index.html deploy/swiftchat.service deploy/haproxy.cfg deploy/haproxy-tls.cfg \
    docs/PROTOCOL.md docs/DEPLOYMENT.md LICENSE CHANGELOG.md README.md; do
    [[ -e "$root/$path" ]] || fail "$path is missing"
done

for binary in chat-server chat; do
    if ldd "$root/bin/$binary" | grep -Ei 'libswift|libFoundation|libdispatch|libBlocksRuntime|/opt/swift'; then
        fail "bin/$binary links a Swift runtime library"
    fi
done

version="$("$root/bin/chat-server" --version)"
grep -q "^## $version " "$root/CHANGELOG.md" || fail "CHANGELOG.md has no entry for $version"
[[ "$("$root/bin/chat" --version)" == "$version" ]] || fail "chat and chat-server disagree on the version"

# A file only the archive's Public/ has: the page served is the archive's, not the source tree's.
echo "from the archive" > "$root/Public/release-check.txt"
cd "$work"
env -i PATH=/usr/bin:/bin HOME="$work" "$root/bin/chat-server" --data-dir "$work/data" --port 0 --tcp-port 0 \
    --metrics-port 0 --log-level notice > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    grep -q "TCP text protocol listening on" "$work/server.log" && break
    kill -0 "$server_pid" 2>/dev/null || fail "the server exited"
    sleep 0.2
done
http_port="$(sed -n 's|.*HTTP and WebSocket listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/server.log")"
tcp_port="$(sed -n 's|.*TCP text protocol listening on 127.0.0.1:\([0-9]*\).*|\1|p' "$work/server.log")"
[[ -n "$http_port" && -n "$tcp_port" ]] || fail "the server did not report its listeners"
base="http://127.0.0.1:$http_port"

[[ "$(curl -fsS "$base/release-check.txt")" == "from the archive" ]] || fail "the web client is not the archive's"
curl -fsS "$base/" | grep -q "<title>" || fail "GET / is not the web client"
curl -fsS "$base/api/v1/config" | grep -q "\"version\":\"$version\"" || fail "/api/v1/config names another version"

export CHAT_CONFIG="$work/chat/config.json" CHAT_PASSWORD="correct horse"
"$root/bin/chat" login --server "$base" -u ann --register > /dev/null || fail "chat could not register"
"$root/bin/chat" send --room lobby "hello from the archive" > /dev/null || fail "chat could not send"

exec 3<>"/dev/tcp/127.0.0.1/$tcp_port"
printf 'iam:bob\nmsg:and from nc\n' >&3
seen=""
while read -r -t 10 line <&3; do
    seen+="$line"$'\n'
    [[ "$line" == "bob:and from nc" ]] && break
done
exec 3>&-
grep -q "^bob:and from nc" <<< "$seen" || fail "the TCP protocol did not echo the message: $seen"
"$root/bin/chat" tail --room lobby --count 0 --json 2>/dev/null | grep -q "and from nc" \
    || fail "the terminal client does not see the TCP message"

kill -TERM "$server_pid"
wait "$server_pid" || fail "the server did not stop cleanly"
server_pid=""
echo "release archive: $(basename "$archive") unpacks, links no Swift library, serves and talks"
