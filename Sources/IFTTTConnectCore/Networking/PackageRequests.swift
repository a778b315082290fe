import Foundation

// Package-visible entry points into the request machinery, for the legacy `IFTTTSDK` and the server-side
// `IFTTTConnectService` products. Kept in their own file so the controller itself stays untouched.

extension ConnectionNetworkController {
    /// Sends a request under the configured `connectBaseURL` with the SDK headers and, when given, the
    /// user token (`Authorization: Bearer`) and invite code, and returns the 2xx response. Non-2xx statuses
    /// become typed errors exactly as for the Connect API calls (401 is `authenticationFailure`), and any
    /// token, code or long query value a server echoes into an error is redacted.
    package func sendUserRequest(
        method: String, path: [String], query: [(String, String)] = [],
        userToken: String?, inviteCode: String?, body: Data? = nil
    ) async throws(ConnectAPIError) -> HTTPResponse {
        var request = APIRequest(method: method, path: path, query: query, body: body)
        request.userToken = userToken.flatMap { $0.isEmpty ? nil : $0 }
        request.inviteCode = inviteCode.flatMap { $0.isEmpty ? nil : $0 }
        return try await send(request)
    }
}

/// The SDK's one percent-encoding: RFC 3986 unreserved characters stay, everything else is encoded, so
/// `+`, `&`, `=`, `/`, spaces and non-ASCII text always survive a round trip through a query string.
package enum PercentEncoding {
    /// Encodes `text` for a path segment or a query name or value.
    package static func encode(_ text: String) -> String {
        APIRequest.percentEncode(text)
    }

    /// `name=value` pairs, each side encoded, joined with `&`, in the given order.
    package static func query(_ items: [(String, String)]) -> String {
        items.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
