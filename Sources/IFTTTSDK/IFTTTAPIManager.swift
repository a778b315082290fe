import Foundation
@_spi(Sandbox) import IFTTTConnectCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The legacy IFTTT API client: lists your service's Applets, fetches one, turns an activated one on or off
/// and reads the current IFTTT user.
///
/// Configure the shared manager once, then call it from anywhere; it is safe to use from any thread.
///
/// ```swift
/// let manager = IFTTTAPIManager.shared
/// manager.serviceSlug = "ifttt_api_example"
/// manager.userToken = tokenFromYourBackend          // optional: adds each Applet's user status
/// let applets = try await manager.fetchApplets(order: .publishedAtDescending, platform: .ios)
/// ```
///
/// Every call has an `async` form and a completion-handler form. Completions run exactly once, on
/// ``callbackQueue`` (the main queue on Apple platforms by default). Failures are
/// `ConnectAPIError`: a 401 is `authenticationFailure`, any other non-2xx status is
/// `apiError(statusCode:payload:)` (the legacy `NSError` code), an undecodable body is `invalidResponse`,
/// and a call that cannot be built (no service slug, empty Applet id) is `invalidRequest` and sends nothing.
///
/// Requests go to `{baseURL}/v1/...` with the headers `IFTTT-SDK-Version`, `IFTTT-SDK-Platform`,
/// `IFTTT-SDK-Anonymous-Id`, `Authorization: Bearer <userToken>` when a token is set and
/// `IFTTT-Invite-Code` when an invite code is set. The user token never appears in ``description``, in a
/// log line or in an error.
public final class IFTTTAPIManager: Sendable, CustomStringConvertible {
    /// The production host, `api.ifttt.com`.
    @_spi(Sandbox) public static let productionAPIHost = "api.ifttt.com"

    /// The manager most apps use.
    public static let shared = IFTTTAPIManager()

    private struct State: Sendable {
        var scheme = "https"
        var apiHost = IFTTTAPIManager.productionAPIHost
        var serviceSlug: String?
        var inviteCode: String?
        var userToken: String?
        var anonymousId: String
        var transport: any HTTPTransport
        var timeout = 30
        var callbackQueue: DispatchQueue?
        var logHandler: (@Sendable (String) -> Void)?
    }

    private let state: Locked<State>

    /// Creates a manager. Most apps use ``shared`` instead; tests and the sandbox pass a `baseURL` such as
    /// `http://127.0.0.1:8080` and their own transport.
    /// - Parameters:
    ///   - baseURL: the server root (scheme, host and port; a path is ignored). The default is
    ///     `https://api.ifttt.com`.
    ///   - transport: sends the requests.
    ///   - anonymousId: sent as `IFTTT-SDK-Anonymous-Id` and `ifttt_sdk_anonymous_id`; `nil` (the default) sends
    ///     the SDK's per-install id.
    ///   - callbackQueue: runs completion handlers; `nil` runs them on a concurrency thread.
    ///   - logHandler: receives one line per request (method, path, status); never a token or an email.
    @_spi(Sandbox) public init(
        baseURL: URL? = nil,
        transport: any HTTPTransport = URLSessionTransport(),
        anonymousId: String? = nil,
        callbackQueue: DispatchQueue? = ConnectionNetworkController.Configuration.defaultCallbackQueue,
        logHandler: (@Sendable (String) -> Void)? = nil
    ) {
        var initial = State(
            anonymousId: anonymousId ?? AnonymousIdentifierStore.current, transport: transport,
            callbackQueue: callbackQueue, logHandler: logHandler)
        if let baseURL {
            let parts = Self.split(baseURL)
            initial.scheme = parts.scheme
            initial.apiHost = parts.authority
        }
        state = Locked(initial)
    }

    /// A manager for the sandbox (or any server) at `baseURL`, such as `http://127.0.0.1:8080`: the same as
    /// ``shared`` but for the host.
    public static func sandbox(_ baseURL: URL) -> IFTTTAPIManager {
        IFTTTAPIManager(baseURL: baseURL)
    }

