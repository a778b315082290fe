import Foundation

/// The initializers apps call: one for each kind of button the SDK ships (the UIKit `ConnectButton` on iOS, as in
/// ConnectSDK-iOS 2.8, and ``HeadlessConnectButton`` for programs without UI), with the platform's defaults unless
/// a ``ConnectButtonController/Configuration`` is given.
extension ConnectButtonController {
    /// Creates a controller for a button without UI and starts loading the Connection if needed.
    ///
    /// - Parameters:
    ///   - connectButton: The button to drive.
    ///   - connectionConfiguration: The Connection, the user and the redirect URL.
    ///   - locale: The locale sent to IFTTT; default ``determineLocale()``.
    ///   - delegate: Receives the results; held weakly.
    ///   - configuration: Where the controller sends its requests, such as ``Configuration/sandbox(_:)``; default
    ///     the platform's defaults and production IFTTT.
    public convenience init(
        connectButton: HeadlessConnectButton, connectionConfiguration: ConnectionConfiguration,
        locale: Locale = ConnectButtonController.determineLocale(),
        delegate: (any ConnectButtonControllerDelegate)?, configuration: Configuration = Configuration()
    ) {
        self.init(
            presenter: connectButton, connectionConfiguration: connectionConfiguration, locale: locale,
            delegate: delegate, configuration: configuration)
    }

    #if canImport(UIKit) && !os(watchOS)
    /// Creates a controller for the UIKit Connect Button and starts loading the Connection if needed
    /// (ConnectSDK-iOS 2.8's initializer, with an optional ``Configuration``).
    ///
    /// - Parameters:
    ///   - connectButton: The button to drive.
    ///   - connectionConfiguration: The Connection, the user and the redirect URL.
    ///   - locale: The locale sent to IFTTT; default ``determineLocale()``.
    ///   - delegate: Receives the results; held weakly.
    ///   - configuration: Where the controller sends its requests, such as ``Configuration/sandbox(_:)``; default
    ///     the platform's defaults and production IFTTT.
    public convenience init(
        connectButton: ConnectButton, connectionConfiguration: ConnectionConfiguration,
        locale: Locale = ConnectButtonController.determineLocale(),
        delegate: (any ConnectButtonControllerDelegate)?, configuration: Configuration = Configuration()
    ) {
        self.init(
            presenter: connectButton, connectionConfiguration: connectionConfiguration, locale: locale,
            delegate: delegate, configuration: configuration)
    }
    #endif

    /// Creates a controller for any presenter.
    @_spi(Sandbox) public convenience init(
        connectButton: any ConnectButtonPresenting, connectionConfiguration: ConnectionConfiguration,
        locale: Locale = ConnectButtonController.determineLocale(),
        delegate: (any ConnectButtonControllerDelegate)?, configuration: Configuration = Configuration()
    ) {
        self.init(
            presenter: connectButton, connectionConfiguration: connectionConfiguration, locale: locale,
            delegate: delegate, configuration: configuration)
    }
}
