#if canImport(UIKit) && (os(iOS) || IFTTT_APPLE_STUB_CHECK)
import UIKit

/// The About page, presented when the button's footer is tapped: IFTTT's benefits for this Connection, a
/// Manage button or an App Store link, and the legal line, in the page's language and scaled with the user's
/// text size as 2.8 scaled it (`UIFontMetrics` for the title 2, headline and body styles). It draws a
/// `ConnectAboutPage`; opening URLs is left to the closures (the original tried universal links, then Safari).
/// The SDK presents it itself (``present(connection:localization:from:)``), as 2.8 did; it is not API.
final class AboutViewController: UIViewController {
    /// The content.
    let page: ConnectAboutPage
    /// Opens a URL: a service page, the Connection page or the terms.
    var onOpenURL: ((URL) -> Void)?
    /// Called by the Manage button (open the hand-off URL with `action=edit`).
    var onManage: (() -> Void)?
    /// Called by the App Store button (present the IFTTT app's store page).
    var onShowAppStore: ((String) -> Void)?

    /// Creates the page; it presents as a form sheet.
    init(page: ConnectAboutPage) {
        self.page = page
        super.init(nibName: nil, bundle: nil)
        modalPresentationStyle = .formSheet
        modalTransitionStyle = .coverVertical
    }

    /// Presents the About page of `connection` over `host`, opening its links with `UIApplication`.
    ///
    /// - Parameters:
    ///   - connection: The Connection the page is about.
    ///   - localization: The page's language (the button's).
    ///   - host: The view controller that shows the button.
    static func present(connection: Connection, localization: ConnectLocalization, from host: UIViewController) {
        guard let handoff = URL(string: "ifttt-handoff-v1://") else { return }
        let application = UIApplication.shared
        let about = AboutViewController(
            page: ConnectAboutPage(
                connection: connection, localization: localization,
                iftttAppInstalled: application.canOpenURL(handoff)))
        about.onOpenURL = { url in application.open(url) }
        about.onManage = { application.open(connection.url) }
        about.onShowAppStore = { id in
            if let store = URL(string: "https://apps.apple.com/app/id\(id)") { application.open(store) }
        }
        host.present(about, animated: true)
    }

