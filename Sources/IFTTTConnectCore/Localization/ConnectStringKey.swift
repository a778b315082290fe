import Foundation

/// Every user-visible string of the Connect Button, its footer, the email step and the About page.
///
/// Each key exists in every shipped localization (a test checks this, including that each translation
/// uses the same format placeholders as English). Look a key up with ``ConnectLocalization/string(_:)`` or
/// ``ConnectLocalization/format(_:_:)-method``.
@_spi(Sandbox) public enum ConnectStringKey: String, Sendable, Hashable, CaseIterable {
    /// Button label while the Connection loads.
    case loading = "button.state.loading"
    /// Button label before activation; one argument, the connecting service's short name.
    case connect = "button.state.connect"
    /// Button label while the user's account is looked up.
    case verifying = "button.state.verifying"
    /// Button label when a new IFTTT account will be set up.
    case creatingAccount = "button.state.creating_account"
    /// Button label just before the web flow opens; one argument, the service's full name.
    case continueToService = "button.state.sign_in"
    /// Button label after the user returns from the web flow.
    case connecting = "button.state.connecting"
    /// Button label when the Connection is on.
    case connected = "button.state.connected"
    /// Button label while the Connection is being turned off.
    case disconnecting = "button.state.disconnecting"
    /// Button label right after the Connection was turned off.
    case disconnected = "button.state.disconnected"
    /// Placeholder of the email field.
    case emailPlaceholder = "button.email.placeholder"
    /// Accessibility label of the button that confirms the email.
    case emailConfirm = "button.email.confirm"
    /// Footer under the button ("WORKS WITH IFTTT", 2.8's lockup); contains the word `IFTTT`, drawn as the wordmark.
    case footerWorksWith = "button.footer.works_with"
    /// Footer during the email step, before the link; contains `IFTTT`.
    case footerEmailPrefix = "button.footer.email.prefix"
    /// The link after ``footerEmailPrefix``; opens the About page.
    case footerEmailLink = "button.footer.email.postfix"
    /// Footer when the email is not valid.
    case footerEmailInvalid = "button.footer.email.invalid"
    /// Footer when the Connection could not be loaded.
    case footerLoadingFailed = "button.footer.loading.failed.prefix"
    /// The link that retries loading.
    case footerLoadingFailedRetry = "button.footer.loading.failed.postfix"
    /// Footer while a new account is prepared; one argument, the email; contains `IFTTT`.
    case footerCreatingAccount = "button.footer.accountCreation"
    /// About page title; two arguments, the primary and the connecting service's short names; contains `IFTTT`.
    case aboutTitle = "about.title_full"
    /// About page, first benefit.
    case aboutConnect = "about.connect"
    /// About page, second benefit.
    case aboutControl = "about.control"
    /// About page, third benefit.
    case aboutSecurity = "about.security"
    /// About page, fourth benefit.
    case aboutManage = "about.manage"
    /// About page button that opens the Connection in the IFTTT app.
    case aboutManageButton = "about.connection-deep-link"
    /// About page legal sentence; contains ``aboutLegalLink`` exactly once.
    case aboutLegal = "about.legal.full"
    /// The part of ``aboutLegal`` that links to IFTTT's terms.
    case aboutLegalLink = "about.legal.link"
    /// Accessibility label of the About page's close button.
    case aboutClose = "about.close"
    /// Accessibility label of the About page's button that opens the IFTTT app on the App Store.
    case aboutAppStore = "about.app_store"

    /// How many arguments the string takes (`%@` or `%1$@`, `%2$@`).
    public var argumentCount: Int {
        switch self {
        case .connect, .continueToService, .footerCreatingAccount: return 1
        case .aboutTitle: return 2
        default: return 0
        }
    }

    /// Whether the string must contain the literal word `IFTTT`, which renderers draw as the wordmark.
    public var containsWordmark: Bool {
        switch self {
        case .footerWorksWith, .footerEmailPrefix, .footerCreatingAccount, .aboutTitle: return true
        default: return false
        }
    }
}
