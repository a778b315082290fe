#if canImport(UIKit) && !os(watchOS)
import UIKit

/// The Connect Button as a UIKit view, as in ConnectSDK-iOS 2.8: add it in a storyboard (`@IBDesignable`) or with
/// `ConnectButton()`, set its ``style``, and give it to a ``ConnectButtonController``, which drives it. It draws
/// each step of the flow for its width, light or dark mode, text size (`preferredContentSizeCategory`) and layout
/// direction, in the controller's language.
///
/// ```swift
/// let connectButton = ConnectButton()
/// connectButton.style = .dynamic
/// let controller = ConnectButtonController(connectButton: connectButton,
///                                          connectionConfiguration: configuration,
///                                          delegate: self)
/// ```
@IBDesignable
open class ConnectButton: UIView {
    /// 2.8's name for the button's colour styles (`ConnectButton.Style.dark`).
    public typealias Style = ConnectButtonStyle

    /// The colours to use; `.light` (for light backgrounds) by default.
    open var style: ConnectButtonStyle = .light { didSet { refresh() } }
    /// The state to draw.
    var visualState: ConnectButtonVisualState = .loading {
        didSet {
            let previous = appearance
            refresh()
            didChangeVisualState(from: previous)
        }
    }
    /// The Connection whose service brands the button.
    var connection: Connection? { didSet { refresh() } }
    /// The language of the texts: the device's preferred language until a ``ConnectButtonController`` sets its
    /// own locale's.
    @_spi(Sandbox) open var localization = ConnectLocalization(locale: ConnectButtonController.determineLocale()) {
        didSet { refresh() }
    }
    /// Whether the footer is shown.
    @IBInspectable var showsFooter: Bool = true { didSet { refresh() } }
    /// The service icon, once the controller has loaded it; without it the knob shows the service's monogram.
    var iconImage: UIImage? { didSet { canvas.setNeedsDisplay() } }
    /// The loaded icon the appearance shows (set by the controller through `show(_:)`).
    private var loadedIcon: ConnectButtonIconImage?
    /// Called when the footer is tapped and it has an action. When it is `nil`, the "about" footer presents the
    /// About page from the view controller that shows the button, as 2.8 did.
    @_spi(Sandbox) open var onFooterTap: ((ConnectButtonAppearance.Footer.Action) -> Void)?
    /// Set by the ``ConnectButtonController`` that drives this button: taps, confirmed emails and footer retries go
    /// to it (a footer's action after ``onFooterTap``).
    @_spi(Sandbox) public var actionHandler: (@MainActor (ConnectButtonAction) -> Void)?

    /// What the button currently draws.
    @_spi(Sandbox) public private(set) var appearance: ConnectButtonAppearance

    /// The email field, visible in the email state.
    let emailField = UITextField()
    /// The email field's delegate (the button itself is no text-field delegate, so no delegate method is its API).
    private lazy var emailFieldDelegate = ConnectButtonEmailFieldDelegate { [weak self] text in
        self?.confirmEmail(text)
    }

    /// Plays the transitions between states (ConnectButton+Motion.swift).
    let motionPlayer = ConnectButtonMotionPlayer()
    /// The view that draws the button and takes its touches: it fills the button, pinned to its edges.
    let canvas = ConnectButtonCanvas(frame: .zero)

    /// Creates a button.
    public override init(frame: CGRect) {
        appearance = ConnectButtonAppearance(state: .loading, connection: nil)
        super.init(frame: frame)
        setUp()
    }

    /// Creates a button from a storyboard or nib.
    public required init?(coder: NSCoder) {
        appearance = ConnectButtonAppearance(state: .loading, connection: nil)
        super.init(coder: coder)
        setUp()
    }

