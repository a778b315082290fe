import Foundation

// The location upload (`POST {location base}/location_events`, spec §4.6) on the SDK's one wire: the same
// transport, status mapping, error-envelope reader, redaction and log line as every Connect API call. The
// `IFTTTConnectLocation` module's uploader keeps only batching and refusal handling.

/// How the location API answered one upload.
package struct LocationUploadAnswer: Sendable, Hashable {
    /// `nil` when the API accepted the batch (2xx); otherwise the typed error: a transport failure, a timeout, a
    /// cancellation, a 401, or ``ConnectAPIError/apiError(statusCode:payload:)`` with IFTTT's error envelope
    /// (its code, message and details), secrets redacted.
    package let error: ConnectAPIError?
    /// The server's `Retry-After` in seconds, when it sent one with an error status.
    package let retryAfter: TimeInterval?

    package init(error: ConnectAPIError?, retryAfter: TimeInterval? = nil) {
        self.error = error
        self.retryAfter = retryAfter
    }
}

extension ConnectionNetworkController {
    /// Sends one batch of location events, already encoded as a JSON array, with the user token.
    ///
    /// As 2.8 did, the request carries only `Authorization: Bearer <token>` and `Content-Type: application/json`
    /// (spec §1.3), to `locationBaseURL` + `/location_events`. The log line names the path and the status, never
    /// the token.
    package func postLocationEvents(_ body: Data, userToken: String) async -> LocationUploadAnswer {
        let url = configuration.locationBaseURL.appendingPathComponent("location_events")
        let request = HTTPRequest(
            method: "POST", url: url,
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(userToken)"],
            body: body, timeout: configuration.timeout)
        let secrets = Self.secrets(of: request)
        do throws(ConnectAPIError) {
            // Every status comes back here so that `Retry-After` can be read; the mapping is `statusError`'s.
            let response = try await send(
                request, loggablePath: url.path, method: "POST", acceptedStatuses: Self.everyStatus, secrets: secrets)
            guard let error = statusError(for: response, secrets: secrets) else {
                return LocationUploadAnswer(error: nil)
            }
            let retryAfter = response.headers["retry-after"].flatMap {
                TimeInterval($0.trimmingCharacters(in: .whitespaces))
            }
            return LocationUploadAnswer(error: error, retryAfter: retryAfter.flatMap { $0 >= 0 ? $0 : nil })
        } catch {
            return LocationUploadAnswer(error: error)
        }
    }

    private static let everyStatus = Set(0...999)
}
