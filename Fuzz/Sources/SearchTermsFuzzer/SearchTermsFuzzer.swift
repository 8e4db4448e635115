import ChatCoreSlice
import FuzzSupport

/// Input: a search query as typed (`GET /api/v1/search?q=`; the server reads it as a `String`, so any bytes that
/// are not UTF-8 arrive replaced).
///
/// `SearchTerms` is the pure half of the query translation: ChatPersistence only quotes its words for FTS5. Checks
/// that a query is refused exactly when it is too long or has no letter or digit, and that the words hold letters
/// and digits only, never a character FTS5 would read as syntax.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearchTerms(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let query = String(decoding: input.rest, as: UTF8.self)
    let terms = SearchTerms(query)
    let shouldAccept = query.count <= SearchTerms.maxCharacters && query.contains { $0.isLetter || $0.isNumber }
    invariant((terms != nil) == shouldAccept, "\(query.debugDescription) gave \(String(describing: terms))")
    for word in terms?.words ?? [] {
        invariant(!word.isEmpty, "an empty word")
        invariant(word.allSatisfy { $0.isLetter || $0.isNumber }, "word \(word.debugDescription)")
        invariant(!word.unicodeScalars.contains(where: isFTS5Syntax), "word \(word.debugDescription) holds FTS5 syntax")
    }
    return 0
}

/// ASCII that means something in an FTS5 query outside a string: quotes, grouping, prefix, column filters,
/// operators, spaces and controls.
private func isFTS5Syntax(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII && (scalar.value < 0x21 || "\"'()*:^+-{},.".unicodeScalars.contains(scalar) || scalar.value == 0x7F)
}
