import ArgumentParser
import Foundation

/// A secret the CLI takes (a service key, a user or access token, an OAuth code, a partner session), from an environment variable, a
/// file or its flag, in that order of safety.
///
/// A process's arguments can be read by every user of the machine (`ps`, `/proc/PID/cmdline`), so the flag works
/// but prints a warning to standard error. An environment variable (`/proc/PID/environ` is readable by the same
/// user only) and a file (`--…-file PATH`, `-` for standard input) do not show. The flag wins over the file, the
/// file over the variable; giving both the flag and its file is a usage error.
struct SecretInput: Sendable {
    /// The flag, e.g. `--service-key`.
    let flag: String
    /// The environment variable, e.g. `IFTTT_SERVICE_KEY`.
    let variable: String

    /// The file flag: `--service-key-file`.
    var fileFlag: String { flag + "-file" }

    /// `IFTTT_SERVICE_KEY, --service-key-file or --service-key`: the ways to give it, safest first.
    var ways: String { "\(variable), \(fileFlag) or \(flag)" }

    static let serviceKey = SecretInput(flag: "--service-key", variable: "IFTTT_SERVICE_KEY")
    static let accessToken = SecretInput(flag: "--access-token", variable: "IFTTT_ACCESS_TOKEN")
    static let userToken = SecretInput(flag: "--token", variable: "IFTTT_USER_TOKEN")
    static let oauthCode = SecretInput(flag: "--code", variable: "IFTTT_OAUTH_CODE")
    static let partnerSession = SecretInput(flag: "--partner-session", variable: "IFTTT_PARTNER_SESSION")

    /// The help of the flag: `what`, then where else it can come from.
    func flagHelp(_ what: String, valueName: String) -> ArgumentHelp {
        ArgumentHelp(
            "\(what) Visible to every local user on the command line: prefer \(variable) or \(fileFlag).",
            valueName: valueName)
    }

    /// The help of the file flag.
    var fileHelp: ArgumentHelp {
        ArgumentHelp("Read \(flag) from this file (- for standard input).", valueName: "file")
    }

    /// Whether any way of giving it was used: the flag, the file or a non-empty variable.
    func isGiven(value: String?, file: String?, environment: [String: String]) -> Bool {
        value != nil || file != nil || environment[variable]?.isEmpty == false
    }

    /// A usage error when both the flag and its file are given.
    func checkExclusive(value: String?, file: String?) throws {
        if value != nil && file != nil { throw ValidationError("give \(flag) or \(fileFlag), not both") }
    }

    /// The secret: the flag's value (with a warning), the file's first line, or the variable; `nil` when none is
    /// given.
    ///
    /// - Parameters:
    ///   - value: The flag's value.
    ///   - file: The file flag's path.
    ///   - environment: The process environment.
    ///   - readInput: Reads standard input (for `-`).
    ///   - warning: Receives the warnings (standard error by default).
    /// - Throws: `ValidationError` for both forms at once, an unreadable file or an empty secret.
    func resolve(
        value: String?, file: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        readInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() },
        warning: (String) -> Void = warn
    ) throws -> String? {
        try checkExclusive(value: value, file: file)
        if let value {
            warning(
                "warning: \(flag) puts a secret on the command line, where every local user can read it (ps, "
                    + "/proc/PID/cmdline); use \(variable) or \(fileFlag) instead")
            guard !value.isEmpty else { throw ValidationError("\(flag) must not be empty") }
            return value
        }
        if let file {
            let secret = try read(file, readInput: readInput, warning: warning)
            guard !secret.isEmpty else { throw ValidationError("\(fileFlag) \(file) holds no \(flag)") }
            return secret
        }
        if let secret = environment[variable], !secret.isEmpty { return secret }
        return nil
    }

    /// The first line of `path` (or of standard input for `-`), without surrounding white space.
    private func read(_ path: String, readInput: () -> Data, warning: (String) -> Void) throws -> String {
        let data: Data
        if path == "-" {
            data = readInput()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ValidationError("cannot read \(fileFlag) \(path): \((error as NSError).localizedDescription)")
            }
            let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
            if mode & 0o077 != 0 {
                warning(
                    "warning: \(path) can be read by other users (mode \(String(mode & 0o777, radix: 8))); "
                        + "chmod 600 it")
            }
        }
        let text = String(decoding: data, as: UTF8.self)
        let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return firstLine.trimmingCharacters(in: .whitespaces)
    }
}
