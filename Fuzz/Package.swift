// swift-tools-version:5.4
// 5.4 on purpose: from 5.5 on, SwiftPM renames an executable's `main` to `<target>_main` so tests can link it,
// and a target whose `main` comes from libFuzzer then fails to link.
import PackageDescription

// libFuzzer targets for every decoder that reads network bytes and links without Vapor (docs/FUZZING.md).
// Build and run them with scripts/fuzz.sh: it passes `-sanitize=fuzzer,address` to every Swift module, so the
// code under test is instrumented too, not only these targets.

/// libFuzzer supplies `main`.
let fuzzerSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

/// One executable per decoder; each has one file with its `LLVMFuzzerTestOneInput`.
func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, swiftSettings: fuzzerSettings)
}

let chatProtocol = Target.Dependency.product(name: "ChatProtocol", package: "SwiftChat")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")

let package = Package(
    name: "SwiftChatFuzz",
    dependencies: [
        .package(name: "SwiftChat", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
    ],
    targets: [
        .target(name: "FuzzSupport"),
        // ChatCore is no product of the root package, so these of its files are compiled here through symlinks
        // (they import nothing but Foundation, NIOCore and ChatProtocol). A `ChatCore` library product would
        // replace this.
        .target(name: "ChatCoreSlice", dependencies: [chatProtocol, nioCore]),
        fuzzer("TCPLineFramerFuzzer", [chatProtocol, nioCore]),
        fuzzer("TCPCommandFuzzer", [chatProtocol]),
        fuzzer("LobbyChatFuzzer", [chatProtocol]),
        fuzzer("ClientFrameFuzzer", [chatProtocol]),
        fuzzer("ContentSnifferFuzzer", ["ChatCoreSlice", nioCore]),
        fuzzer("SearchQueryFuzzer", ["ChatCoreSlice"]),
        fuzzer(
            "WebSocketFrameFuzzer",
            [
                nioCore, .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
        fuzzer("MultipartFuzzer", [.product(name: "MultipartKit", package: "multipart-kit"), nioCore]),
    ]
)