    // MARK: Configuration

    /// Your service's slug, such as `ifttt_api_example`. Required before any Applet call.
    public var serviceSlug: String? {
        get { state.withLock { $0.serviceSlug } }
        set { state.withLock { $0.serviceSlug = newValue } }
    }

    /// Your service's invite code, for testing before the service is published; sent as
    /// `IFTTT-Invite-Code` and in the embedded activation URL.
    public var inviteCode: String? {
        get { state.withLock { $0.inviteCode } }
        set { state.withLock { $0.inviteCode = newValue } }
    }

    /// The IFTTT user token your backend obtained for the signed-in user, or `nil` when signed out.
    /// With a token the API returns each Applet's user status and allows ``setStatus(_:forAppletId:)``.
    public var userToken: String? {
        get { state.withLock { $0.userToken } }
        set { state.withLock { $0.userToken = newValue } }
    }

    /// The API host, `api.ifttt.com` by default, optionally with a port (`proxy.example.com:8443`).
    /// Point it at your own backend proxy if you like. Setting it switches the scheme to HTTPS.
    public var apiHost: String {
        get { state.withLock { $0.apiHost } }
        set {
            state.withLock {
                $0.apiHost = newValue
                $0.scheme = "https"
            }
        }
    }

    /// The URL scheme, `https` by default. Use `http` only for a local sandbox.
    @_spi(Sandbox) public var scheme: String {
        get { state.withLock { $0.scheme } }
        set { state.withLock { $0.scheme = newValue } }
    }

    /// The server root built from ``scheme`` and ``apiHost``, or `nil` when they do not make an HTTP(S) URL
    /// (calls then fail with `invalidRequest` and send nothing). Setting a URL takes its scheme, host and
    /// port (a path is ignored); setting `nil` restores `https://api.ifttt.com`.
    @_spi(Sandbox) public var baseURL: URL? {
        get { state.withLock { Self.makeBaseURL(scheme: $0.scheme, apiHost: $0.apiHost) } }
        set {
            let parts = newValue.map(Self.split) ?? (scheme: "https", authority: Self.productionAPIHost)
            state.withLock {
                $0.scheme = parts.scheme
                $0.apiHost = parts.authority
            }
        }
    }

    /// The transport that sends requests.
    @_spi(Sandbox) public var transport: any HTTPTransport {
        get { state.withLock { $0.transport } }
        set { state.withLock { $0.transport = newValue } }
    }

    /// The anonymous id sent with every request and in the embedded activation URL.
    @_spi(Sandbox) public var anonymousId: String {
        get { state.withLock { $0.anonymousId } }
        set { state.withLock { $0.anonymousId = newValue } }
    }

    /// The request timeout in whole seconds (30 by default).
    @_spi(Sandbox) public var timeout: Int {
        get { state.withLock { $0.timeout } }
        set { state.withLock { $0.timeout = newValue } }
    }

    /// The queue that runs completion handlers; `nil` runs them on a concurrency thread.
    public var callbackQueue: DispatchQueue? {
        get { state.withLock { $0.callbackQueue } }
        set { state.withLock { $0.callbackQueue = newValue } }
    }

