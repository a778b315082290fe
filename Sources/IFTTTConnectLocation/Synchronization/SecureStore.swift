import Foundation
#if canImport(Security)
import Security
#endif

/// The port for secrets at rest: the IFTTT user token and invite code that background synchronization uses.
///
/// Adapters: ``FileSecureStore`` (portable: one 0600 file per key in a 0700 directory) and, where the
/// Security framework exists, `KeychainSecureStore`, the default there.
@_spi(Sandbox) public protocol SecureStore: Sendable {
    /// The data stored for `key`, or `nil`.
    ///
    /// - Throws: ``LocationError`` with ``LocationError/Code/storage`` when the store cannot be read.
    func data(for key: String) throws(LocationError) -> Data?
    /// Stores `data` for `key`, replacing any value; `nil` deletes it.
    ///
    /// - Throws: ``LocationError`` with ``LocationError/Code/storage`` when the store cannot be written.
    func setData(_ data: Data?, for key: String) throws(LocationError)
}

/// A ``SecureStore`` that keeps each key in its own file, mode 0600, in a 0700 directory (the Linux default).
///
/// Files are written atomically; on iOS they get `completeUntilFirstUserAuthentication` protection.
@_spi(Sandbox) public struct FileSecureStore: SecureStore {
    /// The directory of the files.
    public let directory: URL

    /// Creates a store in `directory` (created on the first write).
    public init(directory: URL) {
        self.directory = directory
    }

    private func url(for key: String) -> URL {
        let safe = key.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "." ? String($0) : "-"
        }.joined()
        return directory.appendingPathComponent(safe + ".secret")
    }

    /// The file's contents, or `nil` when it does not exist.
    public func data(for key: String) throws(LocationError) -> Data? {
        let file = url(for: key)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do { return try Data(contentsOf: file) } catch {
            throw LocationError(
                .storage, "cannot read a secret (\((error as NSError).domain) \((error as NSError).code))")
        }
    }

    /// Writes the file atomically with mode 0600, or deletes it for `nil`.
    public func setData(_ data: Data?, for key: String) throws(LocationError) {
        let file = url(for: key)
        guard let data else {
            if FileManager.default.fileExists(atPath: file.path) {
                do { try FileManager.default.removeItem(at: file) } catch {
                    throw LocationError(
                        .storage, "cannot delete a secret (\((error as NSError).domain) \((error as NSError).code))")
                }
            }
            return
        }
        try ProtectedFile.write(data, to: file)
    }
}

#if canImport(Security)
/// A ``SecureStore`` backed by the Keychain: generic passwords with a service name, readable after the first
/// unlock on this device only (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`), so background
/// synchronization can read them and backups do not carry them to another device.
@_spi(Sandbox) public struct KeychainSecureStore: SecureStore {
    /// The `kSecAttrService` of the items.
    public let service: String

    /// Creates a store for `service`.
    public init(service: String = "com.ifttt.connect.synchronization") {
        self.service = service
    }

    private func query(_ key: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: key,
        ]
    }

    /// `SecItemCopyMatching`.
    public func data(for key: String) throws(LocationError) -> Data? {
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess: return result as? Data
        case errSecItemNotFound: return nil
        default: throw LocationError(.storage, "the Keychain answered \(status)")
        }
    }

    /// `SecItemUpdate`, else `SecItemAdd`; `SecItemDelete` for `nil`.
    public func setData(_ data: Data?, for key: String) throws(LocationError) {
        guard let data else {
            let status = SecItemDelete(query(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw LocationError(.storage, "the Keychain answered \(status)")
            }
            return
        }
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            var add = query(key)
            add.merge(attributes) { _, new in new }
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw LocationError(.storage, "the Keychain answered \(status)") }
    }
}
#endif

/// Writes small files atomically, mode 0600, in a 0700 directory, with background-readable protection on iOS.
enum ProtectedFile {
    static func write(_ data: Data, to url: URL) throws(LocationError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try data.write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw LocationError(
                .storage,
                "cannot write \(url.lastPathComponent) (\((error as NSError).domain) \((error as NSError).code))")
        }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
            ofItemAtPath: url.path)
        #endif
    }

    static func read(_ url: URL) throws(LocationError) -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do { return try Data(contentsOf: url) } catch {
            throw LocationError(
                .storage,
                "cannot read \(url.lastPathComponent) (\((error as NSError).domain) \((error as NSError).code))")
        }
    }
}

/// The credentials background synchronization uses, bound to this installation.
///
/// The Keychain outlives an app's deletion, the storage directory does not. Each saved credential carries the
/// installation id kept in the storage directory; a credential saved by an earlier installation is ignored
/// and deleted. Nothing is ever reset on `activate`, so `setup(with:)` followed by `activate` on a fresh
/// install keeps the token just given (spec W-9).
struct CredentialVault {
    struct Saved: Codable, Equatable {
        var installation: String
        var userToken: String?
        var inviteCode: String?
    }

    static let key = "sync_credentials"
    let store: any SecureStore
    let installationFile: URL
    private var cached: Saved??

    init(store: any SecureStore, directory: URL) {
        self.store = store
        self.installationFile = directory.appendingPathComponent("installation")
    }

    private func installationId(create: Bool) -> String? {
        if let data = try? ProtectedFile.read(installationFile), let id = String(data: data, encoding: .utf8),
            !id.isEmpty
        {
            return id
        }
        guard create else { return nil }
        let id = UUID().uuidString
        try? ProtectedFile.write(Data(id.utf8), to: installationFile)
        return id
    }

    /// The saved credentials of this installation.
    mutating func read() -> Saved? {
        if let cached { return cached }
        var value: Saved?
        if let data = try? store.data(for: Self.key), let saved = try? JSONDecoder().decode(Saved.self, from: data) {
            if saved.installation == installationId(create: false) {
                value = saved
            } else {
                try? store.setData(nil, for: Self.key)  // left by an earlier installation
            }
        }
        cached = .some(value)
        return value
    }

    /// Saves credentials for this installation; `nil` values delete the saved ones.
    mutating func write(userToken: String?, inviteCode: String?) throws(LocationError) {
        guard userToken?.isEmpty == false || inviteCode?.isEmpty == false else {
            try clear()
            return
        }
        let saved = Saved(
            installation: installationId(create: true) ?? "", userToken: userToken, inviteCode: inviteCode)
        let data: Data
        do { data = try JSONEncoder().encode(saved) } catch {
            throw LocationError(.storage, "cannot encode credentials")
        }
        try store.setData(data, for: Self.key)
        cached = .some(saved)
    }

    /// Deletes the saved credentials.
    mutating func clear() throws(LocationError) {
        cached = .some(nil)
        try store.setData(nil, for: Self.key)
    }
}
