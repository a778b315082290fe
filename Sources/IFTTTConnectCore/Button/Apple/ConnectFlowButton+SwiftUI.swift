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
///                                                          redirectURL: redirectURL),
///                   onStatusChange: { status = $0 }) { event in
///     if case .activated(let activation) = event { save(activation.userToken) }
/// }
/// ```
///
/// Each flow ends with one ``ConnectFlowEvent``: the Connection turned on or off, the user cancelled, or turning it
/// on or off failed. ``ConnectFlowStatus`` tells whether the Connection is on and whether a flow is under way, each
/// time that changes. When the view is updated with another Connection, email, redirect URL, locale or server, the
/// button starts over with them (after a flow under way ends); the latest closures receive what follows.
///
/// The web page is presented over the window that shows this view (the scene's window), found through the view
/// itself, never by looking for a key window. The footer's "about" link presents the About page from the view
/// controller hosting the view. Forward redirects to a ``ConnectionRedirectHandler`` from `onOpenURL` as
/// with any controller.
@available(iOS 14.0, *)
@MainActor
public struct ConnectFlowButton: View {
    @StateObject private var model: ConnectFlowModel
    private let inputs: ConnectFlowModel.Inputs
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
    ///   - onStatusChange: Receives the status when it changes (connected, busy), on the main actor.
    ///   - onEvent: Receives the end of each flow on the main actor: activated, deactivated, cancelled or failed.
    public init(
        configuration: ConnectionConfiguration,
        controllerConfiguration: ConnectButtonController.Configuration = ConnectButtonController.Configuration(),
        locale: Locale = ConnectButtonController.determineLocale(), style: ConnectButtonStyle = .dynamic,
        onStatusChange: @escaping @MainActor (ConnectFlowStatus) -> Void = { _ in },
        onEvent: @escaping @MainActor (ConnectFlowEvent) -> Void = { _ in }
    ) {
        let inputs = ConnectFlowModel.Inputs(
            configuration: configuration, controllerConfiguration: controllerConfiguration, locale: locale,
            onStatusChange: onStatusChange, onEvent: onEvent)
        _model = StateObject(wrappedValue: ConnectFlowModel(inputs))
        self.inputs = inputs
        self.style = style
    }

    /// The button, with an invisible view that gives the flow its window and hands it each update's inputs.
    public var body: some View {
        ZStack {
            WindowAnchorView(model: model, inputs: inputs).frame(width: 0, height: 0)
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
    /// What the view was created or updated with.
    struct Inputs {
        var configuration: ConnectionConfiguration
        var controllerConfiguration: ConnectButtonController.Configuration
        var locale: Locale
        var onStatusChange: @MainActor (ConnectFlowStatus) -> Void
        var onEvent: @MainActor (ConnectFlowEvent) -> Void

        var settings: ConnectFlowSettings {
            ConnectFlowSettings(
                configuration: configuration, controllerConfiguration: controllerConfiguration, locale: locale)
        }
    }

    @Published private(set) var state: ConnectButtonVisualState = .loading
    @Published private(set) var connection: Connection?
    @Published private(set) var localization: ConnectLocalization
    var actionHandler: (@MainActor (ConnectButtonAction) -> Void)?
    /// The view draws from ``state`` with the environment SwiftUI gives it, so the controller computes the
    /// appearance for the default one and the model ignores it.
    var appearanceEnvironment: ConnectButtonEnvironment { ConnectButtonEnvironment() }
    /// The invisible view inside the hierarchy: its window is the scene's window, its responder chain leads to the
    /// hosting view controller.
    weak var anchorView: UIView?
    private var controller: ConnectButtonController?
    private var typedEmail = ""
    private var inputs: Inputs
    private var restart: ConnectFlowRestartPolicy
    private var status = ConnectFlowStatus(step: .loading)

    init(_ inputs: Inputs) {
        self.inputs = inputs
        self.localization = ConnectLocalization(locale: inputs.locale)
        self.restart = ConnectFlowRestartPolicy(inputs.settings)
        startController()
    }

    /// A view update: the latest closures, and a new controller when the settings changed (after a flow ends).
    func update(_ newInputs: Inputs) {
        inputs = newInputs
        guard restart.update(newInputs.settings, busy: status.isBusy) else { return }
        // Not inside SwiftUI's update: the new controller publishes its first state.
        Task { @MainActor [weak self] in self?.startController() }
    }

    private func startController() {
        var setup = inputs.controllerConfiguration
        #if canImport(AuthenticationServices)
        if setup.webAuthenticationSession == nil {
            setup.webAuthenticationSession = SystemWebAuthenticationSession { [weak self] in self?.anchorView?.window }
        }
        #endif
        localization = ConnectLocalization(locale: inputs.locale)
        typedEmail = ""
        controller = ConnectButtonController(
            connectButton: self, connectionConfiguration: inputs.configuration, locale: inputs.locale, delegate: self,
            configuration: setup)
    }

    func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String) {
        if let connection { self.connection = connection }
        state = ConnectButtonVisualState(step: step, email: typedEmail.isEmpty ? suggestedEmail : typedEmail)
        let newStatus = ConnectFlowStatus(step: step)
        guard newStatus != status else { return }
        status = newStatus
        inputs.onStatusChange(newStatus)
        if restart.statusChanged(busy: newStatus.isBusy) { startController() }
    }

    /// Nothing to draw here: ``ConnectFlowButton`` draws ``state`` itself.
    func show(_ appearance: ConnectButtonAppearance) {}

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
        guard let connection, let host = hostingController else { return }
        AboutViewController.present(connection: connection, localization: localization, from: host)
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
        inputs.onEvent(ConnectFlowEvent(activation: result))
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {
        inputs.onEvent(ConnectFlowEvent(deactivation: result))
    }
}

/// An empty UIKit view placed beside the button, so the flow finds its window and hosting view controller.
@available(iOS 14.0, *)
@MainActor
struct WindowAnchorView: UIViewRepresentable {
    let model: ConnectFlowModel
    let inputs: ConnectFlowModel.Inputs

    func makeUIView(context: Context) -> UIView {
        let view = UIView()
        model.anchorView = view
        return view
    }

    /// Called on every update of the ``ConnectFlowButton``: hands the model the view's current inputs.
    func updateUIView(_ uiView: UIView, context: Context) {
        model.anchorView = uiView
        model.update(inputs)
    }
}
#endif
