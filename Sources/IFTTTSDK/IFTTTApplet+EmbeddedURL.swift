import Foundation
@_spi(Sandbox) import IFTTTConnectCore

extension IFTTTApplet {
    /// The web activation URL for this Applet, with the anonymous id and invite code of
    /// ``IFTTTAPIManager/shared``. Open it (ideally through a page of your service that signs the user in
    /// first) in an `SFSafariViewController` or `ASWebAuthenticationSession`; IFTTT redirects to
    /// `callbackURL` when the activation ends, after which you re-fetch the Applet.
    ///
    /// - Parameters:
    ///   - callbackURL: where IFTTT sends the user back; it must be registered as an embedded redirect on
    ///     the IFTTT platform.
    ///   - email: the user's email, which lets IFTTT find or pre-fill their account; `nil` or empty omits it.
    ///   - userId: the user's id on your service. Required.
    /// - Throws: `ConnectAPIError.invalidRequest` for an empty `userId` or a relative `callbackURL`.
    public func embeddedURL(callbackURL: URL, email: String? = nil, userId: String) throws(ConnectAPIError) -> URL {
        try IFTTTAPIManager.shared.embeddedURL(for: self, callbackURL: callbackURL, email: email, userId: userId)
    }

    /// The web activation URL for this Applet: ``embeddedURL-swift.property`` with its query replaced by
    /// `ifttt_sdk_version`, `ifttt_sdk_platform`, `ifttt_sdk_anonymous_id`, `user_id`, `redirect_uri`,
    /// then `invite_code` and `email` when they are non-empty, in that order.
    ///
    /// Every name and value is percent-encoded strictly (only RFC 3986 unreserved characters stay), so
    /// parsing the URL back gives exactly the values put in, whatever they hold: `+`, `&`, `=`, spaces
    /// or non-ASCII text.
    ///
    /// ```swift
    /// let url = try applet.embeddedURL(callbackURL: URL(string: "myapp://ifttt-callback")!,
    ///                                  email: "alice+ifttt@example.com", userId: "alice",
    ///                                  anonymousId: "6F1E…", inviteCode: nil)
    /// ```
    /// - Throws: `ConnectAPIError.invalidRequest` for an empty `userId` or a relative `callbackURL`.
    @_spi(Sandbox) public func embeddedURL(
        callbackURL: URL, email: String?, userId: String, anonymousId: String,
        inviteCode: String?
    ) throws(ConnectAPIError) -> URL {
        guard !userId.isEmpty else { throw .invalidRequest("userId is empty") }
        guard let scheme = callbackURL.scheme, !scheme.isEmpty else {
            throw .invalidRequest("callbackURL has no scheme")
        }
        var items: [(String, String)] = [
            ("ifttt_sdk_version", SDKInfo.version),
            ("ifttt_sdk_platform", SDKInfo.platform),
            ("ifttt_sdk_anonymous_id", anonymousId),
            ("user_id", userId),
            ("redirect_uri", callbackURL.absoluteString),
        ]
        if let inviteCode, !inviteCode.isEmpty { items.append(("invite_code", inviteCode)) }
        if let email, !email.isEmpty { items.append(("email", email)) }
        guard var components = URLComponents(url: embeddedURL, resolvingAgainstBaseURL: false) else {
            throw .invalidRequest("the Applet's embedded_url cannot be parsed")
        }
        components.percentEncodedQuery = PercentEncoding.query(items)
        guard let url = components.url else { throw .invalidRequest("could not build the embedded URL") }
        return url
    }
}
