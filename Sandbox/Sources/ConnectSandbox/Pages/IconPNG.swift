import Foundation

/// The sandbox's service icons as PNG, the format IFTTT serves them in (UIKit's `UIImage(data:)` decodes PNG, not
/// SVG): the service's initials drawn with a 5 × 7 pixel font, white, on a transparent background (monochrome) or
/// on the brand colour in a rounded square (colour). 120 × 120 pixels, 8-bit RGBA, deterministic bytes.
enum IconPNG {
    /// The side of an icon, in pixels.
    static let size = 120

    /// The PNG of `initials` (up to two letters or digits; anything else draws a filled square).
    ///
    /// - Parameters:
    ///   - initials: What to draw, such as `GE`.
    ///   - background: The brand colour for a colour icon; `nil` for a monochrome icon.
    static func icon(initials: String, background: (red: UInt8, green: UInt8, blue: UInt8)?) -> [UInt8] {
        var raster = Raster(width: size, height: size)
        if let background {
            raster.fillRoundedSquare(radius: 26, color: [background.red, background.green, background.blue, 255])
        }
        let glyphs = initials.uppercased().prefix(2).map { Glyphs.rows(for: $0) }
        if !glyphs.isEmpty {
            // Two glyphs of 5 columns with one column between them, or one larger glyph; centred.
            let columns = glyphs.count * 5 + (glyphs.count - 1)
            let scale = glyphs.count > 1 ? 8 : 10
            let originX = (size - columns * scale) / 2
            let originY = (size - 7 * scale) / 2
            for (index, rows) in glyphs.enumerated() {
                let x0 = originX + index * 6 * scale
                for (row, bits) in rows.enumerated() {
                    for column in 0..<5 where bits & (0b10000 >> column) != 0 {
                        raster.fill(
                            x: x0 + column * scale, y: originY + row * scale, width: scale, height: scale,
                            color: [255, 255, 255, 255])
                    }
                }
            }
        }
        return PNGEncoder.encode(width: raster.width, height: raster.height, rgba: raster.pixels)
    }

