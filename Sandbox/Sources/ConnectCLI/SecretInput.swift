import ArgumentParser
import Foundation

/// A secret the CLI takes (a service key, a user or access token, an OAuth code, a partner session), from an
/// environment variable or a file, never from the command line.
///
/// A process's arguments can be read by every user of the machine (`ps`, `/proc/PID/cmdline`): another local user
/// who reads a code or a session there can redeem it first or ask the partner's backend with it. So the secret
/// flags (`--code`, `--partner-session`, `--service-key`, `--access-token`, `--token`) are gone: each is still
/// recognised, only to stop with a usage error that names the variable and the file flag to use instead. An
/// environment variable (`/proc/PID/environ` is readable by the same user only) and a file (`--…-file PATH`, `-` for
/// standard input) do not show. The file wins over the variable.
struct SecretInput: Sendable {
    /// The removed flag, e.g. `--service-key`.
    let flag: String
    /// The environment variable, e.g. `IFTTT_SERVICE_KEY`.
    let variable: String
    /// What the secret is, e.g. `service key`.
    let what: String

    /// The file flag: `--service-key-file`.
    var fileFlag: String { flag + "-file" }

    /// `IFTTT_SERVICE_KEY or --service-key-file`: the ways to give it.
    var ways: String { "\(variable) or \(fileFlag)" }

    static let serviceKey = SecretInput(flag: "--service-key", variable: "IFTTT_SERVICE_KEY", what: "service key")
    static let accessToken = SecretInput(
        flag: "--access-token", variable: "IFTTT_ACCESS_TOKEN", what: "OAuth access token")
    static let userToken = SecretInput(flag: "--token", variable: "IFTTT_USER_TOKEN", what: "IFTTT user token")
    static let oauthCode = SecretInput(flag: "--code", variable: "IFTTT_OAUTH_CODE", what: "partner OAuth code")
    static let partnerSession = SecretInput(
        flag: "--partner-session", variable: "IFTTT_PARTNER_SESSION", what: "partner session")

    /// Every secret the CLI takes.
    static let all = [serviceKey, accessToken, userToken, oauthCode, partnerSession]

    /// The help of the removed flag: hidden, it exists only to explain itself.
    static let removedFlagHelp = ArgumentHelp.hidden

    /// The help of the file flag.
    var fileHelp: ArgumentHelp {
        ArgumentHelp("Read the \(what) from this file (- for standard input); or set \(variable).", valueName: "file")
    }

    /// The usage error for the removed flag.
    var removedFlagMessage: String {
        "\(flag) is not accepted: every local user can read a command line (ps, /proc/PID/cmdline). "
            + "Give the \(what) in \(variable) or \(fileFlag) FILE (- for standard input)."
    }

    /// A usage error naming the variable and the file flag when the removed flag was given.
    func refuse(_ flagValue: String?) throws {
        if flagValue != nil { throw ValidationError(removedFlagMessage) }
    }

    /// Whether any way of giving it was used: the file or a non-empty variable.
    func isGiven(file: String?, environment: [String: String]) -> Bool {
        file != nil || environment[variable]?.isEmpty == false
    }

    /// The secret: the file's first line, or the variable; `nil` when neither is given.
    ///
    /// - Parameters:
    ///   - file: The file flag's path.
    ///   - environment: The process environment.
    ///   - readInput: Reads standard input (for `-`).
    ///   - warning: Receives the warnings (standard error by default).
    /// - Throws: `ValidationError` for an unreadable file or an empty secret.
    func resolve(
        file: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        readInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() },
        warning: (String) -> Void = warn
    ) throws -> String? {
        if let file {
            let secret = try read(file, readInput: readInput, warning: warning)
            guard !secret.isEmpty else { throw ValidationError("\(fileFlag) \(file) holds no \(what)") }
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
                throw ValidationError("cannot read \(fileFlag) \(path): \(FileProblem.reading(path))")
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
