import Foundation
@_spi(Sandbox) import IFTTTConnectCore
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif
#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK)
import AuthenticationServices
#endif

/// A `URLOpener` that opens nothing: it records what it was asked to open, says which
/// schemes are "installed", and hands each opened URL to whoever awaits ``next()``.
///
/// ```swift
/// let opener = RecordingURLOpener(installed: ["ifttt-handoff-v1"])
/// configuration.urlOpener = opener
/// let activationURL = try await opener.next()
/// ```
@MainActor
@_spi(Sandbox) public final class RecordingURLOpener: URLOpener {
    /// The URL schemes ``canOpen(_:)`` answers `true` for.
    public var installed: Set<String>
    /// What ``open(_:)`` returns.
    public var openSucceeds: Bool
    /// Every URL opened, in order.
    public private(set) var opened: [URL] = []

    private let stream: AsyncStream<URL>
    private let continuation: AsyncStream<URL>.Continuation

    /// Creates an opener.
    ///
    /// - Parameters:
    ///   - installed: The schemes of the apps that count as installed.
    ///   - openSucceeds: What opening a URL reports.
    public init(installed: Set<String> = [], openSucceeds: Bool = true) {
        self.installed = installed
        self.openSucceeds = openSucceeds
        (stream, continuation) = AsyncStream.makeStream(of: URL.self)
    }

    /// Whether `url`'s scheme is in ``installed``.
    ///
    /// - Parameter url: The URL the SDK would open.
    /// - Returns: `true` for an installed scheme.
    public func canOpen(_ url: URL) -> Bool { installed.contains(url.scheme ?? "") }

    /// Records `url` and reports ``openSucceeds``.
    ///
    /// - Parameter url: The URL the SDK opens.
    /// - Returns: ``openSucceeds``.
    public func open(_ url: URL) async -> Bool {
        opened.append(url)
        continuation.yield(url)
        return openSucceeds
    }

    /// The next URL opened that no earlier call returned.
    ///
    /// - Returns: The URL.
    /// - Throws: ``TestDoubleError/finished`` if the opener can no longer deliver one.
    public func next() async throws -> URL {
        var iterator = stream.makeAsyncIterator()
        guard let url = await iterator.next() else { throw TestDoubleError.finished }
        return url
    }
}

/// A `WebAuthenticationSession` that shows nothing: it records the URLs it was started with
/// and lets the test end the session with any result.
///
/// ```swift
/// let session = RecordingWebSession()
/// session.onStart = { url in session.end(.cancelled) }
/// let activationPage = try await session.next()
/// ```
@MainActor
@_spi(Sandbox) public final class RecordingWebSession: WebAuthenticationSession {
    /// Every URL a session was started with, in order.
    public private(set) var started: [URL] = []
    /// How many times ``dismiss()`` was called.
    public private(set) var dismissCount = 0
    /// Called after each start, with the URL.
    public var onStart: (@MainActor (URL) -> Void)?
    private var completion: (@MainActor (WebAuthenticationSessionResult) -> Void)?
    private let stream: AsyncStream<URL>
    private let continuation: AsyncStream<URL>.Continuation

    /// Creates a session.
    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: URL.self)
    }

    /// Records `url` and keeps `completion` for ``end(_:)``.
    ///
    /// - Parameters:
    ///   - url: The page the SDK asked to show.
    ///   - callbackURLScheme: The scheme that would end the session (ignored).
    ///   - completion: What ``end(_:)`` calls.
    public func start(
        url: URL, callbackURLScheme: String?,
        completion: @escaping @MainActor (WebAuthenticationSessionResult) -> Void
    ) {
        started.append(url)
        self.completion = completion
        continuation.yield(url)
        onStart?(url)
    }

    /// The next URL a session was started with that no earlier call returned.
    ///
    /// - Returns: The URL.
    /// - Throws: ``TestDoubleError/finished`` if the session can no longer deliver one.
    public func next() async throws -> URL {
        var iterator = stream.makeAsyncIterator()
        guard let url = await iterator.next() else { throw TestDoubleError.finished }
        return url
    }

    /// Counts the call and forgets the pending completion.
    public func dismiss() {
        dismissCount += 1
        completion = nil
    }

    /// Ends the current session with `result`, as the user or the redirect would.
    ///
    /// - Parameter result: What the session reports to the SDK.
    public func end(_ result: WebAuthenticationSessionResult) {
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}

/// A `ConnectButtonControllerDelegate` that records every result it is told.
@MainActor
public final class RecordingConnectButtonDelegate: ConnectButtonControllerDelegate {
    /// Every activation result, in order.
    public private(set) var activations: [Result<ConnectionActivation, ConnectButtonControllerError>] = []
    /// Every deactivation result, in order.
    public private(set) var deactivations: [Result<Connection, ConnectButtonControllerError>] = []

    /// Creates a delegate with nothing recorded.
    public init() {}

    #if canImport(UIKit) && !os(watchOS)
    /// The view controller returned to the SDK by ``presentingViewController(for:)``.
    public let viewController = UIViewController()

    /// Returns ``viewController``.
    ///
    /// - Parameter connectButtonController: The controller that asks.
    /// - Returns: The view controller to present from.
    public func presentingViewController(for connectButtonController: ConnectButtonController) -> UIViewController {
        viewController
    }
    #endif

    #if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK)
    /// A new window for the web authentication session to present on.
    ///
    /// - Returns: The presentation anchor.
    public func webAuthenticationPresentationAnchor() -> ASPresentationAnchor {
        ASPresentationAnchor()
    }
    #endif

    /// Records an activation result.
    ///
    /// - Parameters:
    ///   - connectButtonController: The controller that finished.
    ///   - result: The activation or the error.
    public func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
    ) {
        activations.append(result)
    }

    /// Records a deactivation result.
    ///
    /// - Parameters:
    ///   - connectButtonController: The controller that finished.
    ///   - result: The Connection or the error.
    public func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {
        deactivations.append(result)
    }
}

/// Why a test double could not deliver what a test awaited.
@_spi(Sandbox) public enum TestDoubleError: Error, Sendable, Equatable {
    /// The double's stream ended before the awaited value arrived.
    case finished
}
