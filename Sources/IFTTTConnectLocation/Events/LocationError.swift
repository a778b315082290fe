import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// Everything that can go wrong in the location subsystem: storage, monitoring, routes and uploads.
///
/// Descriptions never contain a user token.
public struct LocationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New kinds may be added; match the ones you handle.
    public enum Code: String, Sendable, Hashable {
        /// The event store could not read or write its files.
        case storage
        /// The event store holds its maximum number of unacknowledged events and refused a new one.
        case storeFull
        /// The event store's directory cannot be written (a read-only file system): what it holds is still read
        /// and uploaded, but no new crossing can be recorded.
        case readOnly
        /// A route (GPX or fixes) could not be read.
        case invalidRoute
        /// The upload request failed below HTTP or the server answered an error other than 401.
        case uploadFailed
        /// The server answered 401: uploading is paused until `LocationUploader/resume()`.
        case authenticationFailure
        /// No user token is available, so nothing was sent.
        case missingCredentials
        /// The work was cancelled (for example by `ConnectButtonController.stopCurrentSynchronization()`).
        case cancelled
    }

    /// The kind of failure.
    public let code: Code
    /// A one-line explanation.
    @_spi(Sandbox) public let message: String
    /// The network error, for ``Code/uploadFailed`` and ``Code/authenticationFailure``.
    public let networkError: ConnectAPIError?

    /// Creates an error.
    @_spi(Sandbox) public init(_ code: Code, _ message: String, networkError: ConnectAPIError? = nil) {
        self.code = code
        self.message = message
        self.networkError = networkError
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// Allows `catch let error as LocationError where error ~= .storeFull` style matching.
    public static func ~= (code: Code, error: LocationError) -> Bool { error.code == code }
}
