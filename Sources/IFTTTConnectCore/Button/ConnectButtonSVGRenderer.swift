import Foundation

/// Draws a ``ConnectButtonAppearance`` as a standalone SVG document, in pure Swift.
///
/// The output is deterministic (the same appearance always gives the same bytes), so it suits snapshot
/// tests, documentation and command-line previews. The knob shows the service's icon as an image reference,
/// or a monogram when the service has none; the loading pulse is an SVG animation.
///
/// ```swift
/// let svg = ConnectButtonSVGRenderer.render(ConnectButtonAppearance(state: .connect, connection: connection))
/// try svg.write(to: URL(fileURLWithPath: "button.svg"), atomically: true, encoding: .utf8)
/// ```
@_spi(Sandbox) public enum ConnectButtonSVGRenderer {
    /// Rendering choices.
    public struct Options: Sendable, Hashable {
        /// Prefix of the ids of clip paths and filters; give each SVG its own when several share a page.
        public var idPrefix: String
        /// Whether a typical host background (white or black) is drawn behind the button.
        public var drawsHostBackground: Bool
        /// Space around the button, in points.
        public var padding: Double

        /// Creates options; by default ids start with `cb`, the host background is drawn, and padding is 16 pt.
        public init(idPrefix: String = "cb", drawsHostBackground: Bool = true, padding: Double = 16) {
            self.idPrefix = idPrefix
            self.drawsHostBackground = drawsHostBackground
            self.padding = padding
        }
    }

    /// The fonts asked for, most preferred first.
    static let fontFamily = "'Avenir Next', Avenir, 'Helvetica Neue', Helvetica, Arial, sans-serif"

    /// Renders `appearance` with the default ``Options``.
    public static func render(_ appearance: ConnectButtonAppearance) -> String {
        render(appearance, options: Options())
    }

    /// Renders `appearance` as an SVG document.
    public static func render(_ appearance: ConnectButtonAppearance, options: Options) -> String {
        let g = appearance.geometry
        let pad = options.padding
        let id = options.idPrefix
        let width = g.width + 2 * pad
        var layout: FooterLayout?
        var footerBottom = 0.0
        if let footer = appearance.footer {
            let computed = footerLayout(footer)
            layout = computed
            footerBottom = footer.frame.y + Double(computed.lines.count) * footer.frame.height
        }
        let height = max(g.totalHeight(hasFooter: appearance.footer != nil), footerBottom) + 2 * pad
        let h = ConnectButtonGeometry.height
        var svg = ""
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
        svg += " width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\""
        svg += " role=\"img\" aria-label=\"\(escape(appearance.accessibilityLabel))\">\n"
        svg += "  <title>\(escape(appearance.accessibilityLabel))</title>\n"
        svg += "  <desc>Connect Button, state \(appearance.state.name), style \(appearance.style.rawValue), "
        svg += "\(appearance.colorScheme.rawValue) host, \(appearance.localization)</desc>\n"
        svg += "  <defs>\n"
        svg +=
            "    <clipPath id=\"\(id)-pill\"><rect x=\"0\" y=\"0\" width=\"\(n(g.width))\" height=\"\(n(h))\" rx=\"\(n(h / 2))\"/></clipPath>\n"
        if let knob = appearance.knob {
            svg += "    <filter id=\"\(id)-shadow\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\">"
            svg += "<feGaussianBlur in=\"SourceAlpha\" stdDeviation=\"3\"/><feOffset dx=\"0\" dy=\"3\"/>"
            svg +=
                "<feComponentTransfer><feFuncA type=\"linear\" slope=\"\(n(knob.shadowOpacity))\"/></feComponentTransfer>"
            svg += "<feMerge><feMergeNode/><feMergeNode in=\"SourceGraphic\"/></feMerge></filter>\n"
        }
        svg += "  </defs>\n"
        if options.drawsHostBackground {
            svg +=
                "  <rect width=\"100%\" height=\"100%\" fill=\"\(appearance.colorScheme.hostBackgroundColor.hex)\"/>\n"
        }
        svg += "  <g transform=\"translate(\(n(pad)) \(n(pad)))\">\n"
        svg +=
            "    <rect class=\"pill\" x=\"0\" y=\"0\" width=\"\(n(g.width))\" height=\"\(n(h))\" rx=\"\(n(h / 2))\" fill=\"\(appearance.backgroundColor.hex)\"/>\n"
        let rtl = appearance.layoutDirection == .rightToLeft
        if let progress = appearance.progress, progress.fraction > 0 {
            let filled = g.width * progress.fraction
            svg +=
                "    <rect class=\"progress\" x=\"\(n(rtl ? g.width - filled : 0))\" y=\"0\" width=\"\(n(filled))\" height=\"\(n(h))\""
            svg += " fill=\"\(progress.color.hex)\" clip-path=\"url(#\(id)-pill)\"/>\n"
        }
        if let label = appearance.label { svg += labelSVG(label, width: g.width) }
        if let knob = appearance.knob { svg += knobSVG(knob, id: id) }
        if let field = appearance.emailField { svg += emailSVG(field, rightToLeft: rtl) }
        if let checkmark = appearance.checkmark { svg += checkmarkSVG(checkmark) }
        if let footer = appearance.footer, let layout { svg += footerSVG(footer, layout: layout) }
        svg += "  </g>\n</svg>\n"
        return svg
    }

