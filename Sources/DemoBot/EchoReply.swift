/// The demo bot's answer: the text echoed with the speaker swapped, as the WeChat-style tutorial fakes a reply
/// ("I like you" → "you like I").
public enum EchoReply {
    private static let swaps: [String: String] = [
        "i": "you", "you": "I", "me": "you", "my": "your", "your": "my", "mine": "yours", "yours": "mine",
        "我": "你", "你": "我",
    ]

    public static func reply(to text: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            if let swapped = Self.swaps[word.lowercased()] {
                let capitalized = word.first?.isUppercase == true && word.lowercased() != "i"
                result += capitalized ? swapped.prefix(1).uppercased() + swapped.dropFirst() : swapped
            } else {
                result += word
            }
            word = ""
        }
        for character in text {
            if character.isLetter, !Self.isCJK(character) {
                word.append(character)
            } else {
                flush()
                if Self.isCJK(character) {
                    word = String(character)
                    flush()
                } else {
                    result.append(character)
                }
            }
        }
        flush()
        return result
    }

    private static func isCJK(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { (0x4E00...0x9FFF).contains($0.value) } ?? false
    }
}
