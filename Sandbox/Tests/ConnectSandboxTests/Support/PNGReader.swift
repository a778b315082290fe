import Foundation

/// Reads a PNG back into pixels, checking everything a decoder checks: the signature, every chunk's CRC-32, the
/// IHDR, the zlib header and Adler-32, and that the rows fill the image exactly. It inflates stored deflate blocks
/// only (what the sandbox writes) and fails on any other block type: a test that reads an icon so has decoded it.
struct PNGReader {
    enum Failure: Error, Equatable {
        case notAPNG
        case badChunk(String)
        case badCRC(String)
        case unsupported(String)
        case badData(String)
    }

    let width: Int
    let height: Int
    /// RGBA, rows top to bottom.
    let pixels: [UInt8]

    /// The pixel at (`x`, `y`) as `[r, g, b, a]`.
    func pixel(x: Int, y: Int) -> [UInt8] {
        let offset = (y * width + x) * 4
        return Array(pixels[offset..<offset + 4])
    }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure.notAPNG }
        var offset = 8
        var header: [UInt8]?
        var compressed: [UInt8] = []
        var ended = false
        while offset < bytes.count, !ended {
            guard offset + 8 <= bytes.count else { throw Failure.badChunk("truncated chunk header") }
            let length = Int(Self.uint32(bytes, offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { throw Failure.badChunk("truncated \(type)") }
            let body = Array(bytes[offset + 8..<offset + 8 + length])
            guard Self.crc32(Array(bytes[offset + 4..<offset + 8]) + body) == Self.uint32(bytes, offset + 8 + length)
            else { throw Failure.badCRC(type) }
            switch type {
            case "IHDR": header = body
            case "IDAT": compressed += body
            case "IEND": ended = true
            default: break
            }
            offset += 12 + length
        }
        guard ended, let header, header.count == 13 else { throw Failure.badChunk("IHDR or IEND missing") }
        width = Int(Self.uint32(header, 0))
        height = Int(Self.uint32(header, 4))
        guard header[8] == 8, header[9] == 6, header[12] == 0 else {
            throw Failure.unsupported("only 8-bit RGBA without interlace")
        }
        let raw = try Self.inflateStored(compressed)
        let stride = width * 4
        guard raw.count == height * (stride + 1) else { throw Failure.badData("\(raw.count) bytes of rows") }
        var pixels: [UInt8] = []
        for row in 0..<height {
            guard raw[row * (stride + 1)] == 0 else {
                throw Failure.unsupported("row filter \(raw[row * (stride + 1)])")
            }
            pixels += raw[row * (stride + 1) + 1..<(row + 1) * (stride + 1)]
        }
        self.pixels = pixels
    }

    static func inflateStored(_ stream: [UInt8]) throws -> [UInt8] {
        guard stream.count >= 6, stream[0] & 0x0F == 8, (UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0 else {
            throw Failure.badData("zlib header")
        }
        var offset = 2
        var out: [UInt8] = []
        var final = false
        while !final {
            guard offset + 5 <= stream.count else { throw Failure.badData("truncated deflate block") }
            final = stream[offset] & 1 == 1
            guard stream[offset] >> 1 & 3 == 0 else { throw Failure.unsupported("compressed deflate block") }
            let length = Int(stream[offset + 1]) | Int(stream[offset + 2]) << 8
            let complement = Int(stream[offset + 3]) | Int(stream[offset + 4]) << 8
            guard length ^ complement == 0xFFFF, offset + 5 + length <= stream.count else {
                throw Failure.badData("stored block length")
            }
            out += stream[offset + 5..<offset + 5 + length]
            offset += 5 + length
        }
        guard offset + 4 == stream.count, uint32(stream, offset) == adler32(out) else {
            throw Failure.badData("Adler-32")
        }
        return out
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// Bitwise CRC-32 (no table: computed differently from the encoder's on purpose).
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
