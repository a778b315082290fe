#if canImport(SwiftUI)
import SwiftUI
#if canImport(UIKit)
import UIKit
#endif

/// The Connect Button as a SwiftUI view. It draws the same ``ConnectButtonAppearance`` as the UIKit
/// ``ConnectButton`` and the SVG renderer, for the width it is given and the environment's colour scheme,
/// locale (unless ``localization`` is given), size category and layout direction. The service icon comes
/// from ``icon`` (a ``ConnectButtonController``'s ``ConnectButtonController/appearance`` has it once loaded, or a
/// ``ServiceIconLoader``); until then the knob shows the monogram. No `AsyncImage`, which needs iOS 15.
///
/// ```swift
/// ConnectButtonView(state: .connect, connection: connection, style: .dynamic,
///                   onTap: { flow.start() }, onFooterTap: { _ in showAbout = true })
/// ```
@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
struct ConnectButtonView: View {
    /// The state to draw.
    var state: ConnectButtonVisualState
    /// The Connection whose service brands the button.
    var connection: Connection?
    /// The language of the texts; `nil` follows the environment's locale.
    var localization: ConnectLocalization?
    /// The connecting service's icon, once loaded; `nil` shows the monogram.
    var icon: ConnectButtonIconImage?
    /// The colours to use.
    var style: ConnectButtonStyle
    /// Whether the footer is shown.
    var showsFooter: Bool
    /// Called when the pill is tapped in an interactive state.
    var onTap: () -> Void
    /// Called when the footer is tapped and it has an action.
    var onFooterTap: (ConnectButtonAppearance.Footer.Action) -> Void
    /// Called when the user confirms an email.
    var onEmailConfirm: (String) -> Void

    @Environment(\.colorScheme) private var colorScheme
    @Environment(\.locale) private var locale
    @Environment(\.sizeCategory) private var sizeCategory
    @Environment(\.layoutDirection) private var layoutDirection

    /// The texts' language: ``localization`` when given, else the environment's locale.
    var resolvedLocalization: ConnectLocalization { localization ?? ConnectLocalization(locale: locale) }
    @State private var typedEmail: String?
    /// The finger on the pill, while there is one: the portable ``ConnectButtonTouch`` decides, as in UIKit.
    @State private var touch: ConnectButtonTouch?
    /// Whether the pill's drag gesture is live; SwiftUI resets it when the system cancels the touch.
    @GestureState private var isTouching = false

    /// Creates the view.
    ///
    /// - Parameters:
    ///   - state: What the button shows.
    ///   - connection: The Connection, once loaded: its service's name, colour and icon.
    ///   - style: The button's colours; default ``ConnectButtonStyle/light``.
    ///   - showsFooter: Whether the footer is shown under the button.
    ///   - onTap: Called when the user taps the button.
    ///   - onEmailConfirm: Called with the text when the user confirms the email field.
    init(
        state: ConnectButtonVisualState, connection: Connection?, style: ConnectButtonStyle = .light,
        showsFooter: Bool = true, onTap: @escaping () -> Void = {},
        onEmailConfirm: @escaping (String) -> Void = { _ in }
    ) {
        self.init(
            state: state, connection: connection, localization: nil, style: style, showsFooter: showsFooter,
            onTap: onTap, onEmailConfirm: onEmailConfirm)
    }

    /// Creates the view with the texts of `localization` and a service icon already loaded.
    init(
        state: ConnectButtonVisualState, connection: Connection?, localization: ConnectLocalization?,
        style: ConnectButtonStyle = .light, showsFooter: Bool = true, icon: ConnectButtonIconImage? = nil,
        onTap: @escaping () -> Void = {},
        onFooterTap: @escaping (ConnectButtonAppearance.Footer.Action) -> Void = { _ in },
        onEmailConfirm: @escaping (String) -> Void = { _ in }
    ) {
        self.state = state
        self.connection = connection
        self.localization = localization
        self.icon = icon
        self.style = style
        self.showsFooter = showsFooter
        self.onTap = onTap
        self.onFooterTap = onFooterTap
        self.onEmailConfirm = onEmailConfirm
    }

