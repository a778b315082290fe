import Foundation

extension ConnectButtonAppearance {
    /// Computes the appearance of the button in `state`. Pure: the same inputs always give the same value.
    ///
    /// - Parameters:
    ///   - state: The visual state.
    ///   - connection: The Connection; its ``Connection/connectingService`` brands the button. `nil` while
    ///     loading (other states then use neutral colours and no service name).
    ///   - localization: The language of every text.
    ///   - style: The button style the host chose.
    ///   - hostAppearance: The host's light or dark mode, used by ``ConnectButtonStyle/dynamic``.
    ///   - width: The width available; the pill uses it up to 360 pt.
    ///   - progress: The progress bar's current fraction, for a moment inside an animated state; `nil` draws
    ///     the state's start.
    ///   - showsFooter: `false` hides the footer (the original's `appShouldHideConnectButtonFooter`).
    ///   - textSize: The user's text size; texts scale as `UIFontMetrics` scales 2.8's text styles.
    ///   - layoutDirection: Right to left mirrors the layout: the knob starts on the right.
    ///   - icon: The connecting service's icon once loaded (ignored unless it is the service's icon URL); until
    ///     then the knob shows the monogram.
    public init(
        state: ConnectButtonVisualState,
        connection: Connection?,
        localization: ConnectLocalization = .english,
        style: ConnectButtonStyle = .light,
        hostAppearance: ConnectButtonColorScheme = .light,
        width: Double = ConnectButtonGeometry.maximumWidth,
        progress: Double? = nil,
        showsFooter: Bool = true,
        textSize: ConnectTextSize = .large,
        layoutDirection: ConnectLayoutDirection = .leftToRight,
        icon: ConnectButtonIconImage? = nil
    ) {
        let loadedIcon = icon
        let scheme = style.resolved(for: hostAppearance)
        let geometry = ConnectButtonGeometry(width: width)
        let service = connection?.connectingService
        let brand = service?.brandColorValue
        let l10n = localization
        let rtl = layoutDirection == .rightToLeft
        let styleBackground = scheme.pillColor
        let brandBackground = brand ?? styleBackground
        // Black or white, whichever contrasts more: white on a light brand colour was 2.14:1 in 2.8 (orange).
        let textOnBrand = brand.map { ConnectColor.textColor(onAll: [$0]) } ?? scheme.labelColor
        // The pill's texts grow up to the largest non-accessibility size; beyond it the Large Content Viewer.
        let pillTextSize = min(textSize.index, ConnectButtonGeometry.largestPillTextSize.index)
        let cappedSize = ConnectTextSize.allCases[pillTextSize]
        let labelFontSize = ConnectTextStyle.headline.scaled(ConnectButtonGeometry.labelFontSize, for: cappedSize)

        func label(_ key: ConnectStringKey, _ insets: Insets = .standard, color: ConnectColor? = nil, _ args: String...)
            -> Label
        {
            Label(
                text: ConnectLocalization.format(l10n.string(key), args), color: color ?? scheme.labelColor,
                insets: rtl ? Insets(left: insets.right, right: insets.left) : insets, fontSize: labelFontSize)
        }
        // Text on the brand colour is white, as 2.8 drew it, wherever white meets WCAG AA for the size actually
        // drawn: 4.5:1, or 3:1 where the bold label cannot shrink below large text (18.66 pt); black only where
        // white fails. The label then stops shrinking at large text (it is squeezed or cut instead).
        func labelOnBrand(_ key: ConnectStringKey, _ args: String...) -> Label {
            var value = label(key, color: textOnBrand)
            value.text = ConnectLocalization.format(l10n.string(key), args)
            guard let brand else { return value }
            let white = ConnectColor.white.contrastRatio(with: brand)
            let large = ConnectButtonGeometry.largeBoldTextSize
            let available = geometry.width - value.insets.left - value.insets.right
            let fit = ConnectButtonSVGRenderer.fitting(
                value.text, fontSize: labelFontSize, minimumScale: value.minimumScaleFactor, available: available,
                weight: .bold)
            if white >= 4.5 {
                value.color = .white
            } else if white >= 3, fit.size >= large {
                value.color = .white
                value.minimumScaleFactor = (large / labelFontSize * 1000).rounded(.up) / 1000
            }
            return value
        }
        func requiredContrast(_ label: Label?) -> Double {
            guard let label else { return 4.5 }
            return label.fontSize * label.minimumScaleFactor >= ConnectButtonGeometry.largeBoldTextSize ? 3 : 4.5
        }
        func progressBar(
            from start: Double, to target: Double, duration: Double, branded: Bool, under text: Label? = nil
        ) -> Progress {
            let color =
                branded && brand != nil
                ? brandBackground.contrasting().ensuringContrast(
                    requiredContrast(text), with: text?.color ?? textOnBrand)
                : scheme.neutralProgressColor
            let fraction = min(1, max(0, progress ?? start))
            return Progress(fraction: fraction, target: target, duration: duration, color: color)
        }
        func knob(at position: Double, on track: ConnectColor) -> Knob {
            let base = brand ?? ConnectButtonPalette.blue
            let color = abs(base.brightness - track.brightness) < 0.2 ? base.contrasting(brightening: 0.25) : base
            let frame = geometry.knobFrame(position: position, direction: layoutDirection)
            let size = ConnectButtonGeometry.iconSize
            let letter = service.map(Self.monogram(of:)) ?? ""
            let letterColor = ConnectColor.textColor(onAll: [color])
            let url = service?.monochromeIconURL.flatMap { $0.isWebURL ? $0 : nil }
            let icon: Icon
            if let loadedIcon, let url, loadedIcon.url == url {
                icon = .image(loadedIcon)
            } else if service != nil {
                icon = .monogram(letter, color: letterColor)
            } else {
                icon = .none
            }
            return Knob(
                position: position, frame: frame, color: color, icon: icon, iconURL: url, monogram: letter,
                monogramColor: letterColor,
                iconFrame: ConnectButtonRect(
                    x: frame.midX - size / 2, y: frame.midY - size / 2, width: size, height: size),
                shadowOpacity: 0.25)
        }

        let shortName = service?.shortName ?? ""
        let fullName = service?.name ?? ""
        var background = styleBackground
        var labelValue: Label?
        var knobValue: Knob?
        var progressValue: Progress?
        var emailValue: EmailField?
        var checkmarkValue: Checkmark?
        let (footerKind, footerAction) = Self.footer(for: state)
        var transition = Transition.standard
        var interactive = false

        switch state {
        case .loading:
            var value = label(.loading)
            value.pulse = .loading
            labelValue = value
        case .loadingFailed:
            labelValue = label(.loading)
        case .connect:
            labelValue = label(.connect, .avoidingLeftKnob, shortName)
            knobValue = knob(at: 0, on: styleBackground)
            interactive = true
        case .slideToConnect:
            background = brandBackground
            labelValue = service == nil ? label(.verifying) : labelOnBrand(.verifying)
            progressValue = progressBar(from: 0, to: 1, duration: 1.0, branded: true, under: labelValue)
            transition.hold = 1.0
        case .enterEmail(let email, let invalid):
            background = ConnectButtonPalette.lightGrey
            let grown = ConnectButtonGeometry.height / ConnectButtonGeometry.knobDiameter
            let confirm = geometry.knobFrame(position: 1, scale: grown)
            let confirmColor = brand ?? ConnectButtonPalette.blue
            let fieldX = ConnectButtonGeometry.standardLabelInset
            let field = ConnectButtonRect(
                x: fieldX, y: ConnectButtonGeometry.knobInset,
                width: max(0, confirm.x - fieldX - 8),
                height: ConnectButtonGeometry.height - 2 * ConnectButtonGeometry.knobInset)
            emailValue = EmailField(
                text: email, placeholder: l10n.string(.emailPlaceholder),
                frame: rtl ? geometry.mirrored(field) : field,
                textColor: ConnectButtonPalette.emailText, placeholderColor: ConnectButtonPalette.emailPlaceholder,
                fontSize: ConnectTextStyle.subheadline.scaled(ConnectButtonGeometry.emailFontSize, for: cappedSize),
                confirmFrame: rtl ? geometry.mirrored(confirm) : confirm, confirmColor: confirmColor,
                confirmGlyphColor: ConnectColor.textColor(onAll: [confirmColor]),
                confirmAccessibilityLabel: l10n.string(.emailConfirm))
            transition.duration = 0.5
            transition.hold = invalid ? 2.0 : nil
            transition.next = invalid ? .enterEmail(email: email, isInvalid: false) : nil
            interactive = true
        case .verifying:
            labelValue = label(.verifying)
            progressValue = progressBar(from: 0, to: 0.5, duration: 0.75, branded: false)
        case .creatingAccount:
            labelValue = label(.creatingAccount)
            progressValue = progressBar(from: 0.5, to: 1, duration: 2.25, branded: false)
            transition.hold = 2.25
            transition.next = .continueToService
        case .continueToService:
            background = brandBackground
            labelValue = labelOnBrand(.continueToService, fullName)
            progressValue = progressBar(from: 0, to: 1, duration: 2.0, branded: true, under: labelValue)
            transition.hold = 2.0
        case .connecting:
            background = brandBackground
            labelValue = labelOnBrand(.connecting)
            progressValue = progressBar(from: 0, to: 1, duration: 2.0, branded: true, under: labelValue)
            transition.hold = 2.0
            transition.next = .checkmark
        case .checkmark:
            background = brandBackground
            let d = ConnectButtonGeometry.checkmarkDiameter
            checkmarkValue = Checkmark(
                frame: ConnectButtonRect(
                    x: geometry.width / 2 - d / 2, y: ConnectButtonGeometry.height / 2 - d / 2,
                    width: d, height: d),
                // A graphic: white wherever it meets 3:1 (WCAG 1.4.11), as 2.8 drew it.
                color: brand.map { ConnectColor.white.contrastRatio(with: $0) >= 3 ? .white : textOnBrand }
                    ?? textOnBrand,
                drawDuration: 0.75 + 0.3)
            transition.hold = 1.5
            transition.next = .connected
        case .connected:
            labelValue = label(.connected, .avoidingRightKnob)
            knobValue = knob(at: 1, on: styleBackground)
            interactive = true
        case .disconnecting:
            labelValue = label(.disconnecting)
            progressValue = progressBar(from: 0, to: 0.75, duration: 1.125, branded: false)
        case .disconnected:
            labelValue = label(.disconnected)
            transition.hold = 2.0
            transition.next = .connect
        }

        self.state = state
        self.style = style
        self.colorScheme = scheme
        self.localization = l10n.localization
        self.geometry = geometry
        self.backgroundColor = background
        self.label = labelValue
        self.knob = knobValue
        self.progress = progressValue
        self.emailField = emailValue
        self.checkmark = checkmarkValue
        // The footer grows with the pill's label and stops where the label stops: it never dwarfs the label.
        let footerSize = ConnectTextStyle.footnote.scaled(ConnectButtonGeometry.footerFontSize, for: cappedSize)
        var footerFrame = geometry.footerFrame
        footerFrame.height = ConnectButtonGeometry.footerLineHeight(fontSize: footerSize)
        self.footer =
            showsFooter
            ? Footer(
                kind: footerKind, text: Self.footerText(footerKind, state: state, localization: l10n, scheme: scheme),
                frame: footerFrame, fontSize: footerSize, action: footerAction)
            : nil
        self.transition = transition
        self.isInteractive = interactive
        self.textSize = textSize
        self.layoutDirection = layoutDirection
        self.usesLargeContentViewer = textSize.index > pillTextSize
        switch state {
        case .enterEmail(let email, _):
            self.accessibilityLabel = email.isEmpty ? l10n.string(.emailPlaceholder) : email
        case .checkmark:
            self.accessibilityLabel = l10n.string(.connected)
        default:
            self.accessibilityLabel = labelValue?.text ?? ""
        }
    }

