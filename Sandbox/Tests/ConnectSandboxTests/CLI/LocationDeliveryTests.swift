@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import NIOConcurrencyHelpers
import Testing

@Suite("Location events reach the sandbox exactly once: crashes, failures, 401")
struct LocationDeliveryTests {
    /// Kills `ifttt-connect location journal-stress` (appending to an event store and uploading to the sandbox) with
    /// SIGKILL at random points, restarting it each time. Then nothing reported durable is lost, nothing is recorded
    /// twice by the server, and the store is readable. `IFTTT_LOCATION_SOAK_ITERATIONS` sets the number of kills
    /// (default 200, about 30 s); `IFTTT_LOCATION_SOAK_SEED` the random seed.
    @Test func sigkillAtRandomPointsLosesAndDuplicatesNothing() async throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["IFTTT_LOCATION_SOAK_ITERATIONS"].flatMap(Int.init) ?? 200
        let seed = environment["IFTTT_LOCATION_SOAK_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0 ... .max)
        var random = SplitMix64(seed: seed)
        let executable = try LocationTest.executable()
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = Date()

        try await SandboxServer.withRunning(SandboxTest.configuration()) { root in
            var durable = Set<String>()  // record ids the child reported after a returned append
            for iteration in 0..<iterations {
                let child = try ChildProcess(
                    executable: executable,
                    arguments: [
                        "location", "journal-stress", "--store", directory.path, "--api", root.absoluteString,
                        "--upload-every", String(1 + random.next() % 6),
                    ])
                // The child must open the store every time: a store left unreadable by a kill would fail here.
                let ready = await child.waitFor(1) { $0 == "ready" }
                #expect(ready, "iteration \(iteration) (seed \(seed)): the child did not open the store")
                let appends = Int(random.next() % 12)
                _ = await child.waitFor(appends) { $0.hasPrefix("appended ") }
                let extra = random.next() % 3000
                if extra > 0 { try await Task.sleep(for: .microseconds(extra)) }  // a random point within the next step
                child.kill()
                let (_, reason) = await child.finish()
                #expect(reason == .uncaughtSignal, "iteration \(iteration) (seed \(seed)): the child exited by itself")
                for line in child.lines where line.hasPrefix("appended ") { durable.insert(String(line.dropFirst(9))) }
            }

            // After the last kill: the store is readable and holds every durable event the server does not have.
            let store = try LocationEventStore(directory: directory)
            let pending = try await store.pending(now: Date())
            let before = try await LocationTest.serverEvents(root: root)
            let known = Set(before.map(\.record_id)).union(pending.map(\.recordId.uuidString))
            #expect(
                durable.isSubset(of: known), "seed \(seed): \(durable.subtracting(known).count) durable events lost")

            // Uploading the rest: every durable event at the server, none twice.
            let uploader = LocationUploader(
                store: store, configuration: .init(network: .sandbox(root)))
            let report = await uploader.uploadPending(userToken: SandboxTest.aliceToken)
            #expect(report.next == .done)
            let server = try await LocationTest.serverEvents(root: root)
            let ids = server.map(\.record_id)
            #expect(Set(ids).count == ids.count, "seed \(seed): a record id was recorded twice")
            #expect(durable.isSubset(of: Set(ids)), "seed \(seed): durable events missing at the server")
            #expect(try await store.pending(now: Date()).isEmpty)
            #expect(durable.count > iterations / 2)
            let resent = server.filter { $0.deliveries > 1 }.count
            let seconds = Date().timeIntervalSince(started)
            print(
                "journal-stress: \(iterations) SIGKILLs, \(durable.count) durable appends, \(server.count) events at the server "
                    + "(\(resent) re-sent after a kill and de-duplicated), \(String(format: "%.1f", seconds)) s, seed \(seed)"
            )
        }
    }

    /// 60 events through a sandbox that fails 30% of requests with 503 after 15 ms: with the backoff driven by an
    /// injected clock (no real waits), every event is recorded exactly once, in order.
    @Test func everyEventArrivesExactlyOnceThroughInjectedFailures() async throws {
        let configuration = SandboxTest.configuration(latency: 15, failRate: 0.3, randomSeed: 2026)
        try await SandboxServer.withRunning(configuration) { root in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try LocationEventStore(directory: directory)
            let start = Date()
            let events = (0..<60).map {
                RegionEvent(
                    transition: $0 % 2 == 0 ? .entry : .exit, occurredAt: start.addingTimeInterval(Double($0) * 60),
                    triggerSubscriptionId: "alice-arrive-trigger-1")
            }
            for event in events { try await store.append(event) }
            let clock = ManualClock(start)
            let schedule = UploadScheduler.Configuration(batchSize: 3, baseDelay: 2, maximumDelay: 60)
            let uploader = LocationUploader(
                store: store, configuration: .init(network: .sandbox(root), scheduler: schedule),
                clock: ReadingClock { clock.now }, random: { 0.5 })
            var failures = 0
            var rounds = 0
            upload: while rounds < 500 {
                rounds += 1
                let before = clock.now
                let report = await uploader.uploadPending(userToken: SandboxTest.aliceToken)
                switch report.next {
                case .done:
                    break upload
                case .retry(let at):
                    failures += 1
                    // Within the schedule: never longer than the maximum delay.
                    #expect(at.timeIntervalSince(before) <= schedule.maximumDelay)
                    clock.advance(to: at)
                case .paused:
                    Issue.record("unexpected \(report.next)")
                    break upload
                }
            }
            #expect(failures > 0, "the sandbox injected no failure")
            let server = try await LocationTest.serverEvents(root: root)
            #expect(server.map(\.record_id) == events.map(\.recordId.uuidString))
            #expect(server.allSatisfy { $0.deliveries == 1 })
            #expect(try await store.pending(now: clock.now).isEmpty)
            #expect(clock.now.timeIntervalSince(start) < 3600)
            print(
                "fault injection: \(events.count) events in \(rounds) upload calls, \(failures) failed batches, "
                    + "\(Int(clock.now.timeIntervalSince(start))) s of simulated backoff")
        }
    }

    /// A 401 keeps every event, pauses uploading and says so once; new credentials upload them.
    @Test func a401KeepsTheEventsAndSaysSoOnce() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { root in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try LocationEventStore(directory: directory)
            let events = (0..<3).map { _ in
                RegionEvent(transition: .entry, occurredAt: Date(), triggerSubscriptionId: "alice-arrive-trigger-1")
            }
            for event in events { try await store.append(event) }
            let uploader = LocationUploader(store: store, configuration: .init(network: .sandbox(root)))
            let report = await uploader.uploadPending(userToken: "revoked-token")
            #expect(report.next == .paused)
            #expect(report.error?.code == .authenticationFailure)
            #expect(report.authenticationFailed)
            #expect(try await store.pending(now: Date()) == events)
            #expect(try await LocationTest.serverEvents(root: root).isEmpty)
            let again = await uploader.uploadPending(userToken: "revoked-token")
            #expect(again.next == .paused && !again.authenticationFailed)  // still paused, not reported again

            await uploader.resume()
            #expect(await uploader.uploadPending(userToken: SandboxTest.aliceToken).next == .done)
            #expect(
                try await LocationTest.serverEvents(root: root).map(\.record_id) == events.map(\.recordId.uuidString))
        }
    }
}

