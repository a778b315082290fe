import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ConnectionNetworkController {
    /// Where and how the controller sends requests.
    public struct Configuration: Sendable {
        /// The production Connect API, `https://connect.ifttt.com/v2`.
        @_spi(Sandbox) public static let productionConnectURL = URL(string: "https://connect.ifttt.com/v2")!
        /// The production location API, `https://connectapi.ifttt.com/v1`.
        @_spi(Sandbox) public static let productionLocationURL = URL(string: "https://connectapi.ifttt.com/v1")!

        /// The transport that sends requests.
        @_spi(Sandbox) public var transport: any HTTPTransport
        /// The Connect API base URL, ending in `/v2`.
        @_spi(Sandbox) public var connectBaseURL: URL
        /// The location API base URL, ending in `/v1`.
        @_spi(Sandbox) public var locationBaseURL: URL
        /// The per-install anonymous id sent as `IFTTT-SDK-Anonymous-Id`.
        @_spi(Sandbox) public var anonymousId: String
        /// The request timeout in whole seconds.
        @_spi(Sandbox) public var timeout: Int
        /// The queue that runs completion handlers; `nil` runs them on a concurrency thread.
        /// The default is the main queue on Apple platforms and `nil` elsewhere.
        @_spi(Sandbox) public var callbackQueue: DispatchQueue?
        /// Receives one line per request (method, path without query, status). Never a token or an email.
        @_spi(Sandbox) public var logHandler: (@Sendable (String) -> Void)?

        /// Creates a configuration; every parameter has a production default.
        @_spi(Sandbox) public init(
            transport: any HTTPTransport = URLSessionTransport(),
            connectBaseURL: URL = Configuration.productionConnectURL,
            locationBaseURL: URL = Configuration.productionLocationURL,
            anonymousId: String = AnonymousIdentifierStore.current,
            timeout: Int = 30,
            callbackQueue: DispatchQueue? = Configuration.defaultCallbackQueue,
            logHandler: (@Sendable (String) -> Void)? = nil
        ) {
            self.transport = transport
            self.connectBaseURL = connectBaseURL
            self.locationBaseURL = locationBaseURL
            self.anonymousId = anonymousId
            self.timeout = timeout
            self.callbackQueue = callbackQueue
            self.logHandler = logHandler
        }

        /// Creates the production configuration: IFTTT's Connect API over `URLSession`, with a 30-second timeout.
        public init() {
            self.init(transport: URLSessionTransport())
        }

        /// The main queue on Apple platforms, `nil` elsewhere.
        @_spi(Sandbox) public static var defaultCallbackQueue: DispatchQueue? {
            #if canImport(Darwin)
            return .main
            #else
            return nil
            #endif
        }

        /// A configuration for a sandbox or other Connect API at `baseURL` (the server root, without `/v2`).
        ///
        /// - Parameter baseURL: The server's root URL, such as `http://127.0.0.1:8080`.
        /// - Returns: The configuration.
        public static func sandbox(_ baseURL: URL) -> Configuration {
            sandbox(baseURL, transport: URLSessionTransport())
        }

        /// A configuration for a sandbox or other Connect API at `baseURL`, sending through `transport`.
        @_spi(Sandbox) public static func sandbox(_ baseURL: URL, transport: any HTTPTransport) -> Configuration {
            Configuration(
                transport: transport,
                connectBaseURL: baseURL.appendingPathComponent("v2"),
                locationBaseURL: baseURL.appendingPathComponent("v1"))
        }
    }
}
