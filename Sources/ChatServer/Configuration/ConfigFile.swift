import Foundation

/// `--config FILE`: settings as `KEY=value` lines under their environment variables' names (`CHAT_PORT=8080`), so
/// that one file serves systemd's `EnvironmentFile=` and a plain start. Blank lines and lines starting with `#` or
/// `;` are skipped, and a value may be wrapped in single or double quotes, as systemd reads it. A file's values
/// yield to the environment's and the flags' (README, "Configuration").
struct ConfigFile {
    /// One value and where it was written, for error messages.
    struct Entry: Equatable {
        let value: String
        let origin: String
    }

    let entries: [String: Entry]

    /// Reads `path`, whose keys must be among `variables`; each problem names the file and line.
    private static func read(_ path: String, variables: Set<String>) -> (file: ConfigFile, problems: [String]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            return (ConfigFile(entries: [:]), ["--config \(path): the file cannot be read"])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return (ConfigFile(entries: [:]), ["--config \(path): the file is not UTF-8 text"])
        }
        var entries: [String: Entry] = [:]
        var problems: [String] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let origin = "\(path):\(index + 1)"
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append("\(origin): expected KEY=value, got '\(line)'")
                continue
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard variables.contains(key) else {
                problems.append("\(origin): unknown key '\(key)' (chat-server --help lists the variables)")
                continue
            }
            let value = Self.unquoted(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            entries[key] = Entry(value: value, origin: origin)
        }
        return (ConfigFile(entries: entries), problems)
    }

    /// `"value"` or `'value'` without its quotes; anything else as it is.
    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first else {
            return value
        }
        return String(value.dropFirst().dropLast())
    }

    /// `--config FILE` taken out of `arguments` and read: the other arguments, the file (empty without one) and
    /// what is wrong with either.
    static func extract(from arguments: [String], variables: Set<String>) -> (
        rest: [String], file: ConfigFile, problems: [String]
    ) {
        let (path, rest, problems) = Self.split(arguments)
        guard let path else { return (rest, ConfigFile(entries: [:]), problems) }
        let read = Self.read(path, variables: variables)
        return (rest, read.file, problems + read.problems)
    }

    /// `--config FILE` or `--config=FILE` taken out of `arguments`: the path (the last one given) and the rest.
    private static func split(_ arguments: [String]) -> (path: String?, rest: [String], problems: [String]) {
        var path: String?
        var rest: [String] = []
        var problems: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--config" {
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    problems.append("--config needs a file")
                    continue
                }
                path = value
            } else if argument.hasPrefix("--config=") {
                path = String(argument.dropFirst("--config=".count))
            } else {
                rest.append(argument)
            }
        }
        return (path, rest, problems)
    }
}
