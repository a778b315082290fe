import ArgumentParser
@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `ifttt-connect button render` and the `/playground` pages, including a headless Chromium screenshot.
@Suite("Button render CLI and playground")
struct PlaygroundAndButtonCLITests {
    static var fixture: URL { SandboxTest.repository("Tests/Fixtures/ios_fetch_connection_response.json") }

    /// Whether `svg` is well-formed XML with an `<svg>` root.
    static func isSVG(_ svg: String) -> Bool {
        final class Root: NSObject, XMLParserDelegate {
            var name: String?
            func parser(
                _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
            ) {
                if name == nil { name = elementName }
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let root = Root()
        parser.delegate = root
        return parser.parse() && root.name == "svg"
    }

    @Test(arguments: ConnectButtonVisualState.allExamples.map(\.name))
    func renderWritesValidSVGForEveryState(state: String) async throws {
        for style in ["light", "dark"] {
            let command = try IFTTTConnectCommand.parseAsRoot(
                [
                    "button", "render", "--file", Self.fixture.path, "--state", state, "--style", style, "--locale",
                    "de", "--width", "300",
                ])
            let render = try #require(command as? ButtonCommand.Render)
            let svg = render.svg(for: try await render.loadConnection())
            #expect(Self.isSVG(svg), "\(state) \(style)")
        }
    }

    @Test func renderFetchesAConnectionFromTheAPI() async throws {
        try await withSandbox { url, _ in
            let command = try IFTTTConnectCommand.parseAsRoot(
                [
                    "button", "render", "--connection", "gx-weekly-deals", "--state", "connected", "--api",
                    url.absoluteString,
                ])
            let render = try #require(command as? ButtonCommand.Render)
            #expect(Self.isSVG(render.svg(for: try await render.loadConnection())))
        }
    }

    @Test(arguments: [
        ["button", "render", "--state", "connect"],
        ["button", "render", "--file", "f.json", "--connection", "c", "--state", "connect"],
        ["button", "render", "--file", "f.json"],
        ["button", "render", "--file", "f.json", "--state", "exploded"],
        ["button", "render", "--file", "f.json", "--state", "connect", "--style", "purple"],
        ["button", "render", "--file", "f.json", "--state", "connect", "--width", "-5"],
        ["button", "render", "--file", "f.json", "--state", "connect", "--width", "wide"],
        ["button", "render", "--file", "f.json", "--state", "connect", "--bogus"],
        ["button", "paint"],
    ])
    func badFlagsAreUsageErrors(arguments: [String]) {
        do {
            let command = try IFTTTConnectCommand.parseAsRoot(arguments)
            Issue.record("parsed \(arguments) as \(type(of: command))")
        } catch {
            #expect(IFTTTConnectCommand.exitCode(for: error).rawValue == 64, "\(arguments)")
        }
    }

    @Test func playgroundListsEveryConnectionStateAndStyle() async throws {
        try await SandboxTest.withDemo { client in
            let page = try await client.get("playground", query: ["locale": "fr"])
            #expect(page.status == 200)
            #expect(page.contentType?.hasPrefix("text/html") == true)
            let html = String(decoding: page.data, as: UTF8.self)
            let seed = try SeedData.demo()
            for connection in seed.connections { #expect(html.contains("id=\"\(connection.id)\""), "\(connection.id)") }
            let buttons = html.components(separatedBy: "<svg").count - 1
            #expect(buttons == seed.connections.count * ConnectButtonVisualState.allExamples.count * 2)
            #expect(html.contains("/playground/live?connection=gx-weekly-deals"))
        }
    }

    @Test func liveControllerRunsInTheSandboxUpToTheActivationPage() async throws {
        try await SandboxTest.withDemo { client in
            let first = String(
                decoding: try await client.get("playground/live", query: ["connection": "gx-weekly-deals"]).data,
                as: UTF8.self)
            #expect(first.contains("id=\"live-button\""))
            var html = first
            // The page refreshes itself (meta refresh, 1 s) while the controller works through its timed
            // steps; reload it like a browser would, at most for 10 s.
            for _ in 0..<40 where !html.contains("<code id=\"step\">initial</code>") {
                try await Task.sleep(for: .milliseconds(250))
                html = String(
                    decoding: try await client.get("playground/live", query: ["connection": "gx-weekly-deals"]).data,
                    as: UTF8.self)
            }
            #expect(html.contains("<code id=\"step\">initial</code>"))
            let tap = try await client.request(
                "POST", "playground/live/tap", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("connection=gx-weekly-deals".utf8))
            #expect(tap.status == 200)  // URLSession follows the 303 to the live page
            html = String(decoding: tap.data, as: UTF8.self)
            #expect(html.contains("action=\"/playground/live/email\""))
            let email = try await client.request(
                "POST", "playground/live/email", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("connection=gx-weekly-deals&email=alice%40example.com".utf8))
            html = String(decoding: email.data, as: UTF8.self)
            for _ in 0..<40 where !html.contains("id=\"activation\"") {
                try await Task.sleep(for: .milliseconds(250))
                html = String(
                    decoding: try await client.get("playground/live", query: ["connection": "gx-weekly-deals"]).data,
                    as: UTF8.self)
            }
            #expect(html.contains("id=\"activation\""), "the live page links to the activation URL")
            #expect(html.contains("/access/api/gx-weekly-deals"))
            let missing = try await client.get("playground/live", query: ["connection": "nope"])
            #expect(missing.status == 404)
        }
    }

    @Test func headlessChromiumShowsTheButtons() async throws {
        guard
            let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(
                where: FileManager.default.isExecutableFile(atPath:)),
            FileManager.default.isExecutableFile(atPath: "/usr/local/bin/convert")
                || FileManager.default.isExecutableFile(atPath: "/usr/bin/convert")
        else {
            Issue.record("chromium and ImageMagick's convert are needed for this test")
            return
        }
        let convert =
            FileManager.default.isExecutableFile(atPath: "/usr/local/bin/convert")
            ? "/usr/local/bin/convert" : "/usr/bin/convert"
        try await withSandbox { url, _ in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "playground-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let png = directory.appendingPathComponent("shot.png")
            try await Self.run(
                chromium,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
                    "--screenshot=\(png.path)", "--window-size=900,700",
                    url.appendingPathComponent("playground").absoluteString,
                ])
            let data = try Data(contentsOf: png)
            // PNG signature, then the IHDR chunk: width and height, big-endian, at bytes 16..<24.
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 900 && height == 700)
            let pixels = try await Self.grayPixels(ppm: Self.run(convert, [png.path, "ppm:-"]))
            let mean = pixels.reduce(0.0) { $0 + Double($1) } / Double(pixels.count)
            let variance = pixels.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(pixels.count)
            let dark = Double(pixels.filter { $0 < 60 }.count) / Double(pixels.count)
            #expect(variance > 500, "the screenshot is not blank (variance \(variance))")
            #expect(dark > 0.02, "dark button pills cover part of the page (\(dark))")
        }
    }

    /// Runs `tool` and returns its standard output.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) async throws -> Data {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let status = try await offCooperativePool { () throws -> Int32 in
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0, "\(tool) exited with \(status)")
        return try Data(contentsOf: output)
    }

    /// The gray levels of a binary PPM (P6, maxval 255).
    static func grayPixels(ppm: Data) throws -> [UInt8] {
        var fields: [String] = []
        var index = ppm.startIndex
        var current = ""
        while fields.count < 4, index < ppm.endIndex {
            let byte = ppm[index]
            index += 1
            if byte == UInt8(ascii: "#") {
                while index < ppm.endIndex, ppm[index] != 0x0A { index += 1 }
            } else if [0x20, 0x0A, 0x0D, 0x09].contains(byte) {
                if !current.isEmpty {
                    fields.append(current)
                    current = ""
                }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        try #require(fields.first == "P6" && fields.last == "255")
        let body = ppm[index...]
        var gray: [UInt8] = []
        gray.reserveCapacity(body.count / 3)
        var iterator = body.makeIterator()
        while let r = iterator.next(), let g = iterator.next(), let b = iterator.next() {
            let red = Int(r) * 299
            let green = Int(g) * 587
            let blue = Int(b) * 114
            gray.append(UInt8((red + green + blue) / 1000))
        }
        return gray
    }
}
