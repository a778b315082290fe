import Foundation

/// A service icon's bytes, once loaded: PNG, JPEG, GIF or SVG, recognized by their first bytes (never by what
/// the server says they are). IFTTT serves PNG, and so does the sandbox.
@_spi(Sandbox) public struct ConnectButtonIconImage: Sendable, Hashable {
    /// The image formats a knob can show.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// PNG.
        case png
        /// JPEG.
        case jpeg
        /// GIF.
        case gif
        /// SVG: the SVG renderer can embed it, but `UIImage(data:)` cannot decode it, so ``ServiceIconLoader``
        /// refuses it (``ServiceIconError/undecodable(_:)``) and the knob keeps the monogram on every platform.
        case svg

        /// Whether `UIImage(data:)` decodes this format on every iOS the SDK supports (PNG, JPEG, GIF).
        public var isBitmap: Bool { self != .svg }

        /// The media type, such as `image/png`.
        public var mediaType: String {
            switch self {
            case .png: return "image/png"
            case .jpeg: return "image/jpeg"
            case .gif: return "image/gif"
            case .svg: return "image/svg+xml"
            }
        }
    }

    /// Where the icon came from.
    public let url: URL
    /// Its bytes.
    public let data: Data
    /// Its format.
    public let format: Format

    /// Wraps `data` loaded from `url`, or `nil` when the bytes are not an image of a known format.
    public init?(url: URL, data: Data) {
        guard let format = Self.format(of: data) else { return nil }
        self.url = url
        self.data = data
        self.format = format
    }

    /// The format the bytes start with, if any.
    static func format(of data: Data) -> Format? {
        let bytes = [UInt8](data.prefix(512))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF8".utf8)) { return .gif }
        let head = String(decoding: bytes, as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if head.hasPrefix("<svg") || (head.hasPrefix("<?xml") && head.contains("<svg")) { return .svg }
        return nil
    }

    /// The image as a `data:` URL, for SVG and HTML renderers.
    public var dataURL: String { "data:\(format.mediaType);base64,\(data.base64EncodedString())" }
}

/// Why a service icon could not be loaded; the knob then shows the service's monogram.
@_spi(Sandbox) public enum ServiceIconError: Error, Sendable, Hashable {
    /// The URL is not `http` or `https`.
    case notAWebURL
    /// The transport failed.
    case transport(ConnectAPIError)
    /// The server answered with a status other than 200.
    case status(Int)
    /// The body is larger than ``ServiceIconLoader/maximumIconBytes``.
    case tooLarge
    /// The body is not a PNG, JPEG, GIF or SVG image.
    case notAnImage
    /// The body is an image the platforms cannot decode (`UIImage(data:)` does not read SVG): IFTTT serves PNG.
    case undecodable(ConnectButtonIconImage.Format)
}

/// Loads service icons through the SDK's own ``HTTPTransport`` (so tests, the sandbox and a host's own transport
/// see every request) and caches them in memory and on disk, each cache with a size bound; least recently used
/// icons go first. 2.8's image session kept 4 MiB in memory and 20 MiB on disk; these are the defaults.
///
/// ```swift
/// let loader = ServiceIconLoader(transport: URLSessionTransport())
/// if case .success(let icon) = await loader.icon(for: url) { show(icon) }
/// ```
@_spi(Sandbox) public final class ServiceIconLoader: Sendable {
    /// The transport icons are requested through.
    public let transport: any HTTPTransport
    /// The folder of the disk cache, or `nil` for none.
    public let cacheDirectory: URL?
    /// The most bytes the memory cache keeps.
    public let memoryLimit: Int
    /// The most bytes the disk cache keeps.
    public let diskLimit: Int
    /// The largest icon accepted, in bytes.
    public let maximumIconBytes: Int

    private struct Memory {
        var entries: [URL: ConnectButtonIconImage] = [:]
        var order: [URL] = []
        var bytes = 0
    }

    private let memory = Locked(Memory())
    /// Serializes writing and trimming the disk cache.
    private let disk = Locked(())

    /// The default disk cache: `IFTTTConnectSDK/icons` in the user's caches folder.
    public static var defaultCacheDirectory: URL? {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
            .appendingPathComponent("IFTTTConnectSDK", isDirectory: true)
            .appendingPathComponent("icons", isDirectory: true)
    }

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - transport: The transport requests go through.
    ///   - cacheDirectory: The disk cache's folder; `nil` keeps icons in memory only.
    ///   - memoryLimit: The memory cache's bound in bytes (4 MiB).
    ///   - diskLimit: The disk cache's bound in bytes (20 MiB).
    ///   - maximumIconBytes: The largest icon accepted (1 MiB).
    public init(
        transport: any HTTPTransport, cacheDirectory: URL? = ServiceIconLoader.defaultCacheDirectory,
        memoryLimit: Int = 4 * 1024 * 1024, diskLimit: Int = 20 * 1024 * 1024, maximumIconBytes: Int = 1024 * 1024
    ) {
        self.transport = transport
        self.cacheDirectory = cacheDirectory
        self.memoryLimit = max(0, memoryLimit)
        self.diskLimit = max(0, diskLimit)
        self.maximumIconBytes = max(1, maximumIconBytes)
    }

