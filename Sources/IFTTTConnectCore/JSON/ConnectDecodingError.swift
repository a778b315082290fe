import Foundation

/// Why a payload from the Connect API (or a file you asked the SDK to read) could not be decoded.
///
/// Every decoding failure names the JSON path of the offending value, for example
/// `$.services` for a Connection without a primary service or `$.features[3].title` for a missing title.
public struct ConnectDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    @_spi(Sandbox) public enum Reason: Sendable, Hashable {
        /// The text is not valid JSON; `offset` is the byte where parsing stopped.
        case malformedJSON(offset: Int, detail: String)
        /// The payload is larger than the decoder accepts.
        case payloadTooLarge(bytes: Int, limit: Int)
        /// Arrays and objects are nested deeper than the decoder accepts.
        case nestingTooDeep(limit: Int)
        /// A number does not fit in a finite `Double`.
        case numberOutOfRange
        /// A required key is absent (or `null`).
        case missingKey(String)
        /// A value has the wrong JSON type.
        case typeMismatch(expected: String, found: String)
        /// A value has the right type but is not acceptable (an invalid URL, an unknown envelope type, ...).
        case invalidValue(String)
        /// A Connection has no service with `is_primary: true`.
        case noPrimaryService
    }

    /// The JSON path of the value that failed, such as `$.services[1].service_id`.
    @_spi(Sandbox) public let path: String
    /// What went wrong.
    @_spi(Sandbox) public let reason: Reason

    /// Creates an error for `reason` at `path`.
    @_spi(Sandbox) public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// A one-line description that names the path; it never contains payload values.
    public var description: String {
        switch reason {
        case .malformedJSON(let offset, let detail):
            return "Malformed JSON at byte \(offset): \(detail)"
        case .payloadTooLarge(let bytes, let limit):
            return "Payload of \(bytes) bytes exceeds the limit of \(limit) bytes"
        case .nestingTooDeep(let limit):
            return "JSON nested deeper than \(limit) levels at \(path)"
        case .numberOutOfRange:
            return "Number out of range at \(path)"
        case .missingKey(let key):
            return "Missing required key '\(key)' at \(path)"
        case .typeMismatch(let expected, let found):
            return "Expected \(expected) but found \(found) at \(path)"
        case .invalidValue(let detail):
            return "Invalid value at \(path): \(detail)"
        case .noPrimaryService:
            return "Connection has no primary service (no entry with is_primary = true) at \(path)"
        }
    }
}
