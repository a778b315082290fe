import IFTTTConnectSDK
import UIKit

/// Shows the Connect Button for "Show my list when I arrive at the store".
final class ConnectViewController: UIViewController, ConnectButtonControllerDelegate {
    private let connectButton = ConnectButton()
    private var connectButtonController: ConnectButtonController?
    /// Called after the user signed out of Grocery Express in the settings.
    private let onSignOut: @MainActor () -> Void

    init(onSignOut: @escaping @MainActor () -> Void) {
        self.onSignOut = onSignOut
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Grocery Express"
        view.backgroundColor = .systemBackground
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: "Settings",
            primaryAction: UIAction { [weak self] _ in
                let settings = SettingsViewController(
                    onChange: { [weak self] in self?.startConnectButton() },
                    onSignOut: { [weak self] in self?.onSignOut() })
                self?.navigationController?.pushViewController(settings, animated: true)
            })

        let intro = UILabel()
        intro.text = "See your shopping list the moment you walk into the store."
        intro.numberOfLines = 0
        intro.textAlignment = .center
        intro.font = .preferredFont(forTextStyle: .body)

        connectButton.style = .dynamic
        let stack = UIStackView(arrangedSubviews: [intro, connectButton])
        stack.axis = .vertical
        stack.spacing = 24
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            stack.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor, constant: 20),
            stack.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor, constant: -20),
        ])

        startConnectButton()
    }

    /// Creates the controller with the current settings (again when the settings screen changed them).
    private func startConnectButton() {
        connectButtonController = ConnectButtonController(
            connectButton: connectButton,
            connectionConfiguration: AppConfiguration.connectionConfiguration(),
            locale: ExampleSettings.locale,
            delegate: self,
            configuration: AppConfiguration.controllerConfiguration)
    }

    // MARK: ConnectButtonControllerDelegate

    func presentingViewController(for connectButtonController: ConnectButtonController) -> UIViewController {
        self
    }

    func webAuthenticationPresentationAnchor() -> UIWindow {
        view.window ?? UIWindow(frame: UIScreen.main.bounds)
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
    ) {
        switch result {
        case .success(let activation):
            // Keep the token: the button and background synchronization use it from now on.
            GroceryExpressCredentials.save(userToken: activation.userToken)
            ConnectButtonController.update(with: GroceryExpressCredentials())
            ConnectButtonController.activate(connections: [activation.connection.id])
        case .failure(let error):
            print("Activation failed: \(error)")
        }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {
        if case .failure(let error) = result { print("Turning the Connection off failed: \(error)") }
    }
}