    /// Creates the appearance for what a presenter reports about its host (``ConnectButtonEnvironment``).
    ///
    /// - Parameters:
    ///   - state: The visual state.
    ///   - connection: The Connection, or `nil` while loading.
    ///   - localization: The language of every text (the controller's locale).
    ///   - environment: Style, light or dark mode, width, text size, layout direction and footer.
    ///   - icon: The connecting service's icon once loaded.
    ///   - progress: The progress bar's fraction for a moment inside an animated state.
    public init(
        state: ConnectButtonVisualState, connection: Connection?, localization: ConnectLocalization,
        environment: ConnectButtonEnvironment, icon: ConnectButtonIconImage? = nil, progress: Double? = nil
    ) {
        self.init(
            state: state, connection: connection, localization: localization, style: environment.style,
            hostAppearance: environment.hostAppearance, width: environment.width, progress: progress,
            showsFooter: environment.showsFooter, textSize: environment.textSize,
            layoutDirection: environment.layoutDirection, icon: icon)
    }

    /// Creates the appearance for a `Locale` (see ``ConnectLocalization`` for the fallbacks).
    public init(
        state: ConnectButtonVisualState, connection: Connection?, locale: Locale,
        style: ConnectButtonStyle = .light, hostAppearance: ConnectButtonColorScheme = .light,
        width: Double = ConnectButtonGeometry.maximumWidth
    ) {
        self.init(
            state: state, connection: connection, localization: ConnectLocalization(locale: locale),
            style: style, hostAppearance: hostAppearance, width: width)
    }

