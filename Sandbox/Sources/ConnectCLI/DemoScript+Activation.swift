import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif

extension DemoScript {
    /// Step 5: the SDK's controller runs the web activation headlessly; an opener plays the browser, filling and
    /// posting the sandbox's forms with URLSession, and the redirect reaches the SDK's loopback receiver. Each
    /// activation is vouched for by the sandbox's Grocery Express backend, asked with the partner session of the
    /// user it acts for, as `ifttt-connect connect` does: the token kept is the one that backend answers.
    func activationSteps(_ steps: DemoSteps) async {
        steps.section("5. Web activation (the SDK's controller, the sandbox's pages, a loopback redirect)")
        await steps.check("alice activates gx-store-visits in the web flow") {
            let driver = FormDrivingOpener(password: "alice-password")
            let request = ConnectCommand.Request(
                connectionId: "gx-store-visits", email: "alice@example.com", oauthCode: "gx-oauth-code-alice",
                voucher: .partnerSession("gx-access-token-alice", endpoint: nil), skipConfiguration: false,
                opensBrowser: false)
            let result = await ConnectCommand.activate(request, root: root, opener: driver)
            let activation = try result.get()
            let pages = await driver.pages
            let token = try activation.userToken ?? { throw DemoFailure("no user token in the redirect") }()
            let user = try await controller.fetchUser(credentialProvider: ConnectionCredentials(userToken: token))
            try expect(user.login == "alice", "the token should be alice's")
            return
                "pages \(pages.joined(separator: " → ")); \(activation.connection.status), token for \(user.login ?? "-") (not printed), "
                + "vouched for by \(request.voucher.summary(root: root)) with alice's partner session"
        }
        await steps.check("an address at fail.example cannot get an account") {
            let driver = FormDrivingOpener(password: "any-password")
            let request = ConnectCommand.Request(
                connectionId: "gx-arrive-store", email: "someone@fail.example", oauthCode: "gx-oauth-code-dave",
                voucher: .partnerSession("gx-access-token-dave", endpoint: nil), skipConfiguration: false,
                opensBrowser: false)
            let result = await ConnectCommand.activate(request, root: root, opener: driver)
            guard case .failure(.activation(.iftttAccountCreationFailed)) = result else {
                throw DemoFailure("expected iftttAccountCreationFailed, got \(result)")
            }
            return
                "reported iftttAccountCreationFailed (voucher: \(request.voucher.summary(root: root)) with dave's "
                + "partner session)"
        }
    }
}

/// Plays the browser without one: GETs the launch URL (which redirects to the activation URL) and submits each
/// page's form (the password on the sign-in and account pages, Save on the configuration page) until the sandbox
/// redirects to the app. Like a browser it keeps the sandbox's cookie (which binds the flow to it), in memory only.
@MainActor
final class FormDrivingOpener: URLOpener {
    let password: String
    /// The driver's own browser: an ephemeral session keeps cookies for this driver, never on disk.
    private let session = URLSession(configuration: .ephemeral)
    /// The titles of the pages seen, in order.
    private(set) var pages: [String] = []

    nonisolated init(password: String) {
        self.password = password
    }

    func canOpen(_ url: URL) -> Bool { false }

    func open(_ url: URL) async -> Bool {
        let password = self.password
        Task { @MainActor in
            do {
                try await self.drive(url, password: password)
            } catch {
                warn("  the form driver stopped: \(error)")
            }
        }
        return true
    }

    private func drive(_ start: URL, password: String) async throws {
        var (html, page) = try await Self.fetch(URLRequest(url: start), in: session)
        for _ in 0..<6 {
            // The loopback receiver's page has no form: the flow left the sandbox.
            guard let form = HTMLForm(html: html, base: page) else { return }
            pages.append(form.title)
            var fields = form.fields.map { $0.name == "password" ? ($0.name, password) : ($0.name, $0.value) }
            if form.hasSaveButton { fields.append(("action", "save")) }
            var request = URLRequest(url: form.action)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(
                fields.map { HTMLForm.encode($0.0) + "=" + HTMLForm.encode($0.1) }.joined(separator: "&").utf8)
            (html, page) = try await Self.fetch(request, in: session)
        }
    }

    /// Fetches a page, following redirects (the last one goes to the app's loopback receiver); returns the final page's
    /// HTML and URL.
    private static func fetch(_ request: URLRequest, in session: URLSession) async throws -> (String, URL) {
        var request = request
        request.timeoutInterval = 10
        let (data, response) = try await session.data(for: request)
        let final = response.url ?? request.url!
        return (String(decoding: data, as: UTF8.self), final)
    }
}

/// The one form of a sandbox activation page: its action, its inputs' names and values, its title.
///
/// The sandbox's pages are well-formed XML as well as HTML (void elements closed, attributes with values), so they
/// are read with `XMLParser`, which also turns their character references back into text: nothing here unescapes
/// by hand, and a page whose escaping broke its markup has no form.
struct HTMLForm {
    let title: String
    let action: URL
    let fields: [(name: String, value: String)]
    let hasSaveButton: Bool

    /// Parses the first `<form>` of `html`; `nil` when there is none or the page is not well-formed.
    init?(html: String, base: URL) {
        let reader = Reader()
        let parser = XMLParser(data: Data(html.utf8))
        parser.delegate = reader
        guard parser.parse(), let actionText = reader.action,
            let action = URL(string: actionText, relativeTo: base)?.absoluteURL
        else { return nil }
        self.action = action
        title = reader.title
        fields = reader.fields
        hasSaveButton = reader.hasSaveButton
    }

    static func encode(_ s: String) -> String {
        s.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? s
    }

    /// Collects the title and the first form's inputs (unchecked checkboxes are not submitted, as in a browser).
    private final class Reader: NSObject, XMLParserDelegate {
        var title = ""
        var action: String?
        var fields: [(name: String, value: String)] = []
        var hasSaveButton = false
        private var inTitle = false
        private var formDepth = 0
        private var formsSeen = 0

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            switch element {
            case "title": inTitle = true
            case "form":
                formsSeen += 1
                if formsSeen == 1 {
                    action = attributes["action"]
                    formDepth = 1
                }
            case "input" where formDepth > 0:
                guard let name = attributes["name"] else { return }
                if attributes["type"] == "checkbox" && attributes["checked"] == nil { return }
                fields.append((name, attributes["value"] ?? ""))
            case "button" where formDepth > 0:
                if attributes["value"] == "save" { hasSaveButton = true }
            default: break
            }
        }

        func parser(
            _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
        ) {
            if element == "title" { inTitle = false }
            if element == "form", formDepth > 0 { formDepth = 0 }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inTitle { title += string }
        }
    }
}