    // MARK: - Parts

    static func labelSVG(_ label: ConnectButtonAppearance.Label, width: Double) -> String {
        let available = max(1, width - label.insets.left - label.insets.right)
        let fit = fitting(
            label.text, fontSize: label.fontSize, minimumScale: label.minimumScaleFactor,
            available: available, weight: .bold)
        let x = label.insets.left + available / 2
        let y = ConnectButtonGeometry.height / 2 + fit.size * 0.35
        var s =
            "    <text class=\"label\" x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"middle\" font-family=\"\(fontFamily)\""
        s += " font-size=\"\(n(fit.size))\" font-weight=\"700\" fill=\"\(label.color.hex)\""
        if label.opacity < 1 { s += " opacity=\"\(n(label.opacity))\"" }
        if fit.compress { s += " textLength=\"\(n(available))\" lengthAdjust=\"spacingAndGlyphs\"" }
        s += ">\(escape(label.text))"
        if let pulse = label.pulse {
            s +=
                "<animate attributeName=\"opacity\" values=\"1;\(n(pulse.minimumOpacity));1\" dur=\"\(n(pulse.period))s\" repeatCount=\"indefinite\"/>"
        }
        return s + "</text>\n"
    }

    static func knobSVG(_ knob: ConnectButtonAppearance.Knob, id: String) -> String {
        let f = knob.frame
        var s =
            "    <circle class=\"knob\" cx=\"\(n(f.midX))\" cy=\"\(n(f.midY))\" r=\"\(n(f.width / 2))\" fill=\"\(knob.color.hex)\""
        s += " filter=\"url(#\(id)-shadow)\"/>\n"
        let i = knob.iconFrame
        switch knob.icon {
        case .image(let image):
            // The loaded bytes, embedded: the SVG shows what the SDK loaded, and a viewer fetches nothing.
            s +=
                "    <image class=\"icon\" x=\"\(n(i.x))\" y=\"\(n(i.y))\" width=\"\(n(i.width))\" height=\"\(n(i.height))\""
            s += " xlink:href=\"\(image.dataURL)\" preserveAspectRatio=\"xMidYMid meet\"/>\n"
        case .monogram(let letter, let color):
            let size = i.height * 0.85
            s +=
                "    <text class=\"monogram\" x=\"\(n(i.midX))\" y=\"\(n(i.midY + size * 0.35))\" text-anchor=\"middle\""
            s +=
                " font-family=\"\(fontFamily)\" font-size=\"\(n(size))\" font-weight=\"700\" fill=\"\(color.hex)\">\(escape(letter))</text>\n"
        case .none:
            break
        }
        return s
    }

