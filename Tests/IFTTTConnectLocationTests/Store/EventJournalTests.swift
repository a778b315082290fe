import Foundation
@_spi(Sandbox) @testable import IFTTTConnectLocation
import Testing

@Suite("Event journal records")
struct EventJournalTests {
    /// The checksum decides, not the JSON decoder: a record whose payload was altered so that it still decodes (one
    /// digit of a record id changed, as a flipped bit on disk can do) is skipped, and the record as written is read.
    @Test func aRecordWhosePayloadStillDecodesAfterDamageIsSkipped() throws {
        let id = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000001"))
        let record = EventJournal.encode(.acknowledged([id]))
        #expect(EventJournal.scan(record).entries == [.acknowledged([id])])

        var damaged = record
        let digit = try #require(damaged[EventJournal.headerSize...].firstIndex(of: UInt8(ascii: "0")))
        damaged[digit] = UInt8(ascii: "1")
        let payload = damaged[EventJournal.headerSize...]
        #expect((try? JSONDecoder().decode(EventJournal.Entry.self, from: payload)) != nil)  // still decodes

        let scan = EventJournal.scan(damaged)
        #expect(scan.entries.isEmpty)
        #expect(scan.skippedBytes == damaged.count)
    }
}
