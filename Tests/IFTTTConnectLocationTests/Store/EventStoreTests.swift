import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("Event store: journal, crash safety, retention")
struct EventStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")

    func event(_ i: Int, at seconds: TimeInterval = 0) -> RegionEvent {
        RegionEvent(
            transition: i % 2 == 0 ? .entry : .exit, occurredAt: epoch.addingTimeInterval(seconds + Double(i)),
            triggerSubscriptionId: "trigger_\(i)")
    }

    /// Byte ranges of the records in a clean journal.
    func recordRanges(_ data: Data) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var i = 0
        let bytes = [UInt8](data)
        while i + 12 <= bytes.count {
            let length = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            ranges.append(i..<(i + 12 + length))
            i += 12 + length
        }
        return ranges
    }

    func journalURL(_ dir: URL) -> URL { dir.appendingPathComponent("events.journal") }

    /// Writes `bytes` as the journal of a fresh directory and opens a store on it.
    func reopen(with bytes: Data, _ name: String) throws -> (LocationEventStore, URL) {
        let dir = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try bytes.write(to: journalURL(dir))
        return (try LocationEventStore(directory: dir), dir)
    }

    @Test func appendsSurviveReopeningInOrder() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = (0..<10).map { event($0) }
        do {
            let store = try LocationEventStore(directory: directory)
            for e in events { try await store.append(e) }
        }
        let reopened = try LocationEventStore(directory: directory)
        #expect(try await reopened.pending(now: epoch) == events)
    }

    @Test func truncationAtAnyOffsetKeepsEveryFullyWrittenEvent() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = (0..<40).map { event($0) }
        let store = try LocationEventStore(directory: directory.appendingPathComponent("source"))
        for e in events { try await store.append(e) }
        let full = try Data(contentsOf: journalURL(directory.appendingPathComponent("source")))
        let ranges = recordRanges(full)
        #expect(ranges.count == 40 && ranges.last?.upperBound == full.count)
        var rng = SplitMix64(seed: 2024)
        var offsets = Set((0..<150).map { _ in Int.random(in: 0...full.count, using: &rng) })
        offsets.formUnion(ranges.map(\.lowerBound) + ranges.map { $0.upperBound - 1 } + [0, full.count])
        for (n, offset) in offsets.sorted().enumerated() {
            let (damaged, _) = try reopen(with: full.prefix(offset), "t\(n)")
            let expected = zip(events, ranges).filter { $0.1.upperBound <= offset }.map(\.0)
            #expect(try await damaged.pending(now: epoch) == expected, "truncated at \(offset)")
            // The store stays writable: a new event after the torn tail is read back too.
            let extra = event(1000)
            try await damaged.append(extra)
            #expect(try await damaged.pending(now: epoch) == expected + [extra], "append after truncation at \(offset)")
        }
    }

    @Test func corruptionAtRandomOffsetsLosesOnlyTheDamagedRecords() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = (0..<40).map { event($0) }
        let source = directory.appendingPathComponent("source")
        let store = try LocationEventStore(directory: source)
        for e in events { try await store.append(e) }
        let full = try Data(contentsOf: journalURL(source))
        let ranges = recordRanges(full)
        var rng = SplitMix64(seed: 7)
        for n in 0..<200 {
            var bytes = [UInt8](full)
            let offset = Int.random(in: 0..<bytes.count, using: &rng)
            let length = Int.random(in: 1...24, using: &rng)
            let damaged = offset..<min(bytes.count, offset + length)
            for i in damaged { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
            let (reopened, _) = try reopen(with: Data(bytes), "c\(n)")
            let read = Set(try await reopened.pending(now: epoch).map(\.recordId))
            let intact = zip(events, ranges).filter { !$0.1.overlaps(damaged) }.map(\.0.recordId)
            #expect(read.isSuperset(of: intact), "corrupted \(damaged)")
            #expect(read.isSubset(of: Set(events.map(\.recordId))))
        }
    }

    @Test func corruptionNeverLosesAnUnacknowledgedEvent() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = (0..<30).map { event($0) }
        let source = directory.appendingPathComponent("source")
        let store = try LocationEventStore(directory: source)
        for e in events { try await store.append(e) }
        try await store.acknowledge(events.prefix(10).map(\.recordId))
        for e in (30..<35).map({ event($0) }) { try await store.append(e) }
        let full = try Data(contentsOf: journalURL(source))
        let ranges = recordRanges(full)
        #expect(ranges.count == 36)
        let unacknowledged = Array(events.dropFirst(10))
        let all = try await store.pending(now: epoch)
        #expect(all.count == 25)
        #expect(Array(all.prefix(20)) == unacknowledged)
        // Which record holds which event: records 0..<30 are events, 30 is the ack, 31..<36 are events.
        let eventRanges = Array(ranges[0..<30]) + Array(ranges[31..<36])
        let rangeOf = Dictionary(
            uniqueKeysWithValues: zip(events.map(\.recordId) + all.suffix(5).map(\.recordId), eventRanges))
        var rng = SplitMix64(seed: 99)
        for n in 0..<150 {
            var bytes = [UInt8](full)
            let offset = Int.random(in: 0..<bytes.count, using: &rng)
            let damaged = offset..<min(bytes.count, offset + Int.random(in: 1...16, using: &rng))
            for i in damaged { bytes[i] ^= 0xFF }
            let (reopened, _) = try reopen(with: Data(bytes), "a\(n)")
            let read = Set(try await reopened.pending(now: epoch).map(\.recordId))
            let mustSurvive = all.filter { !rangeOf[$0.recordId]!.overlaps(damaged) }.map(\.recordId)
            #expect(read.isSuperset(of: mustSurvive), "corrupted \(damaged)")
        }
    }

    @Test func acknowledgedEventsLeaveAndCompactionKeepsTheRest() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let events = (0..<100).map { event($0) }
        for e in events { try await store.append(e) }
        try await store.acknowledge(events.prefix(90).map(\.recordId))  // triggers compaction (dead > live)
        #expect(try await store.pending(now: epoch) == Array(events.suffix(10)))
        let size = try FileManager.default.attributesOfItem(atPath: journalURL(directory).path)[.size] as? Int ?? 0
        #expect(size == recordRanges(try Data(contentsOf: journalURL(directory))).map(\.count).reduce(0, +))
        #expect(recordRanges(try Data(contentsOf: journalURL(directory))).count == 10)
        #expect(try await LocationEventStore(directory: directory).pending(now: epoch) == Array(events.suffix(10)))
    }

    @Test func retentionExpiresByAgeAndRefusesBeyondTheCount() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(
            directory: directory, policy: .init(maximumAge: 3600, maximumPendingCount: 5))
        let old = (0..<3).map { event($0) }
        for e in old { try await store.append(e) }
        let fresh = (3..<5).map { event($0, at: 7200) }
        for e in fresh { try await store.append(e) }
        // Full: the new event is refused, no stored event is dropped to make room...
        let now = epoch.addingTimeInterval(7300)
        #expect(try await store.pending(now: epoch.addingTimeInterval(10)) == old + fresh)
        // ...until the old ones pass their age limit: then appending compacts them away and succeeds.
        let late = event(9, at: 7300)
        try await store.append(late)
        #expect(try await store.pending(now: now) == fresh + [late])
        let another = (10..<12).map { event($0, at: 7300) }
        for e in another { try await store.append(e) }
        await #expect(throws: LocationError.self) { try await store.append(event(20, at: 7300)) }
        #expect(try await store.pending(now: now).count == 5)
    }

    @Test func filesAreOwnerOnly() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        try await store.append(event(0))
        let mode =
            try FileManager.default.attributesOfItem(atPath: journalURL(directory).path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let dirMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        #expect(LocationEventStore.defaultDirectory().path.contains("Documents") == false)
    }

    @Test func twoWritersShareOneJournalAcrossCompaction() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two store instances stand in for two processes (the app and an extension or CLI).
        let app = try LocationEventStore(directory: directory)
        let other = try LocationEventStore(directory: directory)
        let a = (0..<5).map { event($0) }
        for e in a { try await app.append(e) }
        try await other.append(event(100))
        try await app.acknowledge(a.prefix(2).map(\.recordId))
        try await app.compact(now: nil)  // replaces the file under `other`'s open descriptor
        try await other.append(event(101))  // must land in the new journal, not the unlinked one
        let pending = try await app.pending(now: epoch).map(\.triggerSubscriptionId)
        #expect(pending == ["trigger_2", "trigger_3", "trigger_4", "trigger_100", "trigger_101"])
    }

    /// A geofence's presence and pending crossings are one record; appending a pending crossing's event takes it
    /// off its track in the same record; both survive reopening and compaction.
    @Test func tracksAndTheirPendingCrossingsSurviveReopeningAndCompaction() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let entry = RegionEvent(transition: .entry, occurredAt: epoch, triggerSubscriptionId: "home")
        let home = GeofenceTrack(
            presence: .inside,
            pending: [
                PendingCrossing(transition: .entry, occurredAt: epoch, deadline: epoch + 30, event: entry)
            ])
        let gym = GeofenceTrack(
            presence: .outside,
            pending: [PendingCrossing(transition: .exit, occurredAt: epoch + 5, deadline: epoch + 35, event: nil)])
        let store = try LocationEventStore(directory: directory)
        try await store.saveTracks(["ifttt_home": home, "ifttt_gym": gym])
        #expect(try await reopenedStore(directory).tracks == ["ifttt_home": home, "ifttt_gym": gym])

        // Recording the entry is one record: the event, and the crossing off its track
        try await store.append(entry)
        var settled = home
        settled.pending = []
        #expect(await store.tracks()["ifttt_home"] == settled)
        #expect(try await reopenedStore(directory).tracks == ["ifttt_home": settled, "ifttt_gym": gym])
        #expect(await store.presence() == ["ifttt_home": .inside, "ifttt_gym": .outside])

        // Compaction keeps both tracks; presence saved the earlier way still reads
        try await store.compact(now: nil)
        try await store.savePresence(["ifttt_office": .inside])
        let reopened = try await reopenedStore(directory)
        #expect(reopened.tracks["ifttt_gym"] == gym && reopened.tracks["ifttt_home"] == settled)
        #expect(reopened.tracks["ifttt_office"] == GeofenceTrack(presence: .inside))
        #expect(reopened.pending == [entry])
    }
}

/// What a store reopened on `directory` reads.
func reopenedStore(_ directory: URL) async throws -> (tracks: [String: GeofenceTrack], pending: [RegionEvent]) {
    let store = try LocationEventStore(directory: directory)
    return (await store.tracks(), try await store.pending(now: epoch))
}