    private func setUp() {
        isOpaque = false
        backgroundColor = .clear
        contentMode = .redraw
        isAccessibilityElement = true
        accessibilityTraits = .button
        emailField.delegate = emailFieldDelegate
        emailField.isHidden = true
        emailField.borderStyle = .none
        emailField.autocorrectionType = .no
        emailField.autocapitalizationType = .none
        // The return key says what it does: it continues, as the confirm button.
        emailField.returnKeyType = .continue
        #if os(iOS) || IFTTT_APPLE_STUB_CHECK
        emailField.keyboardType = .emailAddress
        #endif
        emailField.textContentType = .emailAddress
        canvas.button = self
        canvas.frame = bounds
        canvas.translatesAutoresizingMaskIntoConstraints = false
        canvas.addSubview(emailField)
        addSubview(canvas)
        NSLayoutConstraint.activate([
            canvas.topAnchor.constraint(equalTo: topAnchor),
            canvas.bottomAnchor.constraint(equalTo: bottomAnchor),
            canvas.leadingAnchor.constraint(equalTo: leadingAnchor),
            canvas.trailingAnchor.constraint(equalTo: trailingAnchor),
        ])
        refresh()
    }

    /// Shows a step of the activation flow (called by the ``ConnectButtonController``).
    ///
    /// - Parameters:
    ///   - step: What to show.
    ///   - connection: The Connection, once loaded.
    ///   - suggestedEmail: The email pre-filled in the email step, unless the user typed one.
    @_spi(Sandbox) public func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String) {
        let typed = emailField.text ?? ""
        if let connection { self.connection = connection }
        visualState = ConnectButtonVisualState(step: step, email: typed.isEmpty ? suggestedEmail : typed)
    }

    /// The host environment: the style, light or dark mode, width, text size and layout direction of this view.
    @_spi(Sandbox) public var appearanceEnvironment: ConnectButtonEnvironment {
        ConnectButtonEnvironment(
            style: style, hostAppearance: hostAppearance,
            width: bounds.width > 0 ? Double(bounds.width) : ConnectButtonGeometry.maximumWidth,
            textSize: ConnectTextSize(traitCollection.preferredContentSizeCategory),
            layoutDirection: effectiveUserInterfaceLayoutDirection == .rightToLeft ? .rightToLeft : .leftToRight,
            showsFooter: showsFooter)
    }

    /// Draws the appearance the controller computed: its language and loaded icon stay for later redraws (a new
    /// width, light or dark mode, text size).
    ///
    /// - Parameter appearance: What to draw.
    @_spi(Sandbox) public func show(_ appearance: ConnectButtonAppearance) {
        if localization.localization != appearance.localization {
            localization = ConnectLocalization(identifier: appearance.localization)
        }
        if case .image(let icon) = appearance.knob?.icon, icon != loadedIcon {
            loadedIcon = icon
            iconImage = UIImage(data: icon.data)
        }
        visualState = appearance.state
    }

    // Interface Builder calls this on the designable view only, so it stays on the button.
    /// Interface Builder shows the connect state with a placeholder service name.
    open override func prepareForInterfaceBuilder() {
        super.prepareForInterfaceBuilder()
        // NSObject declares this method without isolation; Interface Builder calls it on the main thread.
        MainActor.assumeIsolated { visualState = .connect }
    }

    // The size stays on the button, not the canvas: SwiftUI's representables, apps that read it, and the hugging and
    // compression priorities an app sets on the button size the button by it, as before.
    /// The pill plus the footer, which grows with the text size; as wide as the pill can be.
    open override var intrinsicContentSize: CGSize {
        var height = CGFloat(ConnectButtonGeometry.height)
        if let footer = appearance.footer {
            height =
                CGFloat(footer.frame.y) + ConnectButtonCanvas.footerSize(footer).height + CGFloat(footer.frame.height)
        }
        return CGSize(width: ConnectButtonGeometry.maximumWidth, height: height)
    }

    private var hostAppearance: ConnectButtonColorScheme {
        traitCollection.userInterfaceStyle == .dark ? .dark : .light
    }

    func refresh() {
        appearance = ConnectButtonAppearance(
            state: visualState, connection: connection, localization: localization,
            environment: appearanceEnvironment, icon: loadedIcon)
        accessibilityLabel = appearance.accessibilityLabel
        updateAccessibility()
        if let field = appearance.emailField {
            emailField.isHidden = false
            if emailField.text?.isEmpty ?? true, case .enterEmail(let email, _) = visualState {
                emailField.text = email
            }
            emailField.placeholder = field.placeholder
            emailField.textColor = UIColor(field.textColor)
            emailField.attributedPlaceholder = NSAttributedString(
                string: field.placeholder, attributes: [.foregroundColor: UIColor(field.placeholderColor)])
            emailField.textAlignment = appearance.layoutDirection == .rightToLeft ? .right : .left
            emailField.font =
                UIFont(name: "AvenirNext-DemiBold", size: CGFloat(field.fontSize))
                ?? .systemFont(ofSize: CGFloat(field.fontSize), weight: .semibold)
        } else {
            emailField.isHidden = true
        }
        invalidateIntrinsicContentSize()
        canvas.setNeedsLayout()
        canvas.setNeedsDisplay()
    }

    /// The pill was tapped, or its knob dragged to the other end: the button toggles.
    func toggle() {
        actionHandler?(.toggle)
    }

    /// The footer was tapped: its action goes to ``onFooterTap``, else the "about" footer presents the About page; a
    /// retry also goes to the ``actionHandler``.
    func tapFooter(_ action: ConnectButtonAppearance.Footer.Action) {
        if let onFooterTap {
            onFooterTap(action)
        } else if action == .showAbout {
            presentAboutPage()
        }
        if action == .retry { actionHandler?(.footerTapped) }
    }

    /// Presents the About page for the button's Connection over the view controller that contains the button.
    func presentAboutPage() {
        #if os(iOS) || IFTTT_APPLE_STUB_CHECK
        var responder: UIResponder? = self
        while let current = responder, !(current is UIViewController) { responder = current.next }
        guard let connection, let host = responder as? UIViewController else { return }
        AboutViewController.present(connection: connection, localization: localization, from: host)
        #endif
    }

    /// The user confirmed `text` as the email (return key or confirm button).
    func confirmEmail(_ text: String) {
        actionHandler?(.confirmEmail(text))
    }
}