    /// The button, centred, at most 360 pt wide.
    var body: some View {
        GeometryReader { proxy in
            ConnectButtonMotionView(
                state: state,
                appearance: { state in
                    ConnectButtonAppearance(
                        state: state, connection: connection,
                        localization: resolvedLocalization,
                        environment: ConnectButtonEnvironment(
                            style: style, hostAppearance: colorScheme == .dark ? .dark : .light,
                            width: Double(proxy.size.width), textSize: ConnectTextSize(sizeCategory),
                            layoutDirection: layoutDirection == .rightToLeft ? .rightToLeft : .leftToRight,
                            showsFooter: showsFooter),
                        icon: icon)
                }, content: { content($0) }, onStateChange: { announce($0) }
            )
            .frame(width: proxy.size.width, alignment: .top)
            // The frames are already mirrored for right to left; SwiftUI must not mirror them again.
            .environment(\.layoutDirection, .leftToRight)
        }

        .frame(
            height: CGFloat(
                ConnectButtonGeometry(width: 360).totalHeight(hasFooter: showsFooter)
                    + (showsFooter ? ConnectButtonGeometry.footerHeight : 0)))
    }

    private func content(_ resting: ConnectButtonAppearance) -> some View {
        let model = accessibilityModel(resting.state, width: resting.geometry.width)
        // A finger on the pill moves the knob and highlights the pill, as the touch model says.
        let a = touch.map { resting.applying($0) } ?? resting
        let width = CGFloat(a.geometry.width)
        let height = CGFloat(ConnectButtonGeometry.height)
        return VStack(spacing: CGFloat(ConnectButtonGeometry.footerSpacing)) {
            ZStack(alignment: .topLeading) {
                ZStack(alignment: .topLeading) {
                    SwiftUI.Color(a.backgroundColor)
                    if let progress = a.progress {
                        SwiftUI.Color(progress.color)
                            .frame(width: width * CGFloat(progress.fraction))
                            .offset(
                                x: a.layoutDirection == .rightToLeft ? width * CGFloat(1 - progress.fraction) : 0)
                    }
                }
                .frame(width: width, height: height)
                .clipShape(Capsule())

                if let label = a.label {
                    Text(verbatim: label.text)
                        .font(.custom("AvenirNext-Bold", size: CGFloat(label.fontSize)))
                        .foregroundColor(SwiftUI.Color(label.color))
                        .lineLimit(1)
                        .minimumScaleFactor(CGFloat(label.minimumScaleFactor))
                        .frame(width: width - CGFloat(label.insets.left + label.insets.right), height: height)
                        .offset(x: CGFloat(label.insets.left))
                        .opacity(label.opacity)
                }
                if let knob = a.knob { knobView(knob) }
                if let field = a.emailField { emailView(field, model: model) }
                if let checkmark = a.checkmark { checkmarkView(checkmark) }
            }
            .frame(width: width, height: height, alignment: .topLeading)
            // The invalid-email shake; the footer stays.
            .offset(x: CGFloat(a.pillOffset))
            .contentShape(Capsule())
            // Touches go to the portable model (press, drag, release; a cancelled touch below); in the email step
            // only the field and the confirm button take them.
            .gesture(pillGesture(resting), including: resting.emailField == nil ? .all : .subviews)
            .onChange(of: isTouching) { touching in
                // The gesture ended without a release: the system took the touch.
                if !touching, var model = touch {
                    model.handle(.cancel)
                    touch = nil
                }
            }
            .connectAccessibility(model.elements.first { $0.kind == .button }, language: model.localization)
            .connectLargeContent(model.largeContent.title)

            if let footer = a.footer {
                footer.text.runs.reduce(Text(verbatim: "")) { text, run in
                    text
                        + Text(verbatim: run.text)
                        .font(
                            .custom(
                                run.kind == .wordmark ? "AvenirNext-Heavy" : "AvenirNext-DemiBold",
                                size: CGFloat(footer.fontSize))
                        )
                        .foregroundColor(SwiftUI.Color(run.color))
                        .underline(run.kind == .link)
                }
                .multilineTextAlignment(.center)
                .frame(width: width)
                .opacity(footer.opacity)
                .onTapGesture { if let action = footer.action { onFooterTap(action) } }
                .connectAccessibility(model.elements.first { $0.kind == .footer }, language: model.localization)
            }
        }
    }

    /// The pill's touches forwarded to ``ConnectButtonTouch``, in the pill's coordinates: the first change presses,
    /// every change moves, the end releases and the model's outcome decides whether the Connection toggles. A pill
    /// without a knob (no drag) toggles on a tap where the state allows it, as in UIKit.
    private func pillGesture(_ resting: ConnectButtonAppearance) -> some Gesture {
        DragGesture(minimumDistance: 0, coordinateSpace: .local)
            .updating($isTouching) { _, state, _ in state = true }
            .onChanged { value in
                let time = value.time.timeIntervalSinceReferenceDate
                var model: ConnectButtonTouch
                if let current = touch {
                    model = current
                } else {
                    model = ConnectButtonTouch(appearance: resting)
                    let start = value.startLocation
                    model.handle(.press(x: Double(start.x), y: Double(start.y), time: time))
                    guard model.isPressed else { return }
                }
                model.handle(.move(x: Double(value.location.x), y: Double(value.location.y), time: time))
                touch = model
            }
            .onEnded { value in
                let x = Double(value.location.x)
                let y = Double(value.location.y)
                guard var model = touch else {
                    let onPill = x >= 0 && x <= resting.geometry.width && y >= 0 && y <= ConnectButtonGeometry.height
                    if resting.knob == nil, resting.isInteractive, resting.emailField == nil, onPill { onTap() }
                    return
                }
                touch = nil
                model.handle(.release(x: x, y: y, time: value.time.timeIntervalSinceReferenceDate))
                if model.outcome == .toggle { onTap() }
            }
    }

