import Foundation

extension ConnectButtonAppearance {
    /// One run of text the button draws, with the colours it sits on: what a WCAG contrast check needs.
    public struct TextRun: Sendable, Hashable {
        /// Where the text is.
        public enum Role: String, Sendable, Hashable {
            /// The pill's label.
            case label
            /// The letter on the knob when the service icon is not shown.
            case monogram
            /// The email the user typed.
            case emailText
            /// The email field's placeholder.
            case emailPlaceholder
            /// A run of the footer, on the host's background.
            case footer
        }

        /// Where the text is.
        public var role: Role
        /// The text.
        public var text: String
        /// Its colour.
        public var color: ConnectColor
        /// Every colour the text may be drawn over (a label spans the pill and its progress bar).
        public var backgrounds: [ConnectColor]
        /// The smallest font size it may be drawn at, in points (after shrinking to fit).
        public var fontSize: Double
        /// Whether the font is bold (700 or heavier).
        public var isBold: Bool

        /// WCAG 2's large text: at least 18 pt, or 14 pt bold (24 px and 18.66 px; a point on screen is a CSS px).
        public var isLargeText: Bool { fontSize >= 24 || (isBold && fontSize >= 18.66) }
        /// The contrast WCAG AA asks for: 3:1 for large text, 4.5:1 otherwise.
        public var requiredContrast: Double { isLargeText ? 3 : 4.5 }
        /// The lowest contrast against any of ``backgrounds``.
        public var contrast: Double { backgrounds.map { color.contrastRatio(with: $0) }.min() ?? 21 }
        /// Whether the run meets WCAG AA.
        public var meetsAA: Bool { contrast >= requiredContrast }
    }

    /// Every text run this appearance draws, with its colours: the label, the knob's monogram, the email field's
    /// text or placeholder, and each footer run.
    public var textRuns: [TextRun] {
        var runs: [TextRun] = []
        if let label, !label.text.isEmpty {
            var backgrounds = [backgroundColor]
            if let progress, progress.target > 0 || progress.fraction > 0 { backgrounds.append(progress.color) }
            runs.append(
                TextRun(
                    role: .label, text: label.text, color: label.color, backgrounds: backgrounds,
                    fontSize: label.fontSize * label.minimumScaleFactor, isBold: true))
        }
        if let knob, case .monogram(let letter, let color) = knob.icon {
            runs.append(
                TextRun(
                    role: .monogram, text: letter, color: color, backgrounds: [knob.color],
                    fontSize: knob.iconFrame.height * 0.85, isBold: true))
        }
        if let field = emailField {
            if field.text.isEmpty {
                runs.append(
                    TextRun(
                        role: .emailPlaceholder, text: field.placeholder, color: field.placeholderColor,
                        backgrounds: [backgroundColor], fontSize: field.fontSize * 0.7, isBold: false))
            } else {
                runs.append(
                    TextRun(
                        role: .emailText, text: field.text, color: field.textColor, backgrounds: [backgroundColor],
                        fontSize: field.fontSize * 0.7, isBold: false))
            }
        }
        if let footer {
            for run in footer.text.runs where !run.text.trimmingCharacters(in: .whitespaces).isEmpty {
                runs.append(
                    TextRun(
                        role: .footer, text: run.text, color: run.color,
                        backgrounds: [colorScheme.hostBackgroundColor], fontSize: footer.fontSize * 0.8,
                        isBold: run.kind == .wordmark))
            }
        }
        return runs
    }
}

extension ConnectColor {
    /// `self` mixed with `other`, per sRGB component: `amount` 0 is `self`, 1 is `other` (clamped to 0...1; a
    /// non-finite amount is `other`).
    @_spi(Sandbox) public func mixed(with other: ConnectColor, amount: Double) -> ConnectColor {
        let t = min(1, max(0, amount.isFinite ? amount : 1))
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(min(255, max(0, (Double(a) * (1 - t) + Double(b) * t).rounded())))
        }
        return ConnectColor(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue))
    }

    /// Black or white, whichever contrasts more with every colour of `fills` (the lowest ratio decides). Pure
    /// black or white always reaches 4.58:1 against a single fill.
    @_spi(Sandbox) public static func textColor(onAll fills: [ConnectColor]) -> ConnectColor {
        func worst(_ text: ConnectColor) -> Double { fills.map { text.contrastRatio(with: $0) }.min() ?? 21 }
        return worst(.white) >= worst(.black) ? .white : .black
    }

    /// This fill, moved away from `text` (towards black under white text, towards white under black text) just
    /// enough for the two to reach `ratio`; unchanged when they already do.
    @_spi(Sandbox) public func ensuringContrast(_ ratio: Double, with text: ConnectColor) -> ConnectColor {
        if contrastRatio(with: text) >= ratio { return self }
        let target: ConnectColor = text.relativeLuminance > 0.5 ? .black : .white
        var step = 0.0
        var candidate = self
        while candidate.contrastRatio(with: text) < ratio && step < 1 {
            step += 0.02
            candidate = mixed(with: target, amount: step)
        }
        return candidate
    }
}