/// What a ``ConnectButton`` shows and is touched through: a view that fills the button (pinned to its edges), draws
/// the button's appearance, lays out its email field, has the appearance recomputed when its width, light or dark
/// mode or text size changes, and turns touches into the button's actions. UIKit's drawing, layout, trait and touch
/// overrides live on this internal view, so the public button keeps 2.8's API.
final class ConnectButtonCanvas: UIView {
    /// The button drawn (it owns this view).
    weak var button: ConnectButton?
    /// The finger on the pill, while there is one (the portable model decides; this view only forwards touches).
    private var touchModel: ConnectButtonTouch?

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        backgroundColor = .clear
        contentMode = .redraw
    }

    /// The button makes its canvas in code; it is never archived.
    required init?(coder: NSCoder) { nil }

    /// The size of a footer's text laid out in its frame's width.
    static func footerSize(_ footer: ConnectButtonAppearance.Footer) -> CGSize {
        NSAttributedString(footer.text, size: CGFloat(footer.fontSize)).boundingRect(
            with: CGSize(width: CGFloat(footer.frame.width), height: .greatestFiniteMagnitude),
            options: [.usesLineFragmentOrigin], context: nil
        ).size
    }

    /// The pill's top-left corner: centred when the view is wider than the pill.
    private var pillOrigin: CGPoint {
        guard let button else { return .zero }
        return CGPoint(x: max(0, (bounds.width - CGFloat(button.appearance.geometry.width)) / 2), y: 0)
    }

    /// Recomputes the appearance for the new width and places the email field.
    override func layoutSubviews() {
        super.layoutSubviews()
        guard let button else { return }
        if ConnectButtonGeometry(width: bounds.width) != button.appearance.geometry { button.refresh() }
        if let field = button.appearance.emailField {
            button.emailField.frame = CGRect(field.frame).offsetBy(dx: pillOrigin.x, dy: 0)
        }
    }

    /// Recomputes the appearance when light or dark mode, the text size or the layout direction changes.
    override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        button?.refresh()
    }

    // MARK: - Interaction

    // Touches are handled here, not with a target-action gesture recognizer, which keeps the views free of `@objc`.
    // The button consumes its touches: as UIResponder's documentation asks of a view that does not call super,
    // every touch method is overridden.

    /// A finger down on the pill presses it: the portable ``ConnectButtonTouch`` highlights the pill and, as the
    /// finger moves, drags the knob.
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first, let button else { return }
        let point = touch.location(in: self)
        var model = ConnectButtonTouch(appearance: button.appearance)
        model.handle(.press(x: Double(point.x - pillOrigin.x), y: Double(point.y), time: touch.timestamp))
        touchModel = model.isPressed ? model : nil
        setNeedsDisplay()
    }

    /// Forwards the movement to the touch model (the knob follows the finger).
    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first, var model = touchModel else { return }
        let point = touch.location(in: self)
        model.handle(.move(x: Double(point.x - pillOrigin.x), y: Double(point.y), time: touch.timestamp))
        touchModel = model
        setNeedsDisplay()
    }

    /// A cancelled touch taps nothing; a dragged knob goes back.
    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        touchModel = nil
        setNeedsDisplay()
    }

    /// On the pill the touch model decides (toggle or snap back); elsewhere a touch that ends inside the button taps
    /// the confirm button or the footer.
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        let point = touch.location(in: self)
        let local = CGPoint(x: point.x - pillOrigin.x, y: point.y)
        defer {
            touchModel = nil
            setNeedsDisplay()
        }
        guard let button else { return }
        let appearance = button.appearance
        if var model = touchModel {
            model.handle(.release(x: Double(local.x), y: Double(local.y), time: touch.timestamp))
            if model.outcome == .toggle { button.toggle() }
            return
        }
        guard bounds.contains(point) else { return }
        if let field = appearance.emailField, CGRect(field.confirmFrame).contains(local) {
            button.confirmEmail(button.emailField.text ?? "")
        } else if local.y <= CGFloat(ConnectButtonGeometry.height) {
            // A pill without a knob (no drag) still toggles on a tap where the state allows it.
            if appearance.isInteractive { button.toggle() }
        } else if let action = appearance.footer?.action {
            button.tapFooter(action)
        }
    }

    // MARK: - Drawing

    /// Draws the pill, progress, label, knob, confirm button, checkmark and footer.
    override func draw(_ rect: CGRect) {
        guard let button, let context = UIGraphicsGetCurrentContext() else { return }
        var a = button.motionPlayer.appearance(over: button.appearance)
        if let touchModel { a = a.applying(touchModel) }
        let g = a.geometry
        context.saveGState()
        // The invalid-email shake moves the pill and what is on it; the footer stays.
        context.translateBy(x: pillOrigin.x + CGFloat(a.pillOffset), y: 0)
        let pill = CGRect(g.pillFrame)
        let pillPath = UIBezierPath(roundedRect: pill, cornerRadius: pill.height / 2)
        UIColor(a.backgroundColor).setFill()
        pillPath.fill()

        if let progress = a.progress, progress.fraction > 0 {
            context.saveGState()
            pillPath.addClip()
            UIColor(progress.color).setFill()
            let filled = pill.width * CGFloat(progress.fraction)
            let x = a.layoutDirection == .rightToLeft ? pill.width - filled : 0
            UIRectFill(CGRect(x: x, y: 0, width: filled, height: pill.height))
            context.restoreGState()
        }

        if let label = a.label {
            let box = CGRect(
                x: CGFloat(label.insets.left), y: 0,
                width: pill.width - CGFloat(label.insets.left + label.insets.right), height: pill.height)
            context.saveGState()
            context.setAlpha(CGFloat(label.opacity))
            drawCentered(
                label.text, in: box, color: label.color, fontName: "AvenirNext-Bold", size: CGFloat(label.fontSize),
                weight: .bold, minimumScale: CGFloat(label.minimumScaleFactor))
            context.restoreGState()
        }

        if let knob = a.knob {
            context.saveGState()
            context.setShadow(
                offset: CGSize(width: 0, height: 3), blur: 6,
                color: UIColor.black.withAlphaComponent(CGFloat(knob.shadowOpacity)).cgColor)
            UIColor(knob.color).setFill()
            UIBezierPath(ovalIn: CGRect(knob.frame)).fill()
            context.restoreGState()
            let iconRect = CGRect(knob.iconFrame)
            switch knob.icon {
            case .image:
                if let iconImage = button.iconImage {
                    iconImage.draw(in: iconRect)
                } else {
                    // Bytes UIKit cannot decode (an SVG before iOS 16): the monogram, never an empty knob.
                    drawCentered(
                        knob.monogram, in: iconRect, color: knob.monogramColor, fontName: "AvenirNext-Bold",
                        size: iconRect.height * 0.85, weight: .bold, minimumScale: 0.5)
                }
            case .monogram(let letter, let color):
                drawCentered(
                    letter, in: iconRect, color: color, fontName: "AvenirNext-Bold", size: iconRect.height * 0.85,
                    weight: .bold, minimumScale: 0.5)
            case .none:
                break
            }
        }

        if let field = a.emailField {
            let c = CGRect(field.confirmFrame)
            let rtl = a.layoutDirection == .rightToLeft
            let path = UIBezierPath()
            // Square towards the field, round at the pill's end (the left in right-to-left layouts).
            if rtl {
                path.move(to: CGPoint(x: c.maxX, y: c.minY))
                path.addLine(to: CGPoint(x: c.minX + c.height / 2, y: c.minY))
                path.addArc(
                    withCenter: CGPoint(x: c.minX + c.height / 2, y: c.midY), radius: c.height / 2,
                    startAngle: -.pi / 2, endAngle: .pi / 2, clockwise: false)
                path.addLine(to: CGPoint(x: c.maxX, y: c.maxY))
            } else {
                path.move(to: CGPoint(x: c.minX, y: c.minY))
                path.addLine(to: CGPoint(x: c.maxX - c.height / 2, y: c.minY))
                path.addArc(
                    withCenter: CGPoint(x: c.maxX - c.height / 2, y: c.midY), radius: c.height / 2,
                    startAngle: -.pi / 2, endAngle: .pi / 2, clockwise: true)
                path.addLine(to: CGPoint(x: c.minX, y: c.maxY))
            }
            path.close()
            UIColor(field.confirmColor).setFill()
            path.fill()
            // 2.8's glyph: a triangle with rounded corners, pointing away from the field.
            let glyph = UIBezierPath()
            for (index, point) in field.confirmGlyph.enumerated() {
                let p = CGPoint(x: CGFloat(point.x), y: CGFloat(point.y))
                if index == 0 { glyph.move(to: p) } else { glyph.addLine(to: p) }
            }
            glyph.close()
            glyph.lineWidth = 1.5
            glyph.lineJoinStyle = .round
            UIColor(field.confirmGlyphColor).setFill()
            UIColor(field.confirmGlyphColor).setStroke()
            glyph.fill()
            glyph.stroke()
        }

        if let checkmark = a.checkmark {
            let shape = ConnectButtonCheckmarkShape(frame: checkmark.frame)
            UIColor(checkmark.color).setStroke()
            UIColor(checkmark.color).setFill()
            let radius = CGFloat(shape.radius(scale: checkmark.circleScale))
            if radius > 0 {
                let circle = UIBezierPath(
                    ovalIn: CGRect(
                        x: CGFloat(shape.center.x) - radius, y: CGFloat(shape.center.y) - radius, width: 2 * radius,
                        height: 2 * radius))
                circle.lineWidth = CGFloat(ConnectButtonCheckmarkShape.lineWidth)
                circle.stroke()
            }
            if let progress = checkmark.dot {
                let dot = shape.dot(at: progress)
                let d = CGFloat(ConnectButtonCheckmarkShape.dotDiameter)
                UIBezierPath(ovalIn: CGRect(x: CGFloat(dot.x) - d / 2, y: CGFloat(dot.y) - d / 2, width: d, height: d))
                    .fill()
            }
            let points = shape.tick(stroke: checkmark.stroke)
            if let first = points.first {
                let tick = UIBezierPath()
                tick.move(to: CGPoint(x: CGFloat(first.x), y: CGFloat(first.y)))
                for point in points.dropFirst() { tick.addLine(to: CGPoint(x: CGFloat(point.x), y: CGFloat(point.y))) }
                tick.lineWidth = CGFloat(ConnectButtonCheckmarkShape.lineWidth)
                tick.lineCapStyle = .round
                tick.lineJoinStyle = .round
                tick.stroke()
            }
        }

        context.translateBy(x: -CGFloat(a.pillOffset), y: 0)
        if let footer = a.footer {
            let text = NSAttributedString(footer.text, size: CGFloat(footer.fontSize))
            let box = CGRect(footer.frame)
            let size = Self.footerSize(footer)
            context.setAlpha(CGFloat(footer.opacity))
            text.draw(
                with: CGRect(x: box.minX, y: box.minY, width: box.width, height: ceil(size.height)),
                options: [.usesLineFragmentOrigin], context: nil)
        }
        context.restoreGState()
    }

    private func drawCentered(
        _ text: String, in box: CGRect, color: ConnectColor, fontName: String, size: CGFloat,
        weight: UIFont.Weight, minimumScale: CGFloat
    ) {
        var fontSize = size
        func attributes(_ fontSize: CGFloat) -> [NSAttributedString.Key: Any] {
            [
                .font: UIFont(name: fontName, size: fontSize) ?? .systemFont(ofSize: fontSize, weight: weight),
                .foregroundColor: UIColor(color),
            ]
        }
        var measured = (text as NSString).size(withAttributes: attributes(fontSize))
        if measured.width > box.width {
            fontSize = max(size * minimumScale, size * box.width / measured.width)
            measured = (text as NSString).size(withAttributes: attributes(fontSize))
        }
        let origin = CGPoint(x: box.midX - min(measured.width, box.width) / 2, y: box.midY - measured.height / 2)
        (text as NSString).draw(
            in: CGRect(origin: origin, size: CGSize(width: min(measured.width, box.width), height: measured.height)),
            withAttributes: attributes(fontSize))
    }
}

