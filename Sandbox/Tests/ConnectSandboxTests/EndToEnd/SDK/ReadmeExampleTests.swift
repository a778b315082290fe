import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Testing

/// The README's Swift, read from README.md itself: every snippet an app would paste (a ```swift block with an
/// `import`) compiles against the SDK as built for these tests, and the Connection, user, partner session and
/// redirect URL its sandbox snippet names complete a real activation against a sandbox over loopback.
///
/// The UIKit and SwiftUI snippets compile here inside `#if canImport(UIKit)` (nothing on Linux); the Apple stub
/// check (scripts/check-apple.sh) and the check against Apple's iOS SDK (scripts/check-ios-sdk.sh) compile them
/// whole, extracted by scripts/lib/readme-swift.sh.
@Suite("README example", .timeLimit(.minutes(3)))
struct ReadmeExampleTests {
    /// The README's ```swift blocks that have an `import` line (the others are fragments, such as the manifest's).
    static func snippets() throws -> [String] {
        let readme = try String(contentsOf: SandboxTest.repository("README.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        return blocks.filter { $0.split(separator: "\n").contains { $0.hasPrefix("import ") } }
    }

    static func importsAppleUI(_ snippet: String) -> Bool {
        snippet.contains("import UIKit") || snippet.contains("import SwiftUI")
    }

    @Test func theReadmeHasTheSandboxSetupAndBothButtonsEachWithinFifteenLines() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count == 3, "the sandbox setup, the SwiftUI button and the UIKit button")
        #expect(snippets.filter { $0.contains("ConnectFlowButton(") }.count == 1)
        #expect(snippets.filter { $0.contains("ConnectButton()") }.count == 1)
        for snippet in snippets where Self.importsAppleUI(snippet) {
            let code = snippet.split(separator: "\n").filter {
                !$0.hasPrefix("import ") && !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
            #expect(code.count <= 15, "\(code.count) lines: \(snippet.prefix(80))")
        }
    }

    /// swiftc type-checks the snippets together, as one app module, against the modules this test was built with.
    @Test func theReadmeSnippetsCompile() throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, snippet) in try Self.snippets().enumerated() {
            let file = directory.appendingPathComponent("ReadmeSnippet\(index + 1).swift")
            let source = Self.importsAppleUI(snippet) ? "#if canImport(UIKit)\n\(snippet)\n#endif\n" : snippet + "\n"
            try source.write(to: file, atomically: true, encoding: .utf8)
            files.append(file.path)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var binDirectory = executable.deletingLastPathComponent()
        while binDirectory.path != "/",
            binDirectory.pathExtension == "xctest"
                || binDirectory.lastPathComponent
                    == "Contents"
                || binDirectory.lastPathComponent == "MacOS"
        {
            binDirectory.deleteLastPathComponent()
        }
        let modules = binDirectory.appendingPathComponent("Modules")
        let searchPath =
            FileManager.default.fileExists(atPath: modules.appendingPathComponent("IFTTTConnectSDK.swiftmodule").path)
            ? modules : binDirectory
        #expect(
            FileManager.default.fileExists(
                atPath: searchPath.appendingPathComponent("IFTTTConnectSDK.swiftmodule").path),
            "no IFTTTConnectSDK.swiftmodule in \(searchPath.path)")

        let output = directory.appendingPathComponent("swiftc.log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let log = try FileHandle(forWritingTo: output)
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6", "-warnings-as-errors",
                "-module-name", "ReadmeApp", "-I", searchPath.path,
            ] + files
        process.standardOutput = log
        process.standardError = log
        try process.run()
        process.waitUntilExit()
        try log.close()
        let diagnostics = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "the README's snippets do not compile:\n\(diagnostics)")
    }

    /// The values of the README's `Sandbox` snippet, read from it.
    struct SandboxValues {
        var url: URL
        var connectionId: String
        var email: String
        var oauthCode: String
        var session: String
        var backendPath: String
        var redirectURL: URL

        init(_ snippet: String) throws {
            func literal(after label: String) throws -> String {
                let start = try #require(snippet.range(of: label + "\""), "no \(label) in the README's snippet")
                let rest = snippet[start.upperBound...]
                let end = try #require(rest.firstIndex(of: "\""))
                return String(rest[..<end])
            }
            url = try #require(URL(string: try literal(after: "static let url = URL(string: ")))
            connectionId = try literal(after: "connectionId: ")
            email = try literal(after: "suggestedUserEmail: ")
            oauthCode = try literal(after: "oauthCode: ")
            session = try literal(after: "session: ")
            backendPath = try literal(after: "url.appendingPathComponent(")
            redirectURL = try #require(URL(string: try literal(after: "redirectURL: URL(string: ")))
        }
    }

    /// The README's button, run as the simulator runs it but headless: alice taps, confirms her email, signs in on
    /// the sandbox's pages; the activation ends with the token the README's partner backend vouches for.
    @Test @MainActor func theReadmeButtonActivatesAgainstTheSandbox() async throws {
        let snippet = try #require(try Self.snippets().first { $0.contains("enum Sandbox") })
        let values = try SandboxValues(snippet)
        #expect(values.url.absoluteString == "http://127.0.0.1:8080", "the default sandbox the README starts")
        try await withSandbox { url, network in
            try await Self.activate(values, sandbox: url, network: network)
        }
    }

    @MainActor
    static func activate(_ values: SandboxValues, sandbox url: URL, network: ConnectionNetworkController) async throws {
        // The README's configuration with this test's port in place of 8080.
        let backend = try PartnerBackend.userTokenEndpoint(
            url.appendingPathComponent(values.backendPath), session: values.session)
        let configuration = ConnectionConfiguration(
            connectionId: values.connectionId, suggestedUserEmail: values.email,
            credentialProvider: ConnectionCredentials(oauthCode: values.oauthCode, partnerBackend: backend),
            redirectURL: values.redirectURL)
        let web = RecordingWebSession()
        var setup = ConnectButtonController.Configuration.sandbox(url)
        setup.webAuthenticationSession = web
        setup.urlOpener = RecordingURLOpener()
        setup.timing = .immediate
        let button = GroceryExpress28EndToEndTests.WatchedButton()
        let controller = ConnectButtonController(
            connectButton: button, connectionConfiguration: configuration, delegate: nil, configuration: setup)
        let outcome = Task { @MainActor in await controller.nextActivationResult() }
        await button.wait(for: .initial)
        button.tap(.toggle)
        button.tap(.confirmEmail(values.email))
        let page = try await web.next()
        let callback = try await Harness.walkPages(
            from: page, to: values.redirectURL, email: values.email, password: "alice-password",
            partner: ("alice", "gx-alice-password"))
        web.end(.callback(callback))
        let activation = try await outcome.value.get()
        #expect(activation.connection.id == values.connectionId)
        // The token the README's partner session vouches for is alice's.
        let token = try #require(activation.userToken)
        #expect(
            try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token)).login == "alice")
        let fetched = try await network.fetchConnection(
            for: values.connectionId, credentialProvider: ConnectionCredentials(userToken: activation.userToken))
        #expect(fetched.status == .enabled)
        await button.wait(for: .connected)
    }
}
