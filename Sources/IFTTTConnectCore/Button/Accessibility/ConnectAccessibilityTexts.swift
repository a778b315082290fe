import Foundation

/// The texts VoiceOver reads for the Connect Button, from the SDK's `Accessibility.strings` tables in the 22
/// shipped localizations and the English base, with ``ConnectLocalization``'s fallback chain.
struct ConnectAccessibilityTexts: Sendable {
    /// The keys of `Accessibility.strings`.
    enum Key: String, Sendable, CaseIterable {
        case buttonLabel = "a11y.button.label"
        case buttonLabelNoService = "a11y.button.label.no_service"
        case valueLoading = "a11y.value.loading"
        case valueLoadingFailed = "a11y.value.loading_failed"
        case valueOff = "a11y.value.off"
        case valueOn = "a11y.value.on"
        case valueVerifying = "a11y.value.verifying"
        case valueCreatingAccount = "a11y.value.creating_account"
        case valueOpening = "a11y.value.opening"
        case valueConnecting = "a11y.value.connecting"
        case valueDisconnecting = "a11y.value.disconnecting"
        case hintConnect = "a11y.hint.connect"
        case hintDisconnect = "a11y.hint.disconnect"
        case announceLoadingFailed = "a11y.announce.loading_failed"
        case announceConnected = "a11y.announce.connected"
        case announceDisconnected = "a11y.announce.disconnected"
        case emailLabel = "a11y.email.label"
        case emailHint = "a11y.email.hint"
        case emailHintInvalid = "a11y.email.hint.invalid"
        case emailConfirmLabel = "a11y.email.confirm.label"
        case emailConfirmHint = "a11y.email.confirm.hint"
        case footerAbout = "a11y.footer.about"
        case footerAboutHint = "a11y.footer.about.hint"
        case footerLearnMore = "a11y.footer.learn_more"
        case footerRetry = "a11y.footer.retry"
        case footerRetryHint = "a11y.footer.retry.hint"
    }

    let localization: ConnectLocalization

    /// The text for `key` from the first localization in the chain that has it (the key itself if none does).
    func string(_ key: Key) -> String {
        for name in localization.fallbackChain {
            if let value = LocalizationTables.accessibility.tables[name]?[key.rawValue] { return value }
        }
        return key.rawValue
    }

    /// The text for `key` with `%@` replaced by `arguments`.
    func format(_ key: Key, _ arguments: String...) -> String {
        ConnectLocalization.format(string(key), arguments)
    }

    /// The text for `key` with `%@` replaced by `arguments`.
    func format(_ key: Key, _ arguments: [String]) -> String {
        ConnectLocalization.format(string(key), arguments)
    }
}
