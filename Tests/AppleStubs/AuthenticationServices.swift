// Test-only stub of Apple's AuthenticationServices: only what the SDK's web authentication adapter uses, with the
// signatures, optionality and isolation of Apple's documentation (page beside each declaration). Not Apple's SDK.
@_exported import Foundation
import UIKit

/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor
/// (`UIWindow` on iOS, `NSWindow` on macOS)
public typealias ASPresentationAnchor = UIWindow

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding
/// (iOS 13+; `@MainActor protocol ASWebAuthenticationPresentationContextProviding : NSObjectProtocol`)
@MainActor
public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding/presentationanchor(for:)
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession (iOS 12+; a plain class)
open class ASWebAuthenticationSession: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/completionhandler
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callbackurlscheme:completionhandler:)-7fpox
    public init(
        url URL: URL, callbackURLScheme: String?,
        completionHandler: @escaping ASWebAuthenticationSession.CompletionHandler
    ) {
        super.init()
    }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/presentationcontextprovider
    /// (iOS 13+)
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/prefersephemeralwebbrowsersession
    /// (iOS 13+)
    open var prefersEphemeralWebBrowserSession: Bool = false
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/start()
    open func start() -> Bool { false }
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/cancel()
    open func cancel() {}
}

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror
public struct ASWebAuthenticationSessionError: Error, Hashable, Sendable {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code
    public enum Code: Int, Sendable {
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code/canceledlogin
        case canceledLogin = 1
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code/presentationcontextnotprovided
        case presentationContextNotProvided = 2
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code/presentationcontextinvalid
        case presentationContextInvalid = 3
    }
    /// The error's code.
    public let code: Code
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/canceledlogin
    public static var canceledLogin: Code { .canceledLogin }
}
