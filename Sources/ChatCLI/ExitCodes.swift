import ArgumentParser
import ChatClient

/// The exit codes `chat` documents (sysexits.h numbers, so shell scripts can tell causes apart).
enum ExitCodes {
    static let refused = ExitCode(65)  // EX_DATAERR: the server refused the request
    static let unreachable = ExitCode(69)  // EX_UNAVAILABLE
    static let timedOut = ExitCode(75)  // EX_TEMPFAIL
    static let authentication = ExitCode(77)  // EX_NOPERM

    /// Prints the error and picks its exit code.
    static func fail(_ error: any Error) -> ExitCode {
        switch error {
        case let error as ChatClientError:
            Terminal.error(error.description)
            switch error {
            case .unreachable: return unreachable
            case .unauthorized, .notSignedIn: return authentication
            case .server(let status, _, _) where status == 401: return authentication
            case .server, .rejected: return refused
            case .invalidAddress: return .validationFailure
            default: return .failure
            }
        case let error as CLIError:
            Terminal.error(error.description)
            return error.code
        default:
            Terminal.error(String(describing: error))
            return .failure
        }
    }
}

/// A CLI failure with its exit code.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    var code: ExitCode

    init(_ description: String, code: ExitCode = .failure) {
        self.description = description
        self.code = code
    }
}