extension UIColor {
    /// The SDK colour as an opaque sRGB `UIColor`.
    convenience init(_ color: ConnectColor) {
        self.init(
            red: CGFloat(color.red) / 255, green: CGFloat(color.green) / 255, blue: CGFloat(color.blue) / 255, alpha: 1)
    }
}

/// Confirms the button's email on the return key: the email field's delegate, kept out of the button's API.
@MainActor
private final class ConnectButtonEmailFieldDelegate: NSObject, UITextFieldDelegate {
    private let confirm: @MainActor (String) -> Void

    init(confirm: @escaping @MainActor (String) -> Void) {
        self.confirm = confirm
    }

    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        confirm(textField.text ?? "")
        return false
    }
}

extension ConnectTextSize {
    /// The text size of a UIKit content size category (unknown ones read as the default, large).
    init(_ category: UIContentSizeCategory) {
        switch category {
        case .extraSmall: self = .extraSmall
        case .small: self = .small
        case .medium: self = .medium
        case .extraLarge: self = .extraLarge
        case .extraExtraLarge: self = .extraExtraLarge
        case .extraExtraExtraLarge: self = .extraExtraExtraLarge
        case .accessibilityMedium: self = .accessibilityMedium
        case .accessibilityLarge: self = .accessibilityLarge
        case .accessibilityExtraLarge: self = .accessibilityExtraLarge
        case .accessibilityExtraExtraLarge: self = .accessibilityExtraExtraLarge
        case .accessibilityExtraExtraExtraLarge: self = .accessibilityExtraExtraExtraLarge
        default: self = .large
        }
    }
}

