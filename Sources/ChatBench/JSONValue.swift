import Foundation

/// A JSON value whose objects keep their keys in the order given, so the report line reads the same every run.
enum JSONValue {
    case integer(Int)
    case number(Double, decimals: Int)
    case string(String)
    case bool(Bool)
    case null
    case object([(String, JSONValue)])

    /// A number, or null when there is none.
    static func optional(_ value: Double?, decimals: Int) -> JSONValue {
        value.map { .number($0, decimals: decimals) } ?? .null
    }

    var rendered: String {
        switch self {
        case .integer(let value):
            String(value)
        case .number(let value, let decimals):
            value.isFinite ? value.fixed(decimals) : "null"
        case .string(let value):
            Self.quoted(value)
        case .bool(let value):
            value ? "true" : "false"
        case .null:
            "null"
        case .object(let members):
            "{" + members.map { "\(Self.quoted($0.0)):\($0.1.rendered)" }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