    /// The letter on the knob: the first letter of the short name, else of the name, else of the id.
    static func monogram(of service: Connection.Service) -> String {
        for text in [service.shortName, service.name, service.id] {
            if let first = text.first(where: { $0.isLetter || $0.isNumber }) { return String(first).uppercased() }
        }
        return "?"
    }

    /// The footer of `state` and what tapping it does. The footer looks alike in every state, so it acts alike:
    /// it opens the About page, except after a failed load, where it loads the Connection again.
    static func footer(for state: ConnectButtonVisualState) -> (kind: Footer.Kind, action: Footer.Action) {
        switch state {
        case .loadingFailed: return (.loadingFailed, .retry)
        case .enterEmail(_, let invalid): return (invalid ? .emailInvalid : .enterEmail, .showAbout)
        case .creatingAccount: return (.creatingAccount, .showAbout)
        default: return (.worksWithIFTTT, .showAbout)
        }
    }

    /// The footer's styled text. The email step shows its "learn more" link once (the original repeated it).
    static func footerText(
        _ kind: Footer.Kind, state: ConnectButtonVisualState, localization l10n: ConnectLocalization,
        scheme: ConnectButtonColorScheme
    ) -> StyledText {
        let grey = scheme.footerColor
        switch kind {
        case .worksWithIFTTT:
            return .wordmarked(l10n.string(.footerWorksWith), color: grey)
        case .enterEmail:
            return StyledText.wordmarked(l10n.string(.footerEmailPrefix), color: grey)
                .appending(StyledText(runs: [.init(text: l10n.string(.footerEmailLink), kind: .link, color: grey)]))
        case .emailInvalid:
            return StyledText(runs: [
                .init(text: l10n.string(.footerEmailInvalid), kind: .plain, color: scheme.errorColor)
            ])
        case .creatingAccount:
            var email = ""
            if case .creatingAccount(let value) = state { email = value }
            return .wordmarked(l10n.format(.footerCreatingAccount, email), color: grey)
        case .loadingFailed:
            return StyledText(runs: [
                .init(text: l10n.string(.footerLoadingFailed), kind: .plain, color: scheme.errorColor),
                .init(text: " ", kind: .plain, color: scheme.errorColor),
                .init(text: l10n.string(.footerLoadingFailedRetry), kind: .link, color: scheme.errorColor),
            ])
        }
    }
}