    private func knobView(_ knob: ConnectButtonAppearance.Knob) -> some View {
        let f = knob.frame
        return ZStack {
            Circle()
                .fill(SwiftUI.Color(knob.color))
                .shadow(color: SwiftUI.Color.black.opacity(knob.shadowOpacity), radius: 3, x: 0, y: 3)
            switch knob.icon {
            case .image(let icon):
                iconView(icon, knob: knob)
            case .monogram(let letter, let color):
                Text(verbatim: letter)
                    .font(.custom("AvenirNext-Bold", size: CGFloat(knob.iconFrame.height * 0.85)))
                    .foregroundColor(SwiftUI.Color(color))
            case .none:
                EmptyView()
            }
        }
        .frame(width: CGFloat(f.width), height: CGFloat(f.height))
        .offset(x: CGFloat(f.x), y: CGFloat(f.y))
    }

    @ViewBuilder
    private func iconView(_ icon: ConnectButtonIconImage, knob: ConnectButtonAppearance.Knob) -> some View {
        #if canImport(UIKit)
        if let image = UIImage(data: icon.data) {
            Image(uiImage: image).resizable().scaledToFit()
                .frame(width: CGFloat(knob.iconFrame.width), height: CGFloat(knob.iconFrame.height))
        } else {
            monogramView(knob)
        }
        #else
        monogramView(knob)
        #endif
    }

    /// The monogram, for bytes the platform cannot decode: never an empty knob.
    private func monogramView(_ knob: ConnectButtonAppearance.Knob) -> some View {
        Text(verbatim: knob.monogram)
            .font(.custom("AvenirNext-Bold", size: CGFloat(knob.iconFrame.height * 0.85)))
            .foregroundColor(SwiftUI.Color(knob.monogramColor))
    }

    private func emailView(_ field: ConnectButtonAppearance.EmailField, model: ConnectButtonAccessibility)
        -> some View
    {
        let fieldElement = model.elements.first { $0.kind == .emailField }
        // A key path, not Binding(get:set:), whose closures are plain in iOS 16's SDK and `@isolated(any) @Sendable`
        // in Xcode 16's: no closure form compiles without diagnostics against both.
        let binding = $typedEmail[dynamicMember: \String?.[orSuggested: field.text]]
        let c = field.confirmFrame
        return ZStack(alignment: .topLeading) {
            TextField(field.placeholder, text: binding, onCommit: { onEmailConfirm(binding.wrappedValue) })
                .font(.custom("AvenirNext-DemiBold", size: CGFloat(field.fontSize)))
                .foregroundColor(SwiftUI.Color(field.textColor))
                .multilineTextAlignment(field.confirmFrame.x < field.frame.x ? .trailing : .leading)
                .frame(width: CGFloat(field.frame.width), height: CGFloat(field.frame.height))
                .offset(x: CGFloat(field.frame.x), y: CGFloat(field.frame.y))
                .accessibilityLabel(Text.spoken(fieldElement?.label ?? field.placeholder, language: model.localization))
                .accessibilityHint(Text.spoken(fieldElement?.hint ?? "", language: model.localization))
            Button(action: { onEmailConfirm(binding.wrappedValue) }) {
                ZStack {
                    ConfirmShape(roundOnLeft: field.confirmFrame.x < field.frame.x)
                        .fill(SwiftUI.Color(field.confirmColor))
                    ConfirmGlyphShape(field: field)
                        .fill(SwiftUI.Color(field.confirmGlyphColor))
                    ConfirmGlyphShape(field: field)
                        .stroke(
                            SwiftUI.Color(field.confirmGlyphColor), style: StrokeStyle(lineWidth: 1.5, lineJoin: .round)
                        )
                }
            }
            .buttonStyle(PlainButtonStyle())
            .connectAccessibility(model.elements.first { $0.kind == .confirmButton }, language: model.localization)
            .frame(width: CGFloat(c.width), height: CGFloat(c.height))
            .offset(x: CGFloat(c.x), y: CGFloat(c.y))
        }
    }

