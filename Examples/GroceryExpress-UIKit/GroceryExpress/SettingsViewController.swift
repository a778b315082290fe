import IFTTTConnectSDK
import UIKit

/// IFTTT's 2.8 example settings (email, skipping configuration, locale, the new-user flow), the store geofences of
/// the Connection (paused without turning it off), and signing out of Grocery Express.
final class SettingsViewController: UIViewController {
    /// Called after a change, so the Connect screen starts over with the new settings.
    private let onChange: @MainActor () -> Void
    /// Called after signing out, so the app shows Grocery Express's sign-in again.
    private let onSignOut: @MainActor () -> Void

    init(onChange: @escaping @MainActor () -> Void, onSignOut: @escaping @MainActor () -> Void) {
        self.onChange = onChange
        self.onSignOut = onSignOut
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Settings"
        view.backgroundColor = .systemBackground

        let rows: [UIView] = [
            textRow("Email", ExampleSettings.email, keyboard: .emailAddress) { ExampleSettings.email = $0 },
            textRow("Locale, e.g. de (empty: the device's)", ExampleSettings.localeIdentifier) {
                ExampleSettings.localeIdentifier = $0
            },
            switchRow("Skip IFTTT's configuration screen", ExampleSettings.skipsConfiguration) {
                ExampleSettings.skipsConfiguration = $0
            },
            switchRow("New-user flow (a fresh email address each time)", ExampleSettings.forcesNewUserFlow) {
                ExampleSettings.forcesNewUserFlow = $0
            },
            switchRow(
                "Use my location at the store",
                ConnectButtonController.geofencesEnabled(for: AppConfiguration.connectionId)
            ) {
                ConnectButtonController.setGeofencesEnabled(enabled: $0, for: AppConfiguration.connectionId)
            },
            signOutRow(),
        ]
        let stack = UIStackView(arrangedSubviews: rows)
        stack.axis = .vertical
        stack.spacing = 16
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 24),
            stack.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor, constant: 20),
            stack.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor, constant: -20),
        ])
    }

    /// A text field saved when the user presses return.
    private func textRow(
        _ placeholder: String, _ value: String, keyboard: UIKeyboardType = .default,
        save: @escaping @MainActor (String) -> Void
    ) -> UIView {
        let field = UITextField()
        field.placeholder = placeholder
        field.text = value
        field.borderStyle = .roundedRect
        field.autocapitalizationType = .none
        field.keyboardType = keyboard
        field.addAction(
            UIAction { [weak self, weak field] _ in
                save(field?.text ?? "")
                self?.onChange()
            }, for: .primaryActionTriggered)
        return field
    }

    /// Who is signed in to Grocery Express, and a button that signs out.
    private func signOutRow() -> UIView {
        let label = UILabel()
        label.text = "Signed in to Grocery Express as \(ExampleSettings.partnerLogin)"
        label.numberOfLines = 0
        label.font = .preferredFont(forTextStyle: .body)
        let button = UIButton(type: .system)
        button.setTitle("Sign Out", for: .normal)
        button.addAction(
            UIAction { [weak self] _ in
                ExampleSettings.signOut()
                self?.onSignOut()
            }, for: .touchUpInside)
        let row = UIStackView(arrangedSubviews: [label, button])
        row.spacing = 12
        row.alignment = .center
        return row
    }

    /// A labelled switch saved when it changes.
    private func switchRow(_ title: String, _ isOn: Bool, save: @escaping @MainActor (Bool) -> Void) -> UIView {
        let label = UILabel()
        label.text = title
        label.numberOfLines = 0
        label.font = .preferredFont(forTextStyle: .body)
        let toggle = UISwitch()
        toggle.isOn = isOn
        toggle.addAction(
            UIAction { [weak self, weak toggle] _ in
                save(toggle?.isOn ?? false)
                self?.onChange()
            }, for: .valueChanged)
        let row = UIStackView(arrangedSubviews: [label, toggle])
        row.spacing = 12
        row.alignment = .center
        return row
    }
}
