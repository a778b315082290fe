import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

@testable import ConnectSandbox

/// The sandbox's one escaping function, ``htmlEscape(_:)`` (the templates' escaper), and every page and image.
@Suite("HTML escaping")
struct HTMLEscapingTests {
    static let hostile = "<script>alert('x')</script> \"quoted\" & 'single'"
    static let hostileEscaped =
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;quoted&quot; &amp; &#39;single&#39;"

    /// The two functions the sandbox had before, kept here as the oracle for ordinary input.
    static func formerHTMLEscape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    static func formerXMLEscape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Every string of the demo seed, plus some ordinary text with accents, emoji and combining marks.
    static func corpus() throws -> [String] {
        let data = try JSONEncoder().encode(try SeedData.demo())
        var strings: [String] = [
            "", "Grocery Express", "Café – Zürich", "👩🏽‍💻 ok", "e\u{301}", "a;b=c/d?e#f", "100% & more",
            hostile, "&amp;", "\u{0}x",
        ]
        func walk(_ value: Any) {
            switch value {
            case let string as String: strings.append(string)
            case let array as [Any]: array.forEach(walk)
            case let dictionary as [String: Any]:
                for (key, element) in dictionary {
                    strings.append(key)
                    walk(element)
                }
            default: break
            }
        }
        walk(try JSONSerialization.jsonObject(with: data))
        return strings
    }

    @Test func escapesTheFiveMarkupCharacters() {
        #expect(htmlEscape(Self.hostile) == Self.hostileEscaped)
        #expect(htmlEscape("&amp;") == "&amp;amp;")
        #expect(htmlEscape("a\"b'c<d>e&f") == "a&quot;b&#39;c&lt;d&gt;e&amp;f")
        #expect(htmlEscape("👩🏽‍💻<") == "👩🏽‍💻&lt;")
    }

    @Test func matchesTheFormerFunctionsByteForByte() throws {
        let corpus = try Self.corpus()
        #expect(corpus.count > 100)
        for text in corpus {
            #expect(Array(htmlEscape(text).utf8) == Array(Self.formerHTMLEscape(text).utf8), "\(text)")
            if !text.contains("'") {
                #expect(Array(htmlEscape(text).utf8) == Array(Self.formerXMLEscape(text).utf8), "\(text)")
            }
        }
        // Text without the five characters comes back unchanged.
        for text in corpus where !text.contains(where: { "&<>\"'".contains($0) }) {
            #expect(htmlEscape(text) == text)
        }
    }

    static func hostileSeed() throws -> (SeedData.Service, SeedData.Connection, SeedData.User) {
        let demo = try SeedData.demo()
        var service = try #require(demo.services.first { $0.id == "grocery_express" })
        service.name = hostile
        service.brandColor = "#1BAF5D\"/><script>x</script>'"
        var connection = try #require(demo.connections.first { $0.id == "gx-store-visits" })
        connection.name = hostile
        connection.features[0].title = hostile
        var user = try #require(demo.users.first)
        user.login = hostile
        return (service, connection, user)
    }

    /// No raw `<script` and no unescaped quote from the hostile values; their escaped form is there.
    static func expectEscaped(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!output.contains("<script"), sourceLocation: sourceLocation)
        #expect(!output.contains("'x'"), sourceLocation: sourceLocation)
        #expect(!output.contains("\"quoted\""), sourceLocation: sourceLocation)
        #expect(!output.contains("'single'"), sourceLocation: sourceLocation)
        #expect(!output.contains(" & "), sourceLocation: sourceLocation)
        #expect(output.contains("&lt;script&gt;"), sourceLocation: sourceLocation)
    }

    @Test func webActivationPagesEscapeHostileValues() throws {
        let (service, connection, user) = try Self.hostileSeed()
        let parameters = WebActivationParameters(pairs: [("email", Self.hostile)])
        Self.expectEscaped(
            WebActivationPages.signIn(connection, parameters: parameters, session: Self.hostile, error: Self.hostile))
        Self.expectEscaped(
            WebActivationPages.createAccount(
                connection, parameters: parameters, session: Self.hostile, error: Self.hostile))
        Self.expectEscaped(
            WebActivationPages.authorize(
                connection, service: service, user: user, session: Self.hostile, error: Self.hostile))
        let configure = WebActivationPages.configure(
            connection, existing: nil, session: Self.hostile, parameters: parameters, errors: [Self.hostile])
        Self.expectEscaped(configure)
        #expect(configure.contains("<legend>\(Self.hostileEscaped)</legend>"))
        #expect(
            PageTemplates.render("error", ["title": Self.hostile, "message": ""]).contains(
                "<title>\(Self.hostileEscaped)</title>"))
    }

    @Test func svgAssetsEscapeHostileValues() throws {
        let (service, _, _) = try Self.hostileSeed()
        for svg in [
            AssetRoutes.icon(service, colored: false), AssetRoutes.icon(service, colored: true),
            AssetRoutes.cover(service, width: 720),
        ] {
            #expect(!svg.contains("<script"))
            #expect(!svg.contains("'"))
            #expect(svg.contains("&lt;script&gt;"))
        }
        #expect(AssetRoutes.icon(service, colored: false).contains("<title>\(Self.hostileEscaped)</title>"))
        #expect(
            AssetRoutes.icon(service, colored: true).contains(
                "fill=\"#1BAF5D&quot;/&gt;&lt;script&gt;x&lt;/script&gt;&#39;\""))
    }

    @Test func svgAssetsAreUnchangedForOrdinaryInput() throws {
        let service = try #require(try SeedData.demo().services.first { $0.id == "grocery_express" })
        #expect(
            AssetRoutes.icon(service, colored: true)
                == """
                <svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">\
                <title>Grocery Express</title><rect width="128" height="128" rx="28" fill="#1BAF5D"/>\
                <text x="64" y="64" dy="0.35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" \
                font-size="56" font-weight="700" fill="#FFFFFF">GE</text></svg>

                """)
    }

    @Test func playgroundPagesEscapeHostileValues() throws {
        var object: [String: Any] = [
            "type": "connection", "id": "c1", "description": "d", "url": "https://ifttt.com/c1",
            "services": [
                [
                    "service_id": "s", "service_name": "S", "service_short_name": "s",
                    "monochrome_icon_url": "https://x/i.png", "brand_color": "#112233", "url": "https://x",
                    "is_primary": true,
                ] as [String: Any]
            ],
        ]
        object["name"] = Self.hostile
        let connection = try Connection.decode(from: try JSONSerialization.data(withJSONObject: object))
        #expect(connection.name == Self.hostile)
        let gallery = PlaygroundPage.gallery(connections: [connection], locale: "en")
        Self.expectEscaped(gallery)
        #expect(gallery.contains("<h2>\(Self.hostileEscaped) "))
    }

    @Test func partnerSignInPageEscapesHostileValues() throws {
        let (service, _, _) = try Self.hostileSeed()
        let pushed = PartnerAuthorizationRequests.Pushed(
            serviceId: service.id, redirectURI: "/access/api/gx-store-visits/partner_callback", state: Self.hostile,
            codeChallenge: "c", iftttAccount: Self.hostile, expires: Date())
        let page = PartnerSignInRoutes.signInPage(
            service, requestURI: Self.hostile, pushed: pushed, action: "/x\"><script>", login: Self.hostile,
            error: Self.hostile)
        Self.expectEscaped(page)
        #expect(page.contains("<strong id=\"ifttt-account\">\(Self.hostileEscaped)</strong>"))
    }
}