extension LocationDeliveryTests {
    /// A store on a read-only mount (a private mount namespace made with `unshare`, so the host is untouched) still
    /// uploads what it holds, and says why it records nothing new. Without `unshare` and mount rights (not root,
    /// macOS), the test says so and checks nothing.
    @Test func aStoreOnAReadOnlyMountUploadsWhatItHoldsAndSaysWhy() async throws {
        let probe = TestProcess()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "true"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else {
            print("read-only mount: unshare is not available here; not checked")
            return
        }
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            print("read-only mount: unshare -m is not permitted here; not checked")
            return
        }
        let executable = try LocationTest.executable()
        try await SandboxServer.withRunning(SandboxTest.configuration()) { root in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try LocationEventStore(directory: directory)
            let events = (0..<30).map {
                RegionEvent(
                    transition: $0 % 2 == 0 ? .entry : .exit, occurredAt: Date().addingTimeInterval(Double($0)),
                    triggerSubscriptionId: "alice-arrive-trigger-1")
            }
            for event in events { try await store.append(event) }
            let path = directory.path
            let child = try ChildProcess(
                executable: URL(fileURLWithPath: "/usr/bin/unshare"),
                arguments: [
                    "-m", "sh", "-c",
                    "mount --bind \"$1\" \"$1\" && mount -o remount,ro,bind \"$1\" \"$1\" && exec \"$2\" location upload --store \"$1\" --api \"$3\"",
                    "sh", path, executable.path, root.absoluteString,
                ])
            let (status, _) = await child.finish()
            #expect(status == 0, "\(child.lines)")
            #expect(
                child.lines.first?.hasPrefix("read-only: the store's file system is read-only") == true,
                "\(child.lines)")
            #expect(child.lines.contains("uploaded 30"), "\(child.lines)")
            #expect(
                child.lines.contains { $0.hasPrefix("append: readOnly:") && $0.contains("cannot be recorded") },
                "\(child.lines)")
            let server = try await LocationTest.serverEvents(root: root)
            #expect(server.map(\.record_id) == events.map(\.recordId.uuidString))
            print("read-only mount: \(child.lines.joined(separator: " | "))")
        }
    }
}