extension CGRect {
    /// The SDK rectangle as a `CGRect`.
    init(_ rect: ConnectButtonRect) {
        self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }
}

extension NSAttributedString {
    /// Styled text for UIKit: centred, Avenir Next Demi Bold, the wordmark heavy, links underlined.
    convenience init(_ text: StyledText, size: CGFloat, alignment: NSTextAlignment = .center) {
        let paragraph = NSMutableParagraphStyle()
        paragraph.alignment = alignment
        let result = NSMutableAttributedString(string: "")
        for run in text.runs {
            let fontName = run.kind == .wordmark ? "AvenirNext-Heavy" : "AvenirNext-DemiBold"
            var attributes: [NSAttributedString.Key: Any] = [
                .font: UIFont(name: fontName, size: size)
                    ?? .systemFont(ofSize: size, weight: run.kind == .wordmark ? .heavy : .semibold),
                .foregroundColor: UIColor(run.color),
                .paragraphStyle: paragraph,
            ]
            if run.kind == .link { attributes[.underlineStyle] = NSUnderlineStyle.single.rawValue }
            result.append(NSAttributedString(string: run.text, attributes: attributes))
        }
        self.init(attributedString: result)
    }
}

@_spi(Sandbox) extension ConnectButton: ConnectButtonPresenting {}
#endif
