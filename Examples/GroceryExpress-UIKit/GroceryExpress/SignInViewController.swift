import UIKit

/// Grocery Express's own sign-in, shown while the app has no Grocery Express session: the username and password go
/// to Grocery Express's backend (``GroceryExpressBackend``), whose session the app keeps (``ExampleSettings``).
final class SignInViewController: UIViewController {
    /// Called once signed in, so the app shows the Connect screen.
    private let onSignIn: @MainActor () -> Void
    private let loginField = UITextField()
    private let passwordField = UITextField()
    private let message = UILabel()
    private var signingIn = false

    init(onSignIn: @escaping @MainActor () -> Void) {
        self.onSignIn = onSignIn
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Grocery Express"
        view.backgroundColor = .systemBackground

        let intro = UILabel()
        intro.text = "Sign in to Grocery Express (in the sandbox: alice / gx-alice-password)."
        intro.numberOfLines = 0
        intro.font = .preferredFont(forTextStyle: .body)
        loginField.placeholder = "Username"
        loginField.autocapitalizationType = .none
        loginField.autocorrectionType = .no
        passwordField.placeholder = "Password"
        passwordField.isSecureTextEntry = true
        loginField.borderStyle = .roundedRect
        passwordField.borderStyle = .roundedRect
        passwordField.addAction(UIAction { [weak self] _ in self?.signIn() }, for: .primaryActionTriggered)
        let button = UIButton(type: .system)
        button.setTitle("Sign In", for: .normal)
        button.addAction(UIAction { [weak self] _ in self?.signIn() }, for: .touchUpInside)
        message.numberOfLines = 0
        message.textColor = .secondaryLabel

        let stack = UIStackView(arrangedSubviews: [intro, loginField, passwordField, button, message])
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

    /// Asks Grocery Express's backend; keeps the session, or says why not.
    private func signIn() {
        let login = (loginField.text ?? "").trimmingCharacters(in: .whitespaces)
        let password = passwordField.text ?? ""
        guard !signingIn else { return }
        guard !login.isEmpty, !password.isEmpty else {
            message.text = "Enter your username and password."
            return
        }
        signingIn = true
        message.text = "Signing in…"
        Task { [weak self] in
            do {
                let account = try await AppConfiguration.backend.signIn(login: login, password: password)
                ExampleSettings.signIn(account)
                self?.onSignIn()
            } catch {
                self?.message.text = "\(error)"
                self?.signingIn = false
            }
        }
    }
}
