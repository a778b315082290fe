import Foundation

/// Errors the sandbox reports before or while it starts: bad configuration, unusable seed files, database problems.
///
/// Errors that happen while answering a request are not `SandboxError`s; they become IFTTT error envelopes
/// (see ``APIError``).
public enum SandboxError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// A ``SandboxConfiguration`` value is out of range. `parameter` names the property.
    case invalidConfiguration(parameter: String, message: String)
    /// The seed file does not exist or cannot be read.
    case seedFileNotFound(path: String)
    /// The seed file is not valid JSON, or does not have the shape of the seed format.
    /// `problem` says what is wrong and where (a JSON path such as `connections[0].features[1].id`).
    case malformedSeedFile(path: String, problem: String)
    /// The seed data is well-formed JSON but inconsistent, e.g. it references an unknown service or user.
    /// `source` is the seed file's path, or `"built-in demo seed"`.
    case invalidSeedData(source: String, problem: String)
    /// The SQLite database could not be opened, created or migrated.
    case database(path: String, message: String)
    /// The HTTP server did not start (for example, the port is already in use).
    case serverDidNotStart(String)

    /// A sentence describing the error, naming the offending file, parameter or value.
    public var description: String {
        switch self {
        case .invalidConfiguration(let parameter, let message):
            return "Invalid sandbox configuration: \(parameter) \(message)"
        case .seedFileNotFound(let path):
            return "Seed file not found or unreadable: \(path)"
        case .malformedSeedFile(let path, let problem):
            return "Malformed seed file \(path): \(problem)"
        case .invalidSeedData(let source, let problem):
            return "Invalid seed data in \(source): \(problem)"
        case .database(let path, let message):
            return "Sandbox database \(path): \(message)"
        case .serverDidNotStart(let message):
            return "The sandbox server did not start: \(message)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
