import ChatProtocol
import Foundation
import Testing

/// `ErrorCode` holds the codes PROTOCOL.md lists, and only those.
@Suite("Error codes: the enum and PROTOCOL.md agree")
struct ErrorCodeTests {
    @Test("every code in PROTOCOL.md's error tables is an ErrorCode, and every ErrorCode is in one")
    func codesMatchTheProtocol() throws {
        let documented = try Self.documentedCodes()
        let declared = Set(ErrorCode.allCases.map(\.rawValue))
        #expect(
            documented.subtracting(declared).isEmpty,
            "documented but not declared: \(documented.subtracting(declared).sorted())")
        #expect(
            declared.subtracting(documented).isEmpty,
            "declared but not documented: \(declared.subtracting(documented).sorted())")
    }

    @Test("an error frame and an HTTP error body carry the code as its string")
    func wireForm() throws {
        let frame = ErrorFrame(code: .rateLimited, message: "wait", ref: "c1")
        let json = try #require(String(data: JSONEncoder().encode(frame), encoding: .utf8))
        #expect(json.contains(#""code":"rate_limited""#))
        let body = try JSONDecoder().decode(APIErrorBody.self, from: Data(#"{"code":"not_yours","message":"no"}"#.utf8))
        #expect(body.code == .notYours)
    }

    /// The codes in the rows of PROTOCOL.md's error tables: `| 4xx | `code` |` rows of the HTTP tables, and the
    /// `| `code` |` rows of the socket's tables (sections whose table header is `| code | when |`).
    private static func documentedCodes() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        var codes: Set<String> = []
        var inSocketTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| code | when |") {
                inSocketTable = true
                continue
            }
            guard line.hasPrefix("|") else {
                inSocketTable = false
                continue
            }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let codeCell: String?
            if let status = cells.first, status.count == 3, status.allSatisfy(\.isNumber), status.first != "2",
                cells.count > 1
            {
                codeCell = cells[1]
            } else if inSocketTable {
                codeCell = cells.first
            } else {
                codeCell = nil
            }
            guard let codeCell else { continue }
            for match in codeCell.split(separator: ",") {
                let code = match.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                    in: CharacterSet(charactersIn: "`"))
                if !code.isEmpty, code.allSatisfy({ $0.isLowercase || $0 == "_" }) { codes.insert(code) }
            }
        }
        return codes
    }
}