    /// Receives one line per request: method, path without query, and status or failure.
    @_spi(Sandbox) public var logHandler: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.logHandler } }
        set { state.withLock { $0.logHandler = newValue } }
    }

    /// The base URL and service slug, and whether a user token and invite code are set; never their values.
    public var description: String {
        state.withLock { s in
            "IFTTTAPIManager(baseURL: \(s.scheme)://\(s.apiHost), serviceSlug: \(s.serviceSlug ?? "nil"), "
                + "userToken: \(s.userToken?.isEmpty == false ? "<redacted>" : "nil"), "
                + "inviteCode: \(s.inviteCode?.isEmpty == false ? "<redacted>" : "nil"))"
        }
    }

    // MARK: Applets

    /// Lists your service's Applets (`GET /v1/services/{slug}/applets?order=&platform=`). `order` comes
    /// before `platform`; either is omitted when its value says so. Without a user token every status is
    /// ``IFTTTApplet/Status-swift.enum/unknown``.
    public func fetchApplets(
        order: IFTTTAppletOrder = .default,
        platform: IFTTTPlatform = .ios
    ) async throws(ConnectAPIError) -> [IFTTTApplet] {
        let call = snapshot()
        let slug = try call.slug()
        var query: [(String, String)] = []
        if let order = order.queryValue { query.append(("order", order)) }
        if let platform = platform.queryValue { query.append(("platform", platform)) }
        let response = try await call.send("GET", ["v1", "services", slug, "applets"], query: query)
        do throws(ConnectDecodingError) {
            return try IFTTTApplet.decodeList(from: response.body)
        } catch {
            throw .invalidResponse(statusCode: response.statusCode, error)
        }
    }

    /// Fetches one Applet of your service (`GET /v1/services/{slug}/applets/{id}`).
    public func fetchApplet(id: String) async throws(ConnectAPIError) -> IFTTTApplet {
        let call = snapshot()
        let slug = try call.slug()
        return try await call.applet("GET", ["v1", "services", slug, "applets", id])
    }

    /// Turns an activated Applet on or off for the user
    /// (`POST /v1/services/{slug}/applets/{id}/enable` or `.../disable`) and returns it as it now is.
    ///
    /// This works only for Applets whose status is ``IFTTTApplet/Status-swift.enum/enabled`` or
    /// ``IFTTTApplet/Status-swift.enum/disabled``; a ``IFTTTApplet/Status-swift.enum/neverEnabled`` Applet
    /// must be activated on the web (see ``IFTTTApplet/embeddedURL(callbackURL:email:userId:)``).
    public func setStatus(_ isEnabled: Bool, forAppletId id: String) async throws(ConnectAPIError) -> IFTTTApplet {
        let call = snapshot()
        let slug = try call.slug()
        return try await call.applet("POST", ["v1", "services", slug, "applets", id, isEnabled ? "enable" : "disable"])
    }

    /// Reads the IFTTT user of ``userToken`` (`GET /v1/me`). Without a token it returns `nil` at once and
    /// sends nothing, as the legacy SDK did.
    public func fetchCurrentUser() async throws(ConnectAPIError) -> IFTTTUser? {
        let call = snapshot()
        guard call.hasUserToken else { return nil }
        let response = try await call.send("GET", ["v1", "me"])
        do throws(ConnectDecodingError) {
            return try IFTTTUser.decode(from: response.body)
        } catch {
            throw .invalidResponse(statusCode: response.statusCode, error)
        }
    }

    // MARK: Completion handlers

    /// Completion-handler form of ``fetchApplets(order:platform:)``. Cancel the returned task to cancel
    /// the request; the completion then receives `cancelled`.
    @discardableResult
    public func fetchApplets(
        order: IFTTTAppletOrder = .default, platform: IFTTTPlatform = .ios,
        completion: @escaping @Sendable (Result<[IFTTTApplet], ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        run(
            { () async throws(ConnectAPIError) in try await self.fetchApplets(order: order, platform: platform) },
            completion)
    }

    /// Completion-handler form of ``fetchApplet(id:)``.
    @discardableResult
    public func fetchApplet(
        id: String,
        completion: @escaping @Sendable (Result<IFTTTApplet, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        run({ () async throws(ConnectAPIError) in try await self.fetchApplet(id: id) }, completion)
    }

    /// Completion-handler form of ``setStatus(_:forAppletId:)``.
    @discardableResult
    public func setStatus(
        _ isEnabled: Bool, forAppletId id: String,
        completion: @escaping @Sendable (Result<IFTTTApplet, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        run({ () async throws(ConnectAPIError) in try await self.setStatus(isEnabled, forAppletId: id) }, completion)
    }

    /// Completion-handler form of ``fetchCurrentUser()``. Without a user token the completion still runs,
    /// with `.success(nil)`.
    @discardableResult
    public func fetchCurrentUser(completion: @escaping @Sendable (Result<IFTTTUser?, ConnectAPIError>) -> Void) -> Task<
        Void, Never
    > {
        run({ () async throws(ConnectAPIError) in try await self.fetchCurrentUser() }, completion)
    }

    // MARK: Embedded activation URL

    /// The web activation URL of `applet` with this manager's anonymous id and invite code.
    public func embeddedURL(
        for applet: IFTTTApplet, callbackURL: URL, email: String? = nil,
        userId: String
    ) throws(ConnectAPIError) -> URL {
        let (anonymousId, inviteCode) = state.withLock { ($0.anonymousId, $0.inviteCode) }
        return try applet.embeddedURL(
            callbackURL: callbackURL, email: email, userId: userId,
            anonymousId: anonymousId, inviteCode: inviteCode)
    }

    // MARK: Internals

    private func run<T: Sendable>(
        _ operation: @escaping @Sendable () async throws(ConnectAPIError) -> T,
        _ completion: @escaping @Sendable (Result<T, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let queue = callbackQueue
        return Task {
            let result: Result<T, ConnectAPIError>
            do throws(ConnectAPIError) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            if let queue {
                queue.async { completion(result) }
            } else {
                completion(result)
            }
        }
    }

    /// The configuration of one call, read once so that concurrent changes cannot mix two configurations.
    private struct Call: Sendable {
        let state: State

        var hasUserToken: Bool { state.userToken?.isEmpty == false }

        func slug() throws(ConnectAPIError) -> String {
            guard let slug = state.serviceSlug, !slug.isEmpty else { throw .invalidRequest("serviceSlug is not set") }
            return slug
        }

        func send(_ method: String, _ path: [String], query: [(String, String)] = []) async throws(ConnectAPIError)
            -> HTTPResponse
        {
            guard let base = IFTTTAPIManager.makeBaseURL(scheme: state.scheme, apiHost: state.apiHost) else {
                throw .invalidRequest("apiHost is not a valid host")
            }
            let controller = ConnectionNetworkController(
                configuration: .init(
                    transport: state.transport, connectBaseURL: base, anonymousId: state.anonymousId,
                    timeout: state.timeout, callbackQueue: nil, logHandler: state.logHandler))
            return try await controller.sendUserRequest(
                method: method, path: path, query: query,
                userToken: state.userToken, inviteCode: state.inviteCode)
        }

        func applet(_ method: String, _ path: [String]) async throws(ConnectAPIError) -> IFTTTApplet {
            let response = try await send(method, path)
            do throws(ConnectDecodingError) {
                return try IFTTTApplet.decode(from: response.body)
            } catch {
                throw .invalidResponse(statusCode: response.statusCode, error)
            }
        }
    }

    private func snapshot() -> Call { Call(state: state.withLock { $0 }) }

    static func makeBaseURL(scheme: String, apiHost: String) -> URL? {
        let lowered = scheme.lowercased()
        guard lowered == "https" || lowered == "http", !apiHost.isEmpty,
            apiHost.allSatisfy({ $0.isASCII && !$0.isWhitespace && !"/?#@\\".contains($0) }),
            let url = URL(string: "\(lowered)://\(apiHost)"), url.host?.isEmpty == false
        else { return nil }
        return url
    }

    /// The scheme and `host[:port]` of `url`, dropping any user info, path, query and fragment. A URL
    /// without `scheme://` gives an empty authority, which ``makeBaseURL(scheme:apiHost:)`` refuses.
    static func split(_ url: URL) -> (scheme: String, authority: String) {
        let scheme = url.scheme?.lowercased() ?? ""
        var rest = Substring(url.absoluteString.dropFirst(scheme.count))
        guard !scheme.isEmpty, rest.hasPrefix("://") else { return (scheme, "") }
        rest = rest.dropFirst(3)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return (scheme, String(authority))
    }
}
