import Foundation

/// Text made of runs that renderers draw differently: plain text, the IFTTT wordmark, and links.
@_spi(Sandbox) public struct StyledText: Sendable, Hashable, CustomStringConvertible {
    /// One stretch of text with one look.
    public struct Run: Sendable, Hashable {
        /// How a run is drawn.
        public enum Kind: String, Sendable, Hashable {
            /// The surrounding font.
            case plain
            /// The word `IFTTT` as the wordmark (a heavier weight).
            case wordmark
            /// A tappable, underlined link.
            case link
        }

        /// The text.
        public var text: String
        /// How it is drawn.
        public var kind: Kind
        /// Its colour.
        public var color: ConnectColor

        /// Creates a run.
        public init(text: String, kind: Kind, color: ConnectColor) {
            self.text = text
            self.kind = kind
            self.color = color
        }
    }

    /// The runs, in reading order.
    public var runs: [Run]

    /// Creates text from runs.
    public init(runs: [Run]) {
        self.runs = runs
    }

    /// The text without styling.
    public var description: String { runs.map(\.text).joined() }

    /// Splits `text` into plain runs and wordmark runs, one for each literal `IFTTT`, wherever it stands in
    /// the sentence (the original SDK moved the wordmark to the front, which garbled some languages).
    public static func wordmarked(_ text: String, color: ConnectColor) -> StyledText {
        var runs: [Run] = []
        var rest = text[...]
        while let range = rest.range(of: "IFTTT") {
            if range.lowerBound > rest.startIndex {
                runs.append(Run(text: String(rest[..<range.lowerBound]), kind: .plain, color: color))
            }
            runs.append(Run(text: "IFTTT", kind: .wordmark, color: color))
            rest = rest[range.upperBound...]
        }
        if !rest.isEmpty { runs.append(Run(text: String(rest), kind: .plain, color: color)) }
        return StyledText(runs: runs)
    }

    /// This text followed by `other`, separated by one space.
    func appending(_ other: StyledText) -> StyledText {
        guard let last = runs.last else { return other }
        return StyledText(runs: runs + [Run(text: " ", kind: .plain, color: last.color)] + other.runs)
    }
}
