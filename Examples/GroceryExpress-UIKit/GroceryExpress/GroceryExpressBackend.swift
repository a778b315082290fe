import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IFTTTConnectSDK

/// Grocery Express's own backend, as the app talks to it: three routes under ``root``. The sandbox plays it at
/// `<sandbox>/partner/grocery_express/api`; in production it is yours.
///
/// - `POST session` with `{"login": ..., "password": ...}` signs the user in and answers
///   `{"session": "...", "user_id": "...", "login": "...", "oauth_code": "..."}` (401 for a wrong username or password, 429 after too
///   many): ``signIn(login:password:)``.
/// - `DELETE session` with `Authorization: Bearer <session>` signs out: the session no longer works anywhere
///   (``signOut(session:)``).
/// - `POST user_token` with `Authorization: Bearer <session>` answers the user's IFTTT user token, which the
///   Connect Button takes as the voucher of an activation: ``partnerBackend(session:)``, the SDK's ready-made
///   `PartnerBackend` for it.
struct GroceryExpressBackend: Sendable {
    /// What signing in gives the app.
    struct Account: Sendable, Equatable {
        /// The session the app sends to the backend's other routes.
        var session: String
        /// The user's login, as the backend spells it.
        var login: String
        /// The OAuth code the backend issues IFTTT for this user (the credential provider's `oauthCode`), if any.
        var oauthCode: String?
    }

    /// Why signing in failed, in the words the sign-in screen shows.
    enum SignInError: Error, Equatable, CustomStringConvertible {
        /// 401: the username or the password is not correct.
        case wrongPassword
        /// 429: too many wrong passwords.
        case throttled
        /// No answer (is the sandbox running?).
        case unreachable(String)
        /// Any other answer.
        case unexpectedAnswer(Int)

        var description: String {
            switch self {
            case .wrongPassword: "The username or password is not correct."
            case .throttled: "Too many wrong passwords. Wait a few minutes, then try again."
            case .unreachable(let host): "Grocery Express (\(host)) does not answer. Is the sandbox running?"
            case .unexpectedAnswer(let status): "Grocery Express answered \(status). Try again later."
            }
        }
    }

    /// The backend's API, e.g. `http://127.0.0.1:8080/partner/grocery_express/api`. HTTPS in production: App
    /// Transport Security refuses plain HTTP to any named host; the example's Info.plist allows it only to local
    /// addresses (`NSAllowsLocalNetworking`), for the sandbox and its test accounts.
    let root: URL
    /// How requests travel: an ephemeral session that never follows a redirect, so the password and the session
    /// never reach another origin.
    var urlSession: URLSession = GroceryExpressBackend.redirectRefusingSession

    /// Signs in with the user's Grocery Express username and password.
    ///
    /// - Returns: The session and the login.
    /// - Throws: A ``SignInError``.
    func signIn(login: String, password: String) async throws -> Account {
        var request = URLRequest(url: root.appendingPathComponent("session"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try JSONEncoder().encode(["login": login, "password": password])
        let body: Data
        let statusCode: Int
        do {
            let (data, response) = try await urlSession.data(for: request)
            body = data
            statusCode = (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            throw SignInError.unreachable(root.host ?? root.absoluteString)
        }
        switch statusCode {
        case 200:
            guard let answer = try? JSONDecoder().decode(Answer.self, from: body), !answer.session.isEmpty
            else { throw SignInError.unexpectedAnswer(statusCode) }
            return Account(session: answer.session, login: answer.login, oauthCode: answer.oauthCode)
        case 401: throw SignInError.wrongPassword
        case 429: throw SignInError.throttled
        default: throw SignInError.unexpectedAnswer(statusCode)
        }
    }

    /// Signs out: ends `session` at the backend, so a copy of it left anywhere stops working. Best effort: the app
    /// forgets the session whatever the answer (offline, or already ended).
    func signOut(session: String) async {
        var request = URLRequest(url: root.appendingPathComponent("session"))
        request.httpMethod = "DELETE"
        request.setValue("Bearer " + session, forHTTPHeaderField: "Authorization")
        _ = try? await urlSession.data(for: request)
    }

    /// The session `urlSession` starts as: ephemeral, refusing redirects.
    static let redirectRefusingSession = URLSession(
        configuration: .ephemeral, delegate: RedirectRefuser(), delegateQueue: nil)

    /// Answers every redirect with "do not follow": the response comes back as it is.
    private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    /// The answer of `POST session`.
    private struct Answer: Decodable {
        let session: String
        let login: String
        let oauthCode: String?

        enum CodingKeys: String, CodingKey {
            case session, login
            case oauthCode = "oauth_code"
        }
    }

    /// The backend as the Connect Button's voucher for the user signed in with `session`: `POST user_token` with
    /// the session. `nil` when the SDK refuses to send the session there (plain HTTP to another machine, such as a
    /// sandbox on your network): the activation then finishes through the app's own web session instead.
    func partnerBackend(session: String) -> PartnerBackend? {
        try? PartnerBackend.userTokenEndpoint(root.appendingPathComponent("user_token"), session: session)
    }
}
