import Foundation

extension ConnectButtonSVGRenderer {
    /// Renders one moment of a transition: the destination appearance `to` with the animated values of `frame`
    /// laid over it, and what is left of `from` (its label, knob, email field and pill colour) fading out.
    ///
    /// ```swift
    /// let motion = ConnectButtonMotion(from: .connect, to: .slideToConnect)
    /// let svgs = motion.frames(framesPerSecond: 30).map { frame in
    ///     ConnectButtonSVGRenderer.render(frame: frame, from: connectAppearance, to: slideAppearance)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - frame: The sampled values (``ConnectButtonMotion/frame(at:)``).
    ///   - from: The appearance of the state being left.
    ///   - to: The appearance of the state being entered; its size, footer and colours frame the picture.
    ///   - options: Ids, background and padding, as for ``render(_:options:)``.
    public static func render(
        frame: ConnectButtonMotionFrame, from: ConnectButtonAppearance, to: ConnectButtonAppearance,
        options: Options = Options()
    ) -> String {
        let g = to.geometry
        let pad = options.padding
        let id = options.idPrefix
        let h = ConnectButtonGeometry.height
        // The footers: the old one fading out while the new one fades in, once when they say the same.
        var footers: [(footer: ConnectButtonAppearance.Footer, layout: FooterLayout, opacity: Double)] = []
        if let old = from.footer, old.text != to.footer?.text, to.footer != nil, frame.outgoingFooterOpacity > 0 {
            footers.append((old, footerLayout(old), frame.outgoingFooterOpacity))
        }
        if let new = to.footer {
            let changes = from.footer.map { $0.text != new.text } ?? false
            let opacity = changes ? frame.incomingFooterOpacity : 1
            if opacity > 0 { footers.append((new, footerLayout(new), opacity)) }
        }
        let footerBottom =
            [from.footer, to.footer].compactMap { footer in
                footer.map { $0.frame.y + Double(footerLayout($0).lines.count) * $0.frame.height }
            }.max() ?? 0
        let width = g.width + 2 * pad
        let height = max(g.totalHeight(hasFooter: to.footer != nil), footerBottom) + 2 * pad
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
        svg += " width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\""
        svg += " role=\"img\" aria-label=\"\(escape(to.accessibilityLabel))\">\n"
        svg += "  <title>\(escape(to.accessibilityLabel))</title>\n"
        svg += "  <desc>Connect Button, \(from.state.name) to \(to.state.name) at \(n(frame.time)) s, "
        svg += "style \(to.style.rawValue), \(to.localization)</desc>\n"
        svg += "  <defs>\n"
        svg +=
            "    <clipPath id=\"\(id)-pill\"><rect x=\"0\" y=\"0\" width=\"\(n(g.width))\" height=\"\(n(h))\" rx=\"\(n(h / 2))\"/></clipPath>\n"
        svg += "    <filter id=\"\(id)-shadow\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\">"
        svg += "<feGaussianBlur in=\"SourceAlpha\" stdDeviation=\"3\"/><feOffset dx=\"0\" dy=\"3\"/>"
        svg += "<feComponentTransfer><feFuncA type=\"linear\" slope=\"0.25\"/></feComponentTransfer>"
        svg += "<feMerge><feMergeNode/><feMergeNode in=\"SourceGraphic\"/></feMerge></filter>\n"
        svg += "  </defs>\n"
        if options.drawsHostBackground {
            svg += "  <rect width=\"100%\" height=\"100%\" fill=\"\(to.colorScheme.hostBackgroundColor.hex)\"/>\n"
        }
        svg += "  <g transform=\"translate(\(n(pad)) \(n(pad)))\">\n"
        // The shake moves the pill and what is on it, towards the leading edge first; the footer stays.
        let offset = to.layoutDirection == .rightToLeft ? -frame.pillOffset : frame.pillOffset
        if offset != 0 { svg += "  <g class=\"shake\" transform=\"translate(\(n(offset)) 0)\">\n" }
        let pill = "x=\"0\" y=\"0\" width=\"\(n(g.width))\" height=\"\(n(h))\" rx=\"\(n(h / 2))\""
        if from.backgroundColor != to.backgroundColor, frame.backgroundBlend < 1 {
            svg += "    <rect class=\"pill\" \(pill) fill=\"\(from.backgroundColor.hex)\"/>\n"
            svg += "    <rect class=\"pill\" \(pill) fill=\"\(to.backgroundColor.hex)\""
            svg += " opacity=\"\(n(frame.backgroundBlend))\"/>\n"
        } else {
            svg += "    <rect class=\"pill\" \(pill) fill=\"\(to.backgroundColor.hex)\"/>\n"
        }
        if let progress = to.progress, let fraction = frame.progress, fraction > 0 {
            // Right to left, the bar fills from the right.
            let filled = g.width * min(1, fraction)
            let x = to.layoutDirection == .rightToLeft ? g.width - filled : 0
            svg +=
                "    <rect class=\"progress\" x=\"\(n(x))\" y=\"0\" width=\"\(n(filled))\" height=\"\(n(h))\""
            svg += " fill=\"\(progress.color.hex)\" clip-path=\"url(#\(id)-pill)\"/>\n"
        }
        svg += labelsSVG(frame: frame, from: from.label, to: to.label, width: g.width)
        if let knob = frame.knob, knob.opacity > 0, var look = to.knob ?? from.knob {
            look.frame = g.knobFrame(position: knob.position, scale: knob.scale, direction: to.layoutDirection)
            let size = ConnectButtonGeometry.iconSize
            look.iconFrame = ConnectButtonRect(
                x: look.frame.midX - size / 2, y: look.frame.midY - size / 2, width: size, height: size)
            svg += faded(knobSVG(look, id: id), opacity: knob.opacity)
        }
        if let field = to.emailField ?? from.emailField, let opacity = frame.emailOpacity, opacity > 0 {
            svg += faded(emailSVG(field, rightToLeft: to.layoutDirection == .rightToLeft), opacity: opacity)
        }
        if var look = to.checkmark ?? from.checkmark, let mark = frame.checkmark, mark.opacity > 0 {
            look.circleScale = mark.scale
            look.stroke = mark.stroke
            look.dot = mark.dot
            svg += faded(animatedCheckmarkSVG(look), opacity: mark.opacity)
        }
        if offset != 0 { svg += "  </g>\n" }
        for part in footers { svg += faded(footerSVG(part.footer, layout: part.layout), opacity: part.opacity) }
        svg += "  </g>\n</svg>\n"
        return svg
    }

