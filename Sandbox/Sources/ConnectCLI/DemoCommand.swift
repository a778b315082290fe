import ArgumentParser
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectService
import Logging

/// `ifttt-connect demo`: the end-to-end story against an in-process sandbox on an ephemeral port.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the end-to-end demo against an in-process sandbox with a fresh database.",
        discussion: "Exits 0 when every step behaved as IFTTT does, 1 otherwise."
    )

    @Option(help: ArgumentHelp("Use this database file instead of a fresh temporary one.", valueName: "file"))
    var db: String?

    func run() async throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ifttt-connect-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        var logger = Logger(label: "ifttt-connect.demo")
        logger.logLevel = .warning  // the demo's own lines tell the story
        let configuration = SandboxConfiguration(
            port: 0, databasePath: db ?? temporary.appendingPathComponent("demo.sqlite").path,
            logger: logger)
        let failures = try await SandboxServer.withRunning(configuration) { url in
            say("Sandbox running at \(url.absoluteString)")
            return await DemoScript(root: url).run()
        }
        if failures > 0 {
            warn("demo: \(failures) step(s) did not behave as expected")
            throw ExitCode(1)
        }
        say("Demo finished: every step behaved as expected.")
    }
}

/// The demo's steps, each printed with ✓ or ✗.
struct DemoScript: Sendable {
    let root: URL
    let alice = ConnectionCredentials(oauthCode: "gx-oauth-code-alice", userToken: "sandbox-user-token-alice")

    var controller: ConnectionNetworkController { ConnectionNetworkController(configuration: .sandbox(root)) }

    /// Runs every step; returns the number that did not behave as expected.
    func run() async -> Int {
        let steps = DemoSteps()
        await connectionSteps(steps)
        await activationSteps(steps)
        await trackingSteps(steps)
        await locationTripSteps(steps)
        await legacyAppletSteps(steps)
        return steps.failures
    }

    /// Steps 1 to 4: Connections, users and the partner backend's token exchange.
    private func connectionSteps(_ steps: DemoSteps) async {
        steps.section("1. Fetch a Connection")
        await steps.check("anonymous fetch of gx-arrive-store") {
            let c = try await controller.fetchConnection(
                for: "gx-arrive-store", credentialProvider: ConnectionCredentials.anonymous)
            try expect(c.status == .unknown, "status should be unknown without a token")
            return
                "\"\(c.name)\", status \(c.status), connecting service \(c.connectingService.name), \(c.locationRegions.count) regions"
        }
        await steps.check("signed-in fetch as alice") {
            let c = try await controller.fetchConnection(for: "gx-arrive-store", credentialProvider: alice)
            try expect(c.status == .enabled, "alice has it enabled")
            let regions = c.locationRegions.map {
                "\($0.identifier) (\($0.transitions.names.joined(separator: "+")), r=\(Int($0.radius)) m)"
            }
            return "status \(c.status), regions \(regions.joined(separator: ", "))"
        }
        await steps.check("unpublished gx-early-access without the invite code") {
            do {
                _ = try await controller.fetchConnection(
                    for: "gx-early-access", credentialProvider: ConnectionCredentials.anonymous)
                throw DemoFailure("the sandbox served an unpublished Connection without its invite code")
            } catch let error as ConnectAPIError {
                try expect(error.statusCode == 403, "expected 403, got \(error)")
                return "refused as expected: \(error)"
            }
        }
        await steps.check("unpublished gx-early-access with the invite code") {
            let c = try await controller.fetchConnection(
                for: "gx-early-access",
                credentialProvider: ConnectionCredentials(inviteCode: "gx-invite-2026"))
            return "\"\(c.name)\""
        }

        steps.section("2. Disconnect and enable")
        await steps.check("alice disconnects gx-weekly-deals") {
            let c = try await controller.disconnectConnection(with: "gx-weekly-deals", credentialProvider: alice)
            try expect(c.status == .disabled, "status should be disabled")
            return "status \(c.status)"
        }
        await steps.check("alice enables it again") {
            let c = try await controller.enableConnection(with: "gx-weekly-deals", credentialProvider: alice)
            try expect(c.status == .enabled, "status should be enabled")
            return "status \(c.status)"
        }

        steps.section("3. Users")
        await steps.check("account lookup") {
            let existing = try await controller.lookUpAccount(email: "alice@example.com")
            let new = try await controller.lookUpAccount(email: "someone.new@example.com")
            try expect(existing == .existingUser && new == .newUser, "lookup results")
            return "alice@example.com → \(existing), someone.new@example.com → \(new)"
        }
        await steps.check("/me with alice's token") {
            let user = try await controller.fetchUser(credentialProvider: alice)
            try expect(user.login == "alice", "login should be alice")
            return "login \(user.login ?? "-"), level \(user.authenticationLevel)"
        }
        await steps.check("a bad token gives a typed error") {
            do {
                _ = try await controller.fetchConnection(
                    for: "gx-arrive-store", credentialProvider: ConnectionCredentials(userToken: "not-a-real-token"))
                throw DemoFailure("a bad token was accepted")
            } catch let error as ConnectAPIError {
                guard case .authenticationFailure = error else {
                    throw DemoFailure("expected authenticationFailure, got \(error)")
                }
                return "\(error)"
            }
        }

        steps.section("4. Partner backend: token exchange with the service key")
        await steps.check("exchange gx-user-1002's access token") {
            let client = try ConnectServiceClient(
                serviceKey: "sandbox-service-key-grocery-express", baseURL: root.appendingPathComponent("v2"))
            let token = try await client.exchangeUserToken(userId: "gx-user-1002", accessToken: "gx-access-token-bob")
            let user = try await controller.fetchUser(credentialProvider: ConnectionCredentials(userToken: token))
            try expect(user.login == "bob", "the exchanged token should be bob's")
            return "got a user token for \(user.login ?? "-") (not printed)"
        }
    }
}

/// The demo's one step runner: prints each step with ✓ and what it found, or ✗ and why, and counts the failures.
/// Used by one task at a time (the demo runs its steps in order).
final class DemoSteps {
    /// The steps that did not behave as expected.
    private(set) var failures = 0

    /// Prints a section's title.
    func section(_ title: String) {
        say("\n" + title)
    }

    /// Runs `step`: its result is printed after ✓; an error it throws counts as a failure, printed after ✗.
    func check(_ title: String, _ step: () async throws -> String) async {
        do {
            say("  ✓ \(title): \(try await step())")
        } catch {
            failures += 1
            say("  ✗ \(title): \(error)")
        }
    }
}

struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func expect(_ condition: Bool, _ message: String) throws {
    if !condition { throw DemoFailure(message) }
}