    /// Not supported: create the page in code.
    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("AboutViewController is created in code")
    }

    /// White status bar text on the black page.
    override var preferredStatusBarStyle: UIStatusBarStyle { .lightContent }

    /// Builds the page's views.
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .black

        let scroll = UIScrollView()
        scroll.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(scroll)
        let stack = UIStackView()
        stack.axis = .vertical
        stack.alignment = .fill
        stack.spacing = 24
        stack.translatesAutoresizingMaskIntoConstraints = false
        scroll.addSubview(stack)
        NSLayoutConstraint.activate([
            scroll.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            scroll.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            scroll.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            scroll.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            stack.topAnchor.constraint(equalTo: scroll.contentLayoutGuide.topAnchor, constant: 20),
            stack.bottomAnchor.constraint(equalTo: scroll.contentLayoutGuide.bottomAnchor, constant: -40),
            stack.leadingAnchor.constraint(equalTo: scroll.frameLayoutGuide.leadingAnchor, constant: 30),
            stack.trailingAnchor.constraint(equalTo: scroll.frameLayoutGuide.trailingAnchor, constant: -30),
        ])

        let close = ActionButton(type: .system)
        close.setImage(UIImage(systemName: "xmark"), for: .normal)
        close.tintColor = .white
        close.accessibilityLabel = page.closeAccessibilityLabel
        close.contentHorizontalAlignment = .trailing
        close.onTap = { [weak self] in self?.dismiss(animated: true) }
        stack.addArrangedSubview(close)

        let header = UIStackView(arrangedSubviews: [
            serviceLabel(page.primaryService), arrowView(), serviceLabel(page.connectingService),
        ])
        header.axis = .horizontal
        header.spacing = 24
        header.alignment = .center
        let headerRow = UIStackView(arrangedSubviews: [header])
        headerRow.axis = .vertical
        headerRow.alignment = .center
        stack.addArrangedSubview(headerRow)

        let title = TappableLabel()
        title.numberOfLines = 0
        title.attributedText = NSAttributedString(
            page.title, size: UIFontMetrics(forTextStyle: .title2).scaledValue(for: 28))
        title.isUserInteractionEnabled = true
        title.onTap = { [weak self] in
            guard let self else { return }
            self.onOpenURL?(self.page.titleURL)
        }
        stack.addArrangedSubview(title)

        for benefit in page.benefits {
            stack.addArrangedSubview(benefitRow(benefit))
        }

        switch page.call {
        case .manage(let titleText):
            let manage = ActionButton(type: .system)
            manage.setTitle(titleText, for: .normal)
            manage.setTitleColor(.white, for: .normal)
            manage.titleLabel?.font = Self.font("AvenirNext-DemiBold", 20, .semibold, style: .headline)
            manage.titleLabel?.adjustsFontForContentSizeCategory = true
            manage.backgroundColor = UIColor.white.withAlphaComponent(0.14)
            manage.layer.cornerRadius = 28
            manage.heightAnchor.constraint(equalToConstant: 56).isActive = true
            manage.onTap = { [weak self] in self?.onManage?() }
            stack.addArrangedSubview(manage)
        case .appStore(let id):
            let store = ActionButton(type: .system)
            store.setImage(UIImage(systemName: "arrow.down.app"), for: .normal)
            store.tintColor = .white
            store.accessibilityLabel = page.appStoreAccessibilityLabel
            store.onTap = { [weak self] in self?.onShowAppStore?(id) }
            stack.addArrangedSubview(store)
        case .none:
            break
        }

        let legal = TappableLabel()
        legal.numberOfLines = 0
        legal.attributedText = NSAttributedString(
            page.legal, size: UIFontMetrics(forTextStyle: .body).scaledValue(for: 16))
        legal.accessibilityTraits = .link
        legal.isUserInteractionEnabled = true
        legal.onTap = { [weak self] in self?.onOpenURL?(ConnectAboutPage.termsURL) }
        stack.addArrangedSubview(legal)
    }

    /// Avenir Next at `size`, scaled for the user's text size as `style` scales (2.8's `Font` did the same).
    private static func font(_ name: String, _ size: CGFloat, _ weight: UIFont.Weight, style: UIFont.TextStyle)
        -> UIFont
    {
        let base = UIFont(name: name, size: size) ?? .systemFont(ofSize: size, weight: weight)
        return UIFontMetrics(forTextStyle: style).scaledFont(for: base)
    }

    private func serviceLabel(_ badge: ConnectAboutPage.ServiceBadge) -> UIView {
        let label = TappableLabel()
        label.text = badge.name
        label.textColor = .white
        label.font = Self.font("AvenirNext-DemiBold", 16, .semibold, style: .body)
        label.adjustsFontForContentSizeCategory = true
        label.accessibilityTraits = .link
        label.isUserInteractionEnabled = badge.url != nil
        if let url = badge.url {
            label.onTap = { [weak self] in self?.onOpenURL?(url) }
        }
        return label
    }

    private func arrowView() -> UIView {
        let arrow = UIImageView(image: UIImage(systemName: "arrow.right"))
        arrow.tintColor = UIColor(ConnectButtonPalette.mediumGrey)
        return arrow
    }

    private func benefitRow(_ benefit: ConnectAboutPage.Benefit) -> UIView {
        let symbol: String
        switch benefit.kind {
        case .connect: symbol = "link"
        case .control: symbol = "slider.horizontal.3"
        case .security: symbol = "lock"
        case .manage: symbol = "power"
        }
        let icon = UIImageView(image: UIImage(systemName: symbol))
        icon.tintColor = UIColor(ConnectButtonPalette.mediumGrey)
        icon.contentMode = .scaleAspectFit
        icon.widthAnchor.constraint(equalToConstant: 24).isActive = true
        let text = UILabel()
        text.numberOfLines = 0
        text.text = benefit.text
        text.textColor = .white
        text.font = Self.font("AvenirNext-DemiBold", 16, .semibold, style: .body)
        text.adjustsFontForContentSizeCategory = true
        let row = UIStackView(arrangedSubviews: [icon, text])
        row.spacing = 24
        row.alignment = .center
        return row
    }
}

/// A button that calls a closure when a touch ends inside it (UIControl tracking, no `@objc` target-action).
private final class ActionButton: UIButton {
    var onTap: (() -> Void)?

    override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        super.endTracking(touch, with: event)
        if isTouchInside { onTap?() }
    }
}

/// A label that calls a closure when a touch ends inside it. It consumes its touches, so it overrides every
/// touch method (UIResponder's rule for views that do not call super).
private final class TappableLabel: UILabel {
    var onTap: (() -> Void)?

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {}
    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {}
    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {}

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if let touch = touches.first, bounds.contains(touch.location(in: self)) { onTap?() }
    }
}
#endif
