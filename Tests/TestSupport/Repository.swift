import Foundation

/// The repository's checkout, for tests that read committed files (fixtures, fuzz corpora, the CHANGELOG, DocC
/// articles, the privacy manifest): found from this file's own path, `Tests/TestSupport/Repository.swift`.
package enum Repository {
    /// The repository's root directory.
    package static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The file or directory at `path`, relative to the root (`"Tests/Fixtures"`).
    ///
    /// - Parameter path: A path relative to the repository's root.
    /// - Returns: Its file URL.
    package static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }
}
