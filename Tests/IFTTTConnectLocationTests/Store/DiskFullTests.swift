import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 29, D5: on a full disk the journal's compaction (a rewrite into a temporary file) fails with ENOSPC. The
/// read it was folded into must still work, and the count of dead records must survive the failure so that the
/// next read compacts once there is room again.
@Suite("A full disk (issue 29, D5)")
struct DiskFullTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diskfull-\(UUID().uuidString)")

    /// Fails every write to the compaction's temporary file with ENOSPC while `full` is set.
    final class Disk: Sendable {
        private let isFull = Locked(false)
        var full: Bool {
            get { isFull.withLock { $0 } }
            set { isFull.withLock { $0 = newValue } }
        }
        var writes: JournalWrites {
            JournalWrites { [self] descriptor, bytes, count, path in
                if full, path.hasSuffix(".tmp") {
                    errno = ENOSPC
                    return -1
                }
                return write(descriptor, bytes, count)
            }
        }
    }

    /// A store of 100 events of which 90 are acknowledged (compaction is due), on `disk`.
    func store(on disk: Disk) async throws -> (LocationEventStore, [RegionEvent]) {
        let store = try LocationEventStore(directory: directory, readOnly: false, writes: disk.writes)
        let events = (0..<100).map {
            RegionEvent(transition: .entry, occurredAt: epoch + Double($0), triggerSubscriptionId: "sub_\($0)")
        }
        for event in events { try await store.append(event) }
        try await store.acknowledge(events.prefix(90).map(\.recordId), deferCompaction: true)
        return (store, events)
    }

    var journalSize: Int {
        let path = directory.appendingPathComponent("events.journal").path
        return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    @Test func theFirstUploadAfterENOSPCWorks() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = Disk()
        let (store, events) = try await store(on: disk)
        disk.full = true
        let transport = ScriptedTransport()
        var network = ConnectionNetworkController.Configuration(
            transport: transport, locationBaseURL: URL(string: "https://location.test/v1")!, anonymousId: "install-1")
        network.logHandler = nil
        let uploader = LocationUploader(
            store: store, configuration: .init(network: network),
            clock: ManualClock(epoch + 200))
        let report = await uploader.uploadPending(userToken: "token")
        #expect(report.error == nil)
        #expect(report.uploaded == 10)
        #expect(transport.requests.count == 1)
        #expect(try await store.pending(now: epoch + 200).isEmpty)
        #expect(events.count == 100)
    }

    @Test func theDeadRecordCountIsResetOnlyWhenTheRewriteSucceeded() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = Disk()
        let (store, events) = try await store(on: disk)
        let before = journalSize
        disk.full = true
        #expect(try await store.pending(now: epoch + 200).map(\.recordId) == events.suffix(10).map(\.recordId))
        #expect(journalSize == before)  // not compacted: no room
        disk.full = false
        #expect(try await store.pending(now: epoch + 200).map(\.recordId) == events.suffix(10).map(\.recordId))
        #expect(journalSize < before / 5)  // the next read compacted: the count of dead records survived
    }
}
