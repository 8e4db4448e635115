import ChatCoreSlice
import FuzzSupport

/// Input: a search query as typed (`GET /api/v1/search?q=`; the server reads it as a `String`, so any bytes that
/// are not UTF-8 arrive replaced).
///
/// `SearchQuery` is the pure half of the query translation: ChatPersistence only quotes its tokens for FTS5 and
/// `tsquery`. Checks that a query is refused when it is too long, that a refusal says why, and that every token is
/// non-empty and holds nothing either database would read as syntax outside its quotes: letters, digits and marks,
/// or a filter's `⁂` token.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearchQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let text = String(decoding: input.rest, as: UTF8.self)
    let query: SearchQuery
    do {
        query = try SearchQuery.parse(text)
    } catch {
        invariant(!error.message.isEmpty, "a refusal without a reason for \(text.debugDescription)")
        return 0
    }
    invariant(text.count <= SearchQuery.maxCharacters, "\(text.count) characters accepted")
    for phrase in query.phrases + query.excluded {
        invariant(!phrase.tokens.isEmpty, "an empty phrase")
        for (index, token) in phrase.tokens.enumerated() {
            invariant(!token.text.isEmpty, "an empty token")
            invariant(!token.isPrefix || index == phrase.tokens.count - 1, "a prefix inside a phrase")
            invariant(!token.text.unicodeScalars.contains(where: isQuerySyntax), "token \(token.text.debugDescription)")
        }
    }
    return 0
}

/// ASCII that means something in an FTS5 or `tsquery` query outside a string: quotes, grouping, prefix, column
/// filters, operators, spaces and controls.
private func isQuerySyntax(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII
        && (scalar.value < 0x21 || "\"'()*:^+-{},.&|!<>\\".unicodeScalars.contains(scalar) || scalar.value == 0x7F)
}
