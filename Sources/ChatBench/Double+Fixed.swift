import Foundation

extension Double {
    /// The value with exactly `decimals` digits after the point, as the table and the JSON line show it.
    func fixed(_ decimals: Int) -> String {
        String(format: "%.\(decimals)f", self)
    }
}