    /// Renders every frame of `motion` at `framesPerSecond`, each with its own id prefix.
    public static func renderFrames(
        _ motion: ConnectButtonMotion, from: ConnectButtonAppearance, to: ConnectButtonAppearance,
        framesPerSecond: Double = 30, options: Options = Options()
    ) -> [String] {
        motion.frames(framesPerSecond: framesPerSecond).enumerated().map { index, frame in
            var own = options
            own.idPrefix = "\(options.idPrefix)f\(index)"
            return render(frame: frame, from: from, to: to, options: own)
        }
    }

    /// One animated SVG that shows `frames` (standalone SVG documents of the same size, such as
    /// ``renderFrames(_:from:to:framesPerSecond:options:)``'s) one after another, `1 / framesPerSecond` each, then
    /// holds the last for `hold` seconds and starts again. Browsers play it in an `<img>` (SMIL).
    public static func animation(frames: [String], framesPerSecond: Double, hold: Double = 1) -> String {
        guard let first = frames.first else { return "" }
        let rate = framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : 30
        let size =
            first.range(of: "viewBox=\"").flatMap { start in
                first[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
            } ?? "0 0 392 144"
        let parts = size.split(separator: " ")
        let width = parts.count == 4 ? String(parts[2]) : "392"
        let height = parts.count == 4 ? String(parts[3]) : "144"
        let step = 1 / rate
        let total = Double(frames.count) * step + max(0, hold)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
        svg += " width=\"\(width)\" height=\"\(height)\" viewBox=\"\(size)\">\n"
        for (index, frame) in frames.enumerated() {
            let begin = Double(index) * step / total
            let end = Double(index + 1) * step / total
            let isLast = index == frames.count - 1
            let values = index == 0 ? "inline;none" : (isLast ? "none;inline" : "none;inline;none")
            let times =
                index == 0 ? "0;\(n4(end))" : (isLast ? "0;\(n4(begin))" : "0;\(n4(begin));\(n4(end))")
            svg += "<g display=\"\(index == 0 ? "inline" : "none")\">"
            svg += "<animate attributeName=\"display\" values=\"\(values)\" keyTimes=\"\(times)\""
            svg += " dur=\"\(n4(total))s\" calcMode=\"discrete\" repeatCount=\"indefinite\"/>\n"
            svg += frame.hasSuffix("\n") ? frame : frame + "\n"
            svg += "</g>\n"
        }
        return svg + "</svg>\n"
    }

    // MARK: - Parts in motion

    /// The old and new labels at their frame opacities; a label whose text does not change is drawn once.
    static func labelsSVG(
        frame: ConnectButtonMotionFrame, from: ConnectButtonAppearance.Label?, to: ConnectButtonAppearance.Label?,
        width: Double
    ) -> String {
        var s = ""
        if var to, from?.text == to.text {
            to.pulse = nil
            return faded(labelSVG(to, width: width), opacity: frame.pulseOpacity)
        }
        if var from, frame.outgoingLabelOpacity > 0 {
            from.pulse = nil
            s += faded(labelSVG(from, width: width), opacity: frame.outgoingLabelOpacity)
        }
        if var to, frame.incomingLabelOpacity > 0 {
            to.pulse = nil
            s += faded(labelSVG(to, width: width), opacity: frame.incomingLabelOpacity)
        }
        return s
    }

    /// The checkmark as far as it has drawn itself: its circle at ``ConnectButtonAppearance/Checkmark/circleScale``,
    /// the dot while it travels, the tick up to ``ConnectButtonAppearance/Checkmark/stroke``
    /// (``ConnectButtonCheckmarkShape``); all of it at rest.
    static func animatedCheckmarkSVG(_ checkmark: ConnectButtonAppearance.Checkmark) -> String {
        let shape = ConnectButtonCheckmarkShape(frame: checkmark.frame)
        let color = checkmark.color.hex
        let width = n(ConnectButtonCheckmarkShape.lineWidth)
        var s = ""
        let radius = shape.radius(scale: checkmark.circleScale)
        if radius > 0 {
            s += "    <circle class=\"checkmark-circle\" cx=\"\(n(shape.center.x))\" cy=\"\(n(shape.center.y))\""
            s += " r=\"\(n(radius))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\"/>\n"
        }
        if let progress = checkmark.dot {
            let dot = shape.dot(at: progress)
            s += "    <circle class=\"checkmark-dot\" cx=\"\(n(dot.x))\" cy=\"\(n(dot.y))\""
            s += " r=\"\(n(ConnectButtonCheckmarkShape.dotDiameter / 2))\" fill=\"\(color)\"/>\n"
        }
        let tick = shape.tick(stroke: checkmark.stroke)
        if let first = tick.first {
            var d = "M\(n(first.x)) \(n(first.y))"
            for point in tick.dropFirst() { d += "L\(n(point.x)) \(n(point.y))" }
            s += "    <path class=\"checkmark\" d=\"\(d)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\""
            s += " stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
        }
        return s
    }

    /// `part` inside a group at `opacity` (unwrapped when opaque).
    static func faded(_ part: String, opacity: Double) -> String {
        guard !part.isEmpty else { return "" }
        if opacity >= 1 { return part }
        return "    <g opacity=\"\(n(max(0, opacity)))\">\n\(part)    </g>\n"
    }

    /// A number with at most four decimals (key times need more precision than coordinates).
    static func n4(_ value: Double) -> String {
        let rounded = (value * 10000).rounded() / 10000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}
