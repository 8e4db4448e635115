/// Waits until `condition` holds, asking again every 10 ms, and throws (naming `what`) if it never does within
/// `limit`. It runs where it is called (on the main actor for a view model's test), so the condition may read
/// that actor's state.
public func eventually(
    _ what: String = "the condition", within limit: Duration = .seconds(30),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw TestClientError("never held within \(limit): \(what)")
}