    /// The icon for `url` if the memory or disk cache has it; never touches the network.
    ///
    /// - Parameter url: The icon's URL.
    /// - Returns: The cached icon, or `nil`.
    public func cachedIcon(for url: URL) -> ConnectButtonIconImage? {
        if let hit = memory.withLock({ state -> ConnectButtonIconImage? in
            guard let hit = state.entries[url] else { return nil }
            state.order.removeAll { $0 == url }
            state.order.append(url)
            return hit
        }) {
            return hit
        }
        guard let file = diskURL(for: url), let data = try? Data(contentsOf: file),
            let icon = ConnectButtonIconImage(url: url, data: data), icon.format.isBitmap
        else { return nil }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        remember(icon)
        return icon
    }

    /// The icon for `url`: from the caches, else loaded through the transport and cached.
    ///
    /// - Parameter url: The icon's URL (`http` or `https`).
    /// - Returns: The icon, or why it could not be loaded.
    public func icon(for url: URL) async -> Result<ConnectButtonIconImage, ServiceIconError> {
        guard url.isWebURL else { return .failure(.notAWebURL) }
        if let cached = cachedIcon(for: url) { return .success(cached) }
        let response: HTTPResponse
        do throws(ConnectAPIError) {
            response = try await transport.send(HTTPRequest(method: "GET", url: url, headers: ["Accept": "image/*"]))
        } catch {
            return .failure(.transport(error))
        }
        guard response.statusCode == 200 else { return .failure(.status(response.statusCode)) }
        guard response.body.count <= maximumIconBytes else { return .failure(.tooLarge) }
        guard let icon = ConnectButtonIconImage(url: url, data: response.body) else { return .failure(.notAnImage) }
        // What UIKit and SwiftUI could not draw is refused here, so the knob shows the monogram everywhere (and an
        // SVG render on Linux shows what the phone shows) instead of an icon the device would drop.
        guard icon.format.isBitmap else { return .failure(.undecodable(icon.format)) }
        remember(icon)
        store(icon)
        return .success(icon)
    }

    /// How many bytes the memory cache holds now.
    public var memoryBytes: Int { memory.withLock { $0.bytes } }

    /// How many bytes the disk cache holds now.
    public var diskBytes: Int { diskFiles().reduce(0) { $0 + $1.size } }

    // MARK: - Caches

    private func remember(_ icon: ConnectButtonIconImage) {
        let limit = memoryLimit
        memory.withLock { state in
            if let old = state.entries.removeValue(forKey: icon.url) {
                state.bytes -= old.data.count
                state.order.removeAll { $0 == icon.url }
            }
            guard icon.data.count <= limit else { return }
            state.entries[icon.url] = icon
            state.order.append(icon.url)
            state.bytes += icon.data.count
            while state.bytes > limit, let oldest = state.order.first {
                state.order.removeFirst()
                if let removed = state.entries.removeValue(forKey: oldest) { state.bytes -= removed.data.count }
            }
        }
    }

    private func store(_ icon: ConnectButtonIconImage) {
        guard let directory = cacheDirectory, let file = diskURL(for: icon.url), icon.data.count <= diskLimit else {
            return
        }
        disk.withLock { _ in
            let manager = FileManager.default
            try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
            guard (try? icon.data.write(to: file, options: .atomic)) != nil else { return }
            var files = diskFiles()
            var total = files.reduce(0) { $0 + $1.size }
            files.sort { $0.modified < $1.modified }
            for entry in files where total > diskLimit && entry.url != file {
                try? manager.removeItem(at: entry.url)
                total -= entry.size
            }
        }
    }

    private func diskFiles() -> [(url: URL, size: Int, modified: Date)] {
        guard let directory = cacheDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".icon") }.compactMap { name in
            let url = directory.appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            return (url, size, modified)
        }
    }

    /// The cache file of `url`: a 64-bit FNV-1a hash of the URL, so no part of it becomes a path.
    private func diskURL(for url: URL) -> URL? {
        guard let directory = cacheDirectory else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.absoluteString.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let name = String(hash, radix: 16)
        return directory.appendingPathComponent(String(repeating: "0", count: 16 - name.count) + name + ".icon")
    }
}
