import Foundation
import Mustache
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@testable import ConnectCLI
@testable import ConnectSandbox

/// The Mustache templates of the sandbox's pages: they load, they escape by default, and they escape on bytes.
@Suite("Page templates")
struct PageTemplatesTests {
    struct Message {
        var title: String
        var message: String
    }

    @Test func everyShippedTemplateLoadsAndStartsWithThePragma() throws {
        let library = try PageTemplates.library.get()
        let names = try FileManager.default.contentsOfDirectory(atPath: PageTemplates.directory.path)
            .filter { $0.hasSuffix(".mustache") }
        #expect(names.contains("layout.mustache") && names.contains("error.mustache"))
        for file in names {
            #expect(library.getTemplate(named: String(file.dropLast(".mustache".count))) != nil, "\(file)")
            let text = try String(contentsOf: PageTemplates.directory.appendingPathComponent(file), encoding: .utf8)
            #expect(text.hasPrefix(PageTemplates.pragma), "\(file)")
        }
    }

    @Test func valuesAreEscapedByDefault() {
        let html = PageTemplates.render(
            "error", Message(title: HTMLEscapingTests.hostile, message: HTMLEscapingTests.hostile))
        HTMLEscapingTests.expectEscaped(html)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>\(HTMLEscapingTests.hostileEscaped)</title>"))
        #expect(html.contains("<p class=\"error\" role=\"alert\">\(HTMLEscapingTests.hostileEscaped)</p>"))
    }

    /// swift-mustache's own HTML escaping compares `Character`s: `"` followed by a combining mark is one `Character`
    /// and passed unescaped, ending the attribute value (a planted attribute then runs). The templates' escaper
    /// works on bytes.
    @Test func aQuoteFollowedByACombiningMarkIsEscaped() throws {
        let attack = "x\"\u{301} autofocus onfocus=alert(1) data-x=\"\u{301}"
        var library = try PageTemplates.library.get()
        try library.register(PageTemplates.pragma + "<input value=\"{{value}}\">", named: "probe")
        let html = try #require(library.render(["value": attack], withTemplate: "probe"))
        #expect(html == "<input value=\"x&quot;\u{301} autofocus onfocus=alert(1) data-x=&quot;\u{301}\">")
        #expect(html.unicodeScalars.filter { $0 == "\"" }.count == 2)  // the template's own two quotes
        // The library's default escaping lets both quotes through: the input gets an onfocus handler.
        let plain = try #require(
            MustacheLibrary(templates: ["probe": try MustacheTemplate(string: "<input value=\"{{value}}\">")])
                .render(["value": attack], withTemplate: "probe"))
        #expect(plain.unicodeScalars.filter { $0 == "\"" }.count == 4)
    }

    @Test func aTemplateWithoutThePragmaIsRefused() throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<p>{{x}}</p>".utf8).write(to: directory.appendingPathComponent("bare.mustache"))
        #expect(throws: PageTemplateError.self) { try PageTemplates.load(from: directory) }
        try Data((PageTemplates.pragma + "<p>{{x}}</p>").utf8).write(
            to: directory.appendingPathComponent("bare.mustache"))
        #expect(try PageTemplates.load(from: directory).render(["x": "<"], withTemplate: "bare") == "<p>&lt;</p>")
        try Data((PageTemplates.pragma + "{{#x}}").utf8).write(to: directory.appendingPathComponent("bare.mustache"))
        #expect(throws: PageTemplateError.self) { try PageTemplates.load(from: directory) }
    }

    /// Every form page is well-formed XML as well as HTML, and a hostile value (markup characters, a quote with a
    /// combining mark) comes back from the parsed page exactly as it went in: an escape that broke would break the
    /// page or change the value.
    @Test func formPagesParseAndGiveBackWhatTheyWereGiven() throws {
        let hostile = HTMLEscapingTests.hostile + " \"\u{301} onfocus=alert(1) & \u{1F600} \\ end"
        let (service, connection, user) = try HTMLEscapingTests.hostileSeed()
        let parameters = WebActivationParameters(pairs: [("email", hostile)])
        let base = URL(string: "http://127.0.0.1:1/")!
        let signIn = try #require(
            HTMLForm(
                html: WebActivationPages.signIn(connection, parameters: parameters, session: hostile, error: hostile),
                base: base))
        #expect(signIn.title == "Sign in to IFTTT")
        #expect(signIn.fields.first { $0.name == "email" }?.value == hostile)
        #expect(signIn.fields.first { $0.name == "activation_session" }?.value == hostile)
        let create = try #require(
            HTMLForm(
                html: WebActivationPages.createAccount(connection, parameters: parameters, session: hostile),
                base: base))
        #expect(create.fields.first { $0.name == "email" }?.value == hostile)
        let authorize = try #require(
            HTMLForm(
                html: WebActivationPages.authorize(connection, service: service, user: user, session: hostile),
                base: base))
        #expect(authorize.title == "Authorize \(service.name)")
        let configure = try #require(
            HTMLForm(
                html: WebActivationPages.configure(
                    connection, existing: nil, session: hostile, parameters: parameters, errors: [hostile]),
                base: base))
        #expect(configure.title == "Configure \(connection.name)" && configure.hasSaveButton)
        let pushed = PartnerAuthorizationRequests.Pushed(
            serviceId: service.id, redirectURI: "/access/api/x/partner_callback", state: hostile, codeChallenge: "c",
            iftttAccount: hostile, expires: Date())
        let partner = try #require(
            HTMLForm(
                html: PartnerSignInRoutes.signInPage(
                    service, requestURI: hostile, pushed: pushed, action: "/p", login: hostile, error: hostile),
                base: base))
        #expect(partner.fields.first { $0.name == "request_uri" }?.value == hostile)
        #expect(partner.fields.first { $0.name == "login" }?.value == hostile)
        #expect(
            HTMLForm(html: PageTemplates.render("error", ["title": hostile, "message": hostile]), base: base) == nil)
        #expect(
            XMLParser(data: Data(PageTemplates.render("error", ["title": hostile, "message": hostile]).utf8)).parse())
    }
}
