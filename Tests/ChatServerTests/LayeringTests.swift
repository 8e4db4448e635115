import Foundation
import Testing

/// The transport folders of ChatServer never use each other (docs/ARCHITECTURE.md §1). Between targets the package
/// graph keeps the layers (scripts/check-layers.py: the use cases cannot import Vapor); inside one module it cannot,
/// so this reads the sources: a type declared in one folder must not be named in the code of a folder that may not
/// use it (comments may mention anything).
@Suite("ChatServer's transports: HTTP, Realtime and Tutorial never use each other")
struct LayeringTests {
    static let forbidden: [String: [String]] = [
        "HTTP": ["Realtime", "Tutorial"],
        "Realtime": ["HTTP", "Tutorial"],
        "Tutorial": ["HTTP", "Realtime"],
    ]

    static let serverSources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ChatServer")

    @Test("no folder names a type of a folder it may not use")
    func foldersKeepTheirLayer() throws {
        for (folder, others) in Self.forbidden {
            let code = try Self.files(in: folder).map { ($0, try Self.code(of: $0)) }
            for other in others {
                for type in try Self.declaredTypes(in: other) {
                    for (file, text) in code where text.range(of: "\\b\(type)\\b", options: .regularExpression) != nil {
                        Issue.record("\(folder)/\(file.lastPathComponent) uses \(other)'s \(type)")
                    }
                }
            }
        }
    }

    @Test("the tutorial protocols have no accounts: Tutorial/ does not import the use cases")
    func tutorialWithoutUseCases() throws {
        for file in try Self.files(in: "Tutorial") {
            let imports = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter {
                $0.hasPrefix("import ")
            }
            #expect(!imports.contains("import ChatUseCases"), "\(file.lastPathComponent) imports ChatUseCases")
        }
    }

    static func files(in folder: String) throws -> [URL] {
        let directory = Self.serverSources.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!names.isEmpty, "no Swift files in \(folder)")
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    /// A file's text without its comment lines.
    static func code(of file: URL) throws -> String {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .joined(separator: "\n")
    }

    /// The names of the types a folder declares at the top level of its files.
    static func declaredTypes(in folder: String) throws -> [String] {
        let declaration =
            /^(?:public |final |private |fileprivate )*(?:struct|class|enum|protocol|actor) ([A-Za-z0-9_]+)/
        return try Self.files(in: folder).flatMap { file in
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
                line.firstMatch(of: declaration).map { String($0.1) }
            }
        }
    }
}
