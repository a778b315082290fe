#if canImport(SwiftUI) && canImport(UIKit) && (os(iOS) || IFTTT_APPLE_STUB_CHECK)
import Combine
import SwiftUI
import UIKit
#if canImport(AuthenticationServices)
import AuthenticationServices
#endif

/// The whole Connect Button flow in one SwiftUI view: the button, the activation web page and the About page,
/// driven by a ``ConnectButtonController`` it owns.
///
/// ```swift
/// ConnectFlowButton(configuration: ConnectionConfiguration(connectionId: "gx-arrive-store",
///                                                          suggestedUserEmail: user.email,
///                                                          credentialProvider: credentials,
///                                                          redirectURL: redirectURL)) { result in
///     if case .success(let activation) = result { save(activation.userToken) }
/// }
/// ```
///
/// The web page is presented over the window that shows this view (the scene's window), found through the view
/// itself, never by looking for a key window. The footer's "about" link presents the ``AboutViewController`` from
/// the view controller hosting the view. Forward redirects to a ``ConnectionRedirectHandler`` from `onOpenURL` as
/// with any controller. The view creates its controller once; give it a new `.id(...)` to start over with another
/// configuration.
@available(iOS 14.0, *)
@MainActor
public struct ConnectFlowButton: View {
    @StateObject private var model: ConnectFlowModel
    private let style: ConnectButtonStyle

    /// Creates the view and its controller.
    ///
    /// - Parameters:
    ///   - configuration: The Connection, the user and the redirect URL.
    ///   - controllerConfiguration: The network and adapters, e.g. `.sandbox(url)`; default production IFTTT.
    ///     Without a ``ConnectButtonController/Configuration/webAuthenticationSession`` of its own, the page opens
    ///     in an `ASWebAuthenticationSession` over this view's window.
    ///   - locale: The language of the button and of IFTTT's pages.
    ///   - style: The button's colours; default ``ConnectButtonStyle/dynamic``.
    ///   - onResult: Receives each activation's result on the main actor.
    public init(
        configuration: ConnectionConfiguration,
        controllerConfiguration: ConnectButtonController.Configuration = ConnectButtonController.Configuration(),
        locale: Locale = ConnectButtonController.determineLocale(), style: ConnectButtonStyle = .dynamic,
        onResult: @escaping @MainActor (Result<ConnectionActivation, ConnectButtonControllerError>) -> Void = { _ in }
    ) {
        _model = StateObject(
            wrappedValue: ConnectFlowModel(
                configuration: configuration, controllerConfiguration: controllerConfiguration, locale: locale,
                onResult: onResult))
        self.style = style
    }

    /// The button, with an invisible view that gives the flow its window.
    public var body: some View {
        ZStack {
            WindowAnchorView(model: model).frame(width: 0, height: 0)
            ConnectButtonView(
                state: model.state, connection: model.connection, localization: model.localization, style: style,
                onTap: { model.tap() }, onFooterTap: { model.footerTapped($0) },
                onEmailConfirm: { model.confirm(email: $0) })
        }
    }
}

/// The state behind ``ConnectFlowButton``: the controller's presenter and delegate.
@available(iOS 14.0, *)
@MainActor
final class ConnectFlowModel: ObservableObject, ConnectButtonPresenting, ConnectButtonControllerDelegate {
    @Published private(set) var state: ConnectButtonVisualState = .loading
    @Published private(set) var connection: Connection?
    var actionHandler: (@MainActor (ConnectButtonAction) -> Void)?
    let localization: ConnectLocalization
    /// The invisible view inside the hierarchy: its window is the scene's window, its responder chain leads to the
    /// hosting view controller.
    weak var anchorView: UIView?
    private var controller: ConnectButtonController?
    private var typedEmail = ""
    private let onResult: @MainActor (Result<ConnectionActivation, ConnectButtonControllerError>) -> Void

    init(
        configuration: ConnectionConfiguration, controllerConfiguration: ConnectButtonController.Configuration,
        locale: Locale,
        onResult: @escaping @MainActor (Result<ConnectionActivation, ConnectButtonControllerError>) -> Void
    ) {
        self.localization = ConnectLocalization(locale: locale)
        self.onResult = onResult
        var setup = controllerConfiguration
        #if canImport(AuthenticationServices)
        if setup.webAuthenticationSession == nil {
            setup.webAuthenticationSession = SystemWebAuthenticationSession { [weak self] in self?.anchorView?.window }
        }
        #endif
        controller = ConnectButtonController(
            connectButton: self, connectionConfiguration: configuration, locale: locale, delegate: self,
            configuration: setup)
    }

    func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String) {
        if let connection { self.connection = connection }
        state = ConnectButtonVisualState(step: step, email: typedEmail.isEmpty ? suggestedEmail : typedEmail)
    }

    func tap() { actionHandler?(.toggle) }

    func confirm(email: String) {
        typedEmail = email
        actionHandler?(.confirmEmail(email))
    }

    func footerTapped(_ action: ConnectButtonAppearance.Footer.Action) {
        switch action {
        case .retry: actionHandler?(.footerTapped)
        case .showAbout: presentAboutPage()
        }
    }

    /// The view controller hosting the flow, from the anchor view's responder chain.
    private var hostingController: UIViewController? {
        var responder: UIResponder? = anchorView
        while let current = responder, !(current is UIViewController) { responder = current.next }
        return responder as? UIViewController
    }

    private func presentAboutPage() {
        guard let connection, let host = hostingController, let handoff = URL(string: "ifttt-handoff-v1://") else {
            return
        }
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

    // MARK: ConnectButtonControllerDelegate

    func presentingViewController(for connectButtonController: ConnectButtonController) -> UIViewController {
        hostingController ?? UIViewController()
    }

    #if canImport(AuthenticationServices)
    func webAuthenticationPresentationAnchor() -> ASPresentationAnchor {
        anchorView?.window ?? ASPresentationAnchor()
    }
    #endif

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
    ) {
        onResult(result)
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {}
}

/// An empty UIKit view placed beside the button, so the flow finds its window and hosting view controller.
@available(iOS 14.0, *)
@MainActor
struct WindowAnchorView: UIViewRepresentable {
    let model: ConnectFlowModel

    func makeUIView(context: Context) -> UIView {
        let view = UIView()
        model.anchorView = view
        return view
    }

    func updateUIView(_ uiView: UIView, context: Context) {
        model.anchorView = uiView
    }
}
#endif