    /// The colour `#RRGGBB` (black for anything else: the seed validates brand colours).
    static func rgb(hex: String) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return (0, 0, 0) }
        return (UInt8(value >> 16), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// An RGBA pixel buffer, rows top to bottom.
    struct Raster {
        let width: Int
        let height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            pixels = [UInt8](repeating: 0, count: width * height * 4)
        }

        mutating func fill(x: Int, y: Int, width w: Int, height h: Int, color: [UInt8]) {
            for row in max(0, y)..<min(height, y + h) {
                for column in max(0, x)..<min(width, x + w) {
                    let offset = (row * width + column) * 4
                    pixels.replaceSubrange(offset..<offset + 4, with: color)
                }
            }
        }

        /// The whole raster, its corners rounded with `radius` (pixel centres inside the arc are filled).
        mutating func fillRoundedSquare(radius: Int, color: [UInt8]) {
            let r = Double(radius)
            for row in 0..<height {
                for column in 0..<width {
                    let px = Double(column) + 0.5
                    let py = Double(row) + 0.5
                    let cx = min(max(px, r), Double(width) - r)
                    let cy = min(max(py, r), Double(height) - r)
                    guard (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r else { continue }
                    let offset = (row * width + column) * 4
                    pixels.replaceSubrange(offset..<offset + 4, with: color)
                }
            }
        }
    }

    /// A 5 × 7 pixel font of the capital letters and digits; each row is 5 bits, the leftmost pixel highest.
    enum Glyphs {
        static func rows(for character: Character) -> [UInt8] {
            table[character] ?? [0b11111, 0b11111, 0b11111, 0b11111, 0b11111, 0b11111, 0b11111]
        }

        static let table: [Character: [UInt8]] = {
            let source: [(Character, String)] = [
                ("A", "01110 10001 10001 11111 10001 10001 10001"), ("B", "11110 10001 10001 11110 10001 10001 11110"),
                ("C", "01110 10001 10000 10000 10000 10001 01110"), ("D", "11110 10001 10001 10001 10001 10001 11110"),
                ("E", "11111 10000 10000 11110 10000 10000 11111"), ("F", "11111 10000 10000 11110 10000 10000 10000"),
                ("G", "01110 10001 10000 10111 10001 10001 01111"), ("H", "10001 10001 10001 11111 10001 10001 10001"),
                ("I", "01110 00100 00100 00100 00100 00100 01110"), ("J", "00111 00010 00010 00010 00010 10010 01100"),
                ("K", "10001 10010 10100 11000 10100 10010 10001"), ("L", "10000 10000 10000 10000 10000 10000 11111"),
                ("M", "10001 11011 10101 10101 10001 10001 10001"), ("N", "10001 10001 11001 10101 10011 10001 10001"),
                ("O", "01110 10001 10001 10001 10001 10001 01110"), ("P", "11110 10001 10001 11110 10000 10000 10000"),
                ("Q", "01110 10001 10001 10001 10101 10010 01101"), ("R", "11110 10001 10001 11110 10100 10010 10001"),
                ("S", "01111 10000 10000 01110 00001 00001 11110"), ("T", "11111 00100 00100 00100 00100 00100 00100"),
                ("U", "10001 10001 10001 10001 10001 10001 01110"), ("V", "10001 10001 10001 10001 10001 01010 00100"),
                ("W", "10001 10001 10001 10101 10101 10101 01010"), ("X", "10001 10001 01010 00100 01010 10001 10001"),
                ("Y", "10001 10001 10001 01010 00100 00100 00100"), ("Z", "11111 00001 00010 00100 01000 10000 11111"),
                ("0", "01110 10001 10011 10101 11001 10001 01110"), ("1", "00100 01100 00100 00100 00100 00100 01110"),
                ("2", "01110 10001 00001 00010 00100 01000 11111"), ("3", "11111 00010 00100 00010 00001 10001 01110"),
                ("4", "00010 00110 01010 10010 11111 00010 00010"), ("5", "11111 10000 11110 00001 00001 10001 01110"),
                ("6", "00110 01000 10000 11110 10001 10001 01110"), ("7", "11111 00001 00010 00100 01000 01000 01000"),
                ("8", "01110 10001 10001 01110 10001 10001 01110"), ("9", "01110 10001 10001 01111 00001 00010 01100"),
            ]
            var table: [Character: [UInt8]] = [:]
            for (character, rows) in source {
                table[character] = rows.split(separator: " ").map { UInt8($0, radix: 2) ?? 0 }
            }
            return table
        }()
    }
}

/// Encodes 8-bit RGBA pixels as a PNG (ISO/IEC 15948): IHDR, one IDAT holding a zlib stream of stored
/// (uncompressed) deflate blocks, IEND; every row with filter type 0. Foundation on Linux has no deflate, and an
/// icon of 120 × 120 pixels is 58 KB this way, well under the SDK's 1 MiB icon limit.
enum PNGEncoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func encode(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        precondition(rgba.count == width * height * 4, "one RGBA quadruple per pixel")
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8 bits per channel, RGBA, deflate, adaptive filtering, no interlace.
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * 4))
        for row in 0..<height {
            raw.append(0)  // Filter: none.
            raw += rgba[row * width * 4..<(row + 1) * width * 4]
        }
        var png = signature
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    /// A zlib stream (RFC 1950) of `data` in stored deflate blocks (RFC 1951 §3.2.4) of at most 65,535 bytes.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(data.count, start + 65_535)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)  // BFINAL on the last block; BTYPE 00 (stored).
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        out += bigEndian(adler32(data))
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
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

    /// CRC-32 (ISO 3309, the polynomial 0xEDB88320 reflected), as PNG's chunks carry it.
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