    static func emailSVG(_ field: ConnectButtonAppearance.EmailField, rightToLeft rtl: Bool = false) -> String {
        let isPlaceholder = field.text.isEmpty
        let text = isPlaceholder ? field.placeholder : field.text
        let fit = fitting(
            text, fontSize: field.fontSize, minimumScale: 0.7, available: field.frame.width, weight: .semibold)
        let color = isPlaceholder ? field.placeholderColor : field.textColor
        // A text field is never squeezed: an address too long at the smallest size it shrinks to runs on past the
        // field's edge, clipped there (a nested viewport), as a text field scrolls it.
        let f = field.frame
        var s = ""
        if fit.compress {
            s +=
                "    <svg class=\"email-clip\" x=\"\(n(f.x))\" y=\"\(n(f.y))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\""
            s += " viewBox=\"\(n(f.x)) \(n(f.y)) \(n(f.width)) \(n(f.height))\" overflow=\"hidden\">\n  "
        }
        s += "    <text class=\"email\" x=\"\(n(rtl ? f.maxX : f.x))\""
        s += " y=\"\(n(f.midY + fit.size * 0.35))\"\(rtl ? " text-anchor=\"end\"" : "")"
        s += " font-family=\"\(fontFamily)\" font-size=\"\(n(fit.size))\" font-weight=\"600\" fill=\"\(color.hex)\""
        s += ">\(escape(text))</text>\n"
        if fit.compress { s += "    </svg>\n" }
        let c = field.confirmFrame
        let r = c.height / 2
        // Square towards the field, round at the pill's end: mirrored in right-to-left layouts.
        let shape =
            rtl
            ? "M\(n(c.maxX)) \(n(c.y))H\(n(c.x + r))A\(n(r)) \(n(r)) 0 0 0 \(n(c.x + r)) \(n(c.maxY))H\(n(c.maxX))Z"
            : "M\(n(c.x)) \(n(c.y))H\(n(c.maxX - r))A\(n(r)) \(n(r)) 0 0 1 \(n(c.maxX - r)) \(n(c.maxY))H\(n(c.x))Z"
        s += "    <path class=\"confirm\" d=\"\(shape)\" fill=\"\(field.confirmColor.hex)\"/>\n"
        let glyph = field.confirmGlyph.map { "\(n($0.x)) \(n($0.y))" }.joined(separator: "L")
        s += "    <path class=\"confirm-glyph\" d=\"M\(glyph)Z\" fill=\"\(field.confirmGlyphColor.hex)\""
        s += " stroke=\"\(field.confirmGlyphColor.hex)\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>\n"
        return s
    }

    /// The checkmark (``ConnectButtonCheckmarkShape``), drawn as far as its motion values say: whole at rest.
    static func checkmarkSVG(_ checkmark: ConnectButtonAppearance.Checkmark) -> String {
        animatedCheckmarkSVG(checkmark)
    }

    /// The footer broken into at most two lines, at a font size that fits.
    struct FooterLayout {
        var lines: [[StyledText.Run]]
        var fontSize: Double
        var compress: Bool
    }

    static func footerLayout(_ footer: ConnectButtonAppearance.Footer) -> FooterLayout {
        let available = footer.frame.width
        let whole = footer.text.description
        if estimatedWidth(whole, fontSize: footer.fontSize, weight: .semibold) <= available {
            return FooterLayout(lines: [footer.text.runs], fontSize: footer.fontSize, compress: false)
        }
        // Words keep their run's look; a line break replaces one space.
        var words: [StyledText.Run] = []
        for run in footer.text.runs {
            var current = ""
            for character in run.text {
                current.append(character)
                if character == " " || isWide(character) {
                    words.append(.init(text: current, kind: run.kind, color: run.color))
                    current = ""
                }
            }
            if !current.isEmpty { words.append(.init(text: current, kind: run.kind, color: run.color)) }
        }
        let total = estimatedWidth(whole, fontSize: footer.fontSize, weight: .semibold)
        var first: [StyledText.Run] = []
        var width = 0.0
        var index = 0
        while index < words.count {
            let w = estimatedWidth(words[index].text, fontSize: footer.fontSize, weight: .semibold)
            if width + w > total / 2 && !first.isEmpty { break }
            first.append(words[index])
            width += w
            index += 1
        }
        let lines = [trimmed(first), trimmed(Array(words[index...]))].filter { !$0.isEmpty }
        let widest =
            lines.map { line in estimatedWidth(line.map(\.text).joined(), fontSize: footer.fontSize, weight: .semibold)
            }.max() ?? 0
        guard widest > available else { return FooterLayout(lines: lines, fontSize: footer.fontSize, compress: false) }
        if footer.fontSize > ConnectButtonGeometry.footerFontSize {
            // Dynamic Type made the footer larger: it wraps onto as many lines as it needs instead of shrinking.
            return FooterLayout(
                lines: greedyLines(words, available: available, fontSize: footer.fontSize),
                fontSize: footer.fontSize, compress: false)
        }
        let scale = available / widest
        if scale >= 0.8 {
            return FooterLayout(
                lines: lines, fontSize: (footer.fontSize * scale * 10).rounded(.down) / 10, compress: false)
        }
        return FooterLayout(lines: lines, fontSize: footer.fontSize * 0.8, compress: true)
    }

    /// `words` filled into lines no wider than `available` (a word wider than a line gets a line of its own).
    static func greedyLines(_ words: [StyledText.Run], available: Double, fontSize: Double) -> [[StyledText.Run]] {
        var lines: [[StyledText.Run]] = []
        var line: [StyledText.Run] = []
        var width = 0.0
        for word in words {
            let w = estimatedWidth(word.text, fontSize: fontSize, weight: .semibold)
            let trimmedWidth = estimatedWidth(
                word.text.trimmingCharacters(in: .whitespaces), fontSize: fontSize, weight: .semibold)
            if !line.isEmpty && width + trimmedWidth > available {
                lines.append(trimmed(line))
                line = []
                width = 0
            }
            line.append(word)
            width += w
        }
        if !line.isEmpty { lines.append(trimmed(line)) }
        return lines.filter { !$0.isEmpty }
    }

    /// Merges neighbouring runs of the same look and drops the trailing space.
    static func trimmed(_ words: [StyledText.Run]) -> [StyledText.Run] {
        var merged: [StyledText.Run] = []
        for word in words {
            if let last = merged.last, last.kind == word.kind, last.color == word.color {
                merged[merged.count - 1].text += word.text
            } else {
                merged.append(word)
            }
        }
        if var last = merged.popLast() {
            while last.text.hasSuffix(" ") { last.text.removeLast() }
            if !last.text.isEmpty { merged.append(last) }
        }
        return merged
    }

    static func isWide(_ character: Character) -> Bool {
        character.unicodeScalars.contains { isWide($0.value) }
    }

    static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x11FF).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFF60).contains(v)
    }

    static func footerSVG(_ footer: ConnectButtonAppearance.Footer, layout: FooterLayout) -> String {
        let f = footer.frame
        var s = ""
        for (index, line) in layout.lines.enumerated() {
            let y = f.y + (Double(index) + 0.5) * f.height + layout.fontSize * 0.35
            s +=
                "    <text class=\"footer\" x=\"\(n(f.midX))\" y=\"\(n(y))\" text-anchor=\"middle\" xml:space=\"preserve\""
            s += " font-family=\"\(fontFamily)\" font-size=\"\(n(layout.fontSize))\" font-weight=\"600\""
            let lineWidth = estimatedWidth(line.map(\.text).joined(), fontSize: layout.fontSize, weight: .semibold)
            if layout.compress || lineWidth > f.width {
                // A word wider than the line (an email address at the largest text sizes) is squeezed, not cut.
                s += " textLength=\"\(n(f.width))\" lengthAdjust=\"spacingAndGlyphs\""
            }
            s += ">"
            for run in line {
                s += "<tspan fill=\"\(run.color.hex)\""
                switch run.kind {
                case .plain: break
                case .wordmark: s += " font-weight=\"900\" letter-spacing=\"0.3\""
                case .link: s += " text-decoration=\"underline\""
                }
                s += ">\(escape(run.text))</tspan>"
            }
            s += "</text>\n"
        }
        return s
    }

    // MARK: - Text measurement

    enum Weight { case semibold, bold }

    /// A rough width of `text` at `fontSize`, from per-character classes; good enough to decide shrinking.
    ///
    /// This runs for every word of a footer that wraps (the `creating-account` footer, with the email address), so
    /// it looks characters up in a table: no `CharacterSet` (building `CharacterSet.uppercaseLetters` on every
    /// character made that state cost 4-7x the others).
    static func estimatedWidth(_ text: String, fontSize: Double, weight: Weight) -> Double {
        var ems = 0.0
        for scalar in text.unicodeScalars {
            ems += emWidth(scalar)
        }
        return ems * fontSize * (weight == .bold ? 1.1 : 1.0)
    }

    /// The width class of one character, in ems: wide (CJK, Hangul) 1.0; narrow punctuation and thin letters 0.3;
    /// capitals (Unicode categories Lu and Lt), `m`, `w` and `@` 0.76; anything else 0.63.
    static func emWidth(_ scalar: Unicode.Scalar) -> Double {
        if scalar.isASCII { return asciiEmWidths[Int(scalar.value)] }
        if isWide(scalar.value) { return 1.0 }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .titlecaseLetter: return 0.76
        default: return 0.63
        }
    }

    /// ``emWidth(_:)`` of the 128 ASCII characters.
    static let asciiEmWidths: [Double] = (0..<128).map { value in
        let scalar = Unicode.Scalar(UInt8(value))
        if " .,:;'!|ijlIft()[]".unicodeScalars.contains(scalar) { return 0.3 }
        if ("A"..."Z").contains(scalar) || "mw@".unicodeScalars.contains(scalar) { return 0.76 }
        return 0.63
    }

    /// The font size that fits `available`, not below `minimumScale`, and whether the text must also be compressed.
    static func fitting(_ text: String, fontSize: Double, minimumScale: Double, available: Double, weight: Weight)
        -> (size: Double, compress: Bool)
    {
        let natural = estimatedWidth(text, fontSize: fontSize, weight: weight)
        guard natural > available, natural > 0 else { return (fontSize, false) }
        let scale = available / natural
        if scale >= minimumScale { return ((fontSize * scale * 10).rounded(.down) / 10, false) }
        return (fontSize * minimumScale, true)
    }

    // MARK: - Formatting

    /// A number with at most two decimals and no trailing zeros.
    static func n(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// `text` with XML's special characters escaped. Scalar by scalar, not by `Character`: a quote followed by a
    /// combining mark is one `Character`, and left as it is it would end the attribute value it sits in.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&apos;".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
