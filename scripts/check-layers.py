#!/usr/bin/env python3
"""Checks the package graph against the layers of docs/ARCHITECTURE.md §1: each target may depend only on what is
listed for it here, and its sources may import only those modules (and the system's). A new dependency, a new
target or a new import fails the check until this table, and the architecture it stands for, says it may. The
compiler keeps the rest: a target cannot import a module it does not reach. The import check is needed because
SwiftPM lets a target import any module it reaches through its dependencies, not only the ones it names.

    scripts/check-layers.py            # reads `swift package dump-package`
"""

import json
import pathlib
import re
import subprocess
import sys

# The layers, inside out. What each may depend on; anything else is an error.
ALLOWED = {
    # The wire: frames, payloads, routes and error codes. Only NIOCore's ByteBuffer.
    "ChatProtocol": {"NIOCore"},
    # The domain: rooms, the hub, and the ports (stores, clocks) that the outer layers implement.
    "ChatCore": {"ChatProtocol", "NIOCore", "Logging", "DequeModule", "NIOConcurrencyHelpers", "Crypto", "Metrics"},
    # Every request's rules. No web framework, no database driver, no HTTP.
    "ChatUseCases": {"ChatCore", "ChatProtocol", "NIOCore", "Crypto"},
    # The stores: SQLite and PostgreSQL adapters of the ports ChatCore and ChatUseCases declare.
    "ChatPersistence": {
        "ChatCore", "ChatProtocol", "ChatUseCases", "FluentKit", "FluentSQL", "SQLKit", "SQLiteKit", "SQLiteNIO", "PostgresNIO",
        "PostgresKit", "NIOCore", "NIOPosix", "NIOSSL", "NIOConcurrencyHelpers", "Logging", "Metrics",
        # SQLite's C interface, for the commit hook (reached through SQLiteNIO).
        "VaporCSQLite",
    },
    # The transports and the composition root: HTTP, the sockets, the tutorial protocols, start-up.
    "ChatServer": {
        "ChatProtocol", "ChatCore", "ChatUseCases", "ChatPersistence", "DemoBot", "Vapor", "Fluent",
        "FluentSQLiteDriver", "FluentPostgresDriver", "PostgresNIO", "NIOWebSocket", "NIOPosix", "NIOExtras",
        "ArgumentParser", "MultipartKit", "Crypto", "SQLKit", "SQLiteKit", "SQLiteNIO", "Metrics", "Prometheus",
        "NIOSSL", "NIOCore", "NIOHTTP1", "NIOConcurrencyHelpers", "Logging", "DequeModule",
        # Requests of the server's own (Web Push).
        "AsyncHTTPClient",
        # The demo bot is a client of the server it runs in; the composition root starts it with a client's settings.
        "ChatClient",
    },
    "ChatServerMain": {"ChatServer", "ArgumentParser"},
    # Clients: they speak the wire only, never the server's insides.
    "ChatClient": {
        "ChatProtocol", "NIOSSL", "WebSocketKit", "AsyncHTTPClient", "NIOCore", "NIOPosix", "NIOHTTP1",
        "NIOWebSocket", "NIOConcurrencyHelpers", "Logging",
    },
    "DemoBot": {"ChatClient", "ChatProtocol", "AsyncHTTPClient", "NIOCore", "NIOSSL", "Logging"},
    "ChatCLI": {"ChatClient", "ChatProtocol", "ArgumentParser"},
    "ChatAppModel": {"ChatClient", "ChatProtocol"},
    "ChatBench": {"ArgumentParser", "AsyncHTTPClient", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOWebSocket"},
    # Tests and what they share.
    "ChatTestSupport": {
        "ChatServer", "ChatProtocol", "NIOCore", "NIOPosix", "NIOConcurrencyHelpers", "DequeModule", "Logging",
        "AsyncHTTPClient", "NIOHTTP1", "NIOSSL", "X509", "SwiftASN1", "Crypto", "PostgresNIO", "SQLiteNIO",
        "ChatCore", "ChatPersistence",
    },
    "ChatProtocolTests": {"ChatProtocol", "NIOCore"},
    # Crypto: the Web Push tests stand in for a browser (its keys, its decryption).
    "ChatCoreTests": {
        "ChatCore", "ChatProtocol", "ChatTestSupport", "NIOCore", "NIOPosix", "NIOConcurrencyHelpers", "Logging",
        "Crypto",
    },
    "ChatPersistenceTests": {
        "ChatPersistence", "ChatCore", "ChatProtocol", "ChatTestSupport", "FluentKit", "FluentSQLiteDriver",
        "FluentPostgresDriver", "PostgresNIO", "SQLKit", "SQLiteKit", "SQLiteNIO", "NIOCore", "NIOPosix",
        "NIOConcurrencyHelpers", "Logging",
    },
    "ChatServerTests": {
        "ChatServer", "ChatUseCases", "ChatTestSupport", "ChatProtocol", "ChatCore", "NIOCore", "NIOPosix",
        "NIOHTTP1", "SQLiteNIO", "Logging", "ChatPersistence", "AsyncHTTPClient", "NIOSSL", "NIOConcurrencyHelpers",
        "Crypto",
    },
    "ChatClientTests": {
        "ChatClient", "ChatTestSupport", "ChatProtocol", "ChatServer", "DemoBot", "NIOCore", "NIOPosix", "NIOHTTP1",
        "NIOWebSocket", "NIOConcurrencyHelpers",
    },
    "ChatAppModelTests": {"ChatAppModel", "ChatClient", "ChatTestSupport", "ChatProtocol", "ChatServer"},
}


# Modules of the platform, which every target may import.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl", "Darwin",
    "Synchronization", "_Concurrency", "XCTest", "Testing", "SwiftUI", "Combine", "Observation", "os",
}

IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*(?:public |internal |package |private |fileprivate )?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.MULTILINE)


def imports(target):
    """Every module a target's Swift sources import, with the first file that does."""
    found = {}
    root = pathlib.Path(target.get("path") or ("Tests" if target["type"] == "test" else "Sources") + "/" + target["name"])
    for source in sorted(root.rglob("*.swift")):
        for module in IMPORT.findall(source.read_text(encoding="utf-8")):
            found.setdefault(module, source)
    return found


def dependencies(target):
    """The names of a target's direct dependencies: other targets, and products by their product name."""
    names = []
    for dependency in target["dependencies"]:
        (kind, value), = dependency.items()
        names.append(value[0])
    return names


def main():
    package = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
    errors = []
    for target in package["targets"]:
        name = target["name"]
        if name not in ALLOWED:
            errors.append(f"{name}: a target the layer table (scripts/check-layers.py) does not list")
            continue
        for dependency in dependencies(target):
            if dependency not in ALLOWED[name]:
                errors.append(f"{name} depends on {dependency}, which its layer may not use")
        for module, source in imports(target).items():
            if module not in ALLOWED[name] and module not in SYSTEM and module != name:
                errors.append(f"{source} imports {module}, which {name}'s layer may not use")
    for error in errors:
        print(f"check-layers: {error}", file=sys.stderr)
    if errors:
        return 1
    print(f"check-layers: {len(package['targets'])} targets keep their layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
