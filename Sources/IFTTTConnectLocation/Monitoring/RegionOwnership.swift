import Foundation

/// The identifiers of the regions the SDK registered, kept in a small file so that a relaunch knows which of
/// the app's monitored regions are the SDK's and which are the host app's (whatever their names).
///
/// Writes are atomic (a temporary file renamed over the old one). A file that is missing or cannot be read
/// counts as empty: the SDK then leaves every region it finds alone.
@_spi(Sandbox) public struct RegionOwnershipFile: Sendable {
    /// The file.
    public let url: URL

    /// The file `regions-owned.json` in `directory`.
    public init(directory: URL) {
        self.url = directory.appendingPathComponent("regions-owned.json")
    }

    /// The saved identifiers; empty when there is no readable file.
    public func load() -> Set<String> {
        guard let data = try? Data(contentsOf: url),
            let identifiers = try? JSONDecoder().decode([String].self, from: data)
        else { return [] }
        return Set(identifiers)
    }

    /// Saves `identifiers`; returns `false` when the file could not be written.
    @discardableResult
    public func save(_ identifiers: Set<String>) -> Bool {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = try JSONEncoder().encode(identifiers.sorted())
            try data.write(to: url, options: .atomic)
            return true
        } catch {
            return false
        }
    }
}
