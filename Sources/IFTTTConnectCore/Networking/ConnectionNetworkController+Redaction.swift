import Foundation

/// Keeping secrets out of errors: the tokens, invite codes and service keys a request carries are replaced by
/// `<redacted>` wherever a server echoes them into an error payload.
extension ConnectionNetworkController {
    /// The secrets a caller-built request carries in its headers, for redaction.
    static func secrets(of request: HTTPRequest) -> [String] {
        request.headers.compactMap { name, value -> String? in
            switch name.lowercased() {
            case "authorization":
                return value.hasPrefix("Bearer ") ? String(value.dropFirst(7)) : value
            case "ifttt-invite-code", "ifttt-service-key":
                return value
            default:
                return nil
            }
        }.filter { $0.count >= 4 }
    }

    /// Removes any secret of the request that a server echoed into an error message.
    func redacted(_ payload: APIErrorPayload?, _ secrets: [String]) -> APIErrorPayload? {
        guard let payload else { return nil }
        guard !secrets.isEmpty else { return payload }
        func clean(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
        }
        return APIErrorPayload(
            code: clean(payload.code), message: clean(payload.message),
            details: payload.details.map { .init(parameter: $0.parameter.map(clean), message: clean($0.message)) })
    }
}