    /// The checkmark as far as it has drawn itself (``ConnectButtonCheckmarkShape``), in the pill's coordinates.
    private func checkmarkView(_ checkmark: ConnectButtonAppearance.Checkmark) -> some View {
        let shape = ConnectButtonCheckmarkShape(frame: checkmark.frame)
        let radius = CGFloat(shape.radius(scale: checkmark.circleScale))
        let line = CGFloat(ConnectButtonCheckmarkShape.lineWidth)
        let dot = checkmark.dot.map { shape.dot(at: $0) }
        let d = CGFloat(ConnectButtonCheckmarkShape.dotDiameter)
        return ZStack(alignment: .topLeading) {
            Circle().stroke(SwiftUI.Color(checkmark.color), lineWidth: line)
                .frame(width: 2 * radius, height: 2 * radius)
                .offset(x: CGFloat(shape.center.x) - radius, y: CGFloat(shape.center.y) - radius)
                .opacity(radius > 0 ? 1 : 0)
            if let dot {
                Circle().fill(SwiftUI.Color(checkmark.color))
                    .frame(width: d, height: d)
                    .offset(x: CGFloat(dot.x) - d / 2, y: CGFloat(dot.y) - d / 2)
            }
            TickShape(points: shape.tick(stroke: checkmark.stroke)).stroke(
                SwiftUI.Color(checkmark.color), style: StrokeStyle(lineWidth: line, lineCap: .round, lineJoin: .round))
        }
    }
}

/// 2.8's confirm glyph (``ConnectButtonAppearance/EmailField/confirmGlyph``), in the confirm button's own space.
@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
private struct ConfirmGlyphShape: Shape {
    var field: ConnectButtonAppearance.EmailField

    func path(in rect: CGRect) -> Path {
        var path = Path()
        let c = field.confirmFrame
        for (index, point) in field.confirmGlyph.enumerated() {
            let p = CGPoint(x: CGFloat(point.x - c.x), y: CGFloat(point.y - c.y))
            if index == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }
}

/// The confirm button: square towards the field, round at the pill's end (the left in right-to-left layouts).
@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
private struct ConfirmShape: Shape {
    var roundOnLeft = false

    func path(in rect: CGRect) -> Path {
        var path = Path()
        let r = rect.height / 2
        if roundOnLeft {
            path.move(to: CGPoint(x: rect.maxX, y: rect.minY))
            path.addLine(to: CGPoint(x: rect.minX + r, y: rect.minY))
            path.addArc(
                center: CGPoint(x: rect.minX + r, y: rect.midY), radius: r,
                startAngle: .degrees(-90), endAngle: .degrees(90), clockwise: true)
            path.addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
            path.closeSubpath()
            return path
        }
        path.move(to: CGPoint(x: rect.minX, y: rect.minY))
        path.addLine(to: CGPoint(x: rect.maxX - r, y: rect.minY))
        path.addArc(
            center: CGPoint(x: rect.maxX - r, y: rect.midY), radius: r,
            startAngle: .degrees(-90), endAngle: .degrees(90), clockwise: false)
        path.addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        path.closeSubpath()
        return path
    }
}

/// The tick inside the checkmark circle, as far as it is stroked.
@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
private struct TickShape: Shape {
    /// The stroked part of the tick, in the pill's coordinates.
    var points: [ConnectButtonCheckmarkShape.Point]

    func path(in rect: CGRect) -> Path {
        var path = Path()
        guard let first = points.first else { return path }
        path.move(to: CGPoint(x: CGFloat(first.x), y: CGFloat(first.y)))
        for point in points.dropFirst() { path.addLine(to: CGPoint(x: CGFloat(point.x), y: CGFloat(point.y))) }
        return path
    }
}

@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
extension SwiftUI.Color {
    /// The SDK colour as an opaque sRGB SwiftUI colour.
    init(_ color: ConnectColor) {
        self.init(
            .sRGB, red: Double(color.red) / 255, green: Double(color.green) / 255, blue: Double(color.blue) / 255,
            opacity: 1)
    }
}

@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
extension ConnectTextSize {
    /// The text size of a SwiftUI size category.
    init(_ category: ContentSizeCategory) {
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

extension Optional where Wrapped == String {
    /// The typed text, or `suggested` until the user types: makes `$typedEmail` a `Binding<String>`.
    fileprivate subscript(orSuggested suggested: String) -> String {
        get { self ?? suggested }
        set { self = newValue }
    }
}
#endif
