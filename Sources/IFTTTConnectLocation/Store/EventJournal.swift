import Foundation

/// The on-disk record format of the event store's journal (pure: bytes in, entries out).
///
/// Each record is `magic (4 bytes "IFJ1") | payload length (UInt32 LE) | CRC-32 of payload (UInt32 LE) | payload`,
/// where the payload is the JSON of one ``Entry``. A reader accepts a record only when its magic, length and
/// checksum all hold; otherwise it moves forward one byte and looks for the next magic. A torn last write
/// or a damaged span therefore costs only the records it overlaps, and every record written in full
/// elsewhere in the file is still read.
enum EventJournal {
    static let magic: [UInt8] = [0x49, 0x46, 0x4A, 0x31]  // "IFJ1"
    static let headerSize = 12
    static let maximumPayload = 1 << 20

    /// One journal entry.
    enum Entry: Sendable, Hashable, Codable {
        /// An event was recorded.
        case event(RegionEvent)
        /// The server acknowledged these record ids.
        case acknowledged([UUID])
        /// The server refused these record ids for good: they move to the dead-letter area.
        case rejected([UUID], EventRejection)
        /// Presence per geofence identifier changed to these values (written by earlier versions; now part of
        /// ``tracking(_:)``).
        case presence([String: RegionSelector.Presence])
        /// The tracks of these geofences (presence and pending crossings) replace the saved ones.
        case tracking([String: GeofenceTrack])

        private enum CodingKeys: String, CodingKey { case e, a, r, why, p, t }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let event = try container.decodeIfPresent(RegionEvent.self, forKey: .e) {
                self = .event(event)
            } else if let ids = try container.decodeIfPresent([UUID].self, forKey: .r) {
                self = .rejected(ids, try container.decode(EventRejection.self, forKey: .why))
            } else if let presence = try container.decodeIfPresent([String: RegionSelector.Presence].self, forKey: .p) {
                self = .presence(presence)
            } else if let tracks = try container.decodeIfPresent([String: GeofenceTrack].self, forKey: .t) {
                self = .tracking(tracks)
            } else {
                self = .acknowledged(try container.decode([UUID].self, forKey: .a))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .event(let event): try container.encode(event, forKey: .e)
            case .acknowledged(let ids): try container.encode(ids, forKey: .a)
            case .rejected(let ids, let why):
                try container.encode(ids, forKey: .r)
                try container.encode(why, forKey: .why)
            case .presence(let presence): try container.encode(presence, forKey: .p)
            case .tracking(let tracks): try container.encode(tracks, forKey: .t)
            }
        }
    }

    /// The bytes of one record.
    static func encode(_ entry: Entry) -> Data {
        let payload = (try? JSONEncoder().encode(entry)) ?? Data()
        var record = Data(capacity: headerSize + payload.count)
        record.append(contentsOf: magic)
        appendUInt32(UInt32(payload.count), to: &record)
        appendUInt32(CRC32.checksum(payload), to: &record)
        record.append(payload)
        return record
    }

    /// What a scan of the journal found.
    struct Scan: Sendable {
        /// Entries in file order.
        var entries: [Entry] = []
        /// Bytes that belonged to no valid record (torn writes, damage).
        var skippedBytes = 0
    }

    /// Reads every valid record of `data`, skipping damaged spans.
    static func scan(_ data: Data) -> Scan {
        var scan = Scan()
        let decoder = JSONDecoder()
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var i = 0
            while i + headerSize <= count {
                if bytes[i] == magic[0], bytes[i + 1] == magic[1], bytes[i + 2] == magic[2], bytes[i + 3] == magic[3] {
                    let length = Int(readUInt32(bytes, at: i + 4))
                    let checksum = readUInt32(bytes, at: i + 8)
                    let start = i + headerSize
                    if length <= maximumPayload, start + length <= count {
                        let payload = UnsafeBufferPointer(rebasing: bytes[start..<(start + length)])
                        if CRC32.checksum(payload) == checksum,
                            let entry = try? decoder.decode(Entry.self, from: Data(buffer: payload))
                        {
                            scan.entries.append(entry)
                            i = start + length
                            continue
                        }
                    }
                }
                scan.skippedBytes += 1
                i += 1
            }
            scan.skippedBytes += count - i
        }
        return scan
    }

    private static func appendUInt32(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func readUInt32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(
            bytes[offset + 3]) << 24
    }
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), table-driven.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { checksum($0.bindMemory(to: UInt8.self)) }
    }

    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
