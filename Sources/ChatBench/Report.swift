import Foundation

/// A run's figures as a table for people and one JSON line for scripts.
struct Report {
    let title: String
    let rows: [(label: String, value: String)]
    let warnings: [String]
    let json: JSONValue

    /// Prints the table and warnings (unless `jsonOnly`), then the JSON line.
    func print(jsonOnly: Bool) {
        if !jsonOnly {
            Swift.print(self.title)
            let width = self.rows.map(\.label.count).max() ?? 0
            for row in self.rows {
                Swift.print("  \(row.label.padding(toLength: width, withPad: " ", startingAt: 0))  \(row.value)")
            }
            for warning in self.warnings {
                Swift.print("WARNING: \(warning)")
            }
        }
        Swift.print(self.json.rendered)
    }
}
