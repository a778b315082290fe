// Counts the Apple-only lines of the SDK's sources and how many of them the stub check compiles.
//
// It reads every `#if`/`#elseif`/`#else`/`#endif` of the Swift files under the given directory and evaluates each
// condition in four configurations:
//   linux  - a plain Linux build (canImport of Foundation, FoundationNetworking, FoundationXML, Glibc, Dispatch; os(Linux));
//   check  - the stub check: linux plus the stub frameworks and the condition IFTTT_APPLE_STUB_CHECK;
//   ios    - an iOS build: the Apple frameworks the SDK imports, Darwin, os(iOS);
//   macos  - a macOS build: the frameworks macOS has, Darwin, os(macOS).
// A line is Apple-only when an Apple configuration (ios or macos) compiles it and linux does not. The check passes
// when every Apple-only line of the iOS configuration is compiled by the check, apart from lines that only the C
// library selects (`canImport(Darwin)`, `os(Linux)` around socket and file calls), which no framework stub can make
// visible; those and the macOS-only lines are reported separately (with --verbose, line by line). Usage: apple-line-count SOURCES_DIR [--verbose]
import Foundation

struct Config {
    let name: String
    let modules: Set<String>
    let os: String
    let flags: Set<String>
}

let linuxModules: Set<String> = [
    "Foundation", "FoundationNetworking", "FoundationXML", "FoundationEssentials", "Glibc", "Dispatch",
]
let stubModules: Set<String> = [
    "CoreGraphics", "QuartzCore", "UIKit", "Combine", "SwiftUI", "CoreLocation", "BackgroundTasks",
    "AuthenticationServices", "Security",
]
let linux = Config(name: "linux", modules: linuxModules, os: "Linux", flags: [])
let check = Config(
    name: "check", modules: linuxModules.union(stubModules), os: "Linux", flags: ["IFTTT_APPLE_STUB_CHECK"])
let iosFrameworks = stubModules.union(["Foundation", "Dispatch", "ObjectiveC"])
let ios = Config(name: "ios", modules: iosFrameworks.union(["Darwin"]), os: "iOS", flags: [])
let macos = Config(
    name: "macos",
    modules: [
        "Foundation", "Dispatch", "ObjectiveC", "Darwin", "AppKit", "SwiftUI", "CoreLocation",
        "AuthenticationServices", "Security", "CoreGraphics", "QuartzCore",
    ],
    os: "macOS", flags: [])
let configs = [linux, check, ios, macos]

/// How `#if` reads in a configuration: its OS, the modules it can import and its compilation conditions; every
/// architecture is there and no simulator.
func evaluate(_ condition: String, in config: Config) -> Bool {
    let build = BuildConditions(
        os: { $0 == config.os ? .yes : .no }, canImport: { config.modules.contains($0) ? .yes : .no },
        flag: { config.flags.contains($0) ? .yes : .no }, arch: .yes, targetEnvironment: .no)
    return build.evaluate(condition) == .yes
}

/// One open `#if` block: the conditions seen so far and whether an earlier branch was taken, per configuration.
struct Block {
    var taken: [String: Bool]
    var active: [String: Bool]
    var conditions: [String]
}

/// Whether a condition tests only the C library, the kernel or the Objective-C runtime (Darwin, Glibc, Musl, Linux,
/// ObjectiveC), not a framework or an Apple OS: lines chosen by such a condition differ between Darwin's libc and
/// Glibc, or need the Objective-C runtime (`@objc` targets of a `CADisplayLink`), which no stub can bridge;
/// scripts/check-ios-sdk.sh compiles them against Apple's SDK.
func isLibcCondition(_ condition: String) -> Bool {
    let libc = [
        "canImport(Darwin)", "canImport(Glibc)", "canImport(Musl)", "canImport(Android)", "os(Linux)", "os(Android)",
        "canImport(ObjectiveC)",
    ]
    var rest = condition
    for term in libc { rest = rest.replacingOccurrences(of: term, with: "") }
    return rest.allSatisfy { "!&|() \t".contains($0) }
}

@main
enum AppleLineCount {
    static func main() {
        let verbose = CommandLine.arguments.contains("--verbose")
        guard let rootPath = CommandLine.arguments.dropFirst().first(where: { !$0.hasPrefix("--") }) else {
            FileHandle.standardError.write(Data("usage: apple-line-count SOURCES_DIR [--verbose]\n".utf8))
            exit(2)
        }
        let root = URL(fileURLWithPath: rootPath)
        var files: [URL] = []
        if let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where url.pathExtension == "swift" && !url.path.contains(".docc/") {
                files.append(url)
            }
        }
        files.sort { $0.path < $1.path }

        var appleOnly = 0  // iOS lines (frameworks and os conditions) that Linux does not compile
        var compiled = 0  // of those, compiled by the check
        var darwinOnly = 0  // iOS lines that only canImport(Darwin) selects
        var macOnly = 0  // lines only macOS compiles
        var missing: [String] = []
        var darwinLines: [String] = []
        var macLines: [String] = []

        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            var stack: [Block] = []
            let relative = file.path.replacingOccurrences(of: root.deletingLastPathComponent().path + "/", with: "")
            for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
                let line = rawLine.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("#if ") || line.hasPrefix("#elseif ") || line == "#else" || line.hasPrefix("#else ")
                    || line.hasPrefix("#endif")
                {
                    if line.hasPrefix("#if ") {
                        let condition = String(line.dropFirst(4))
                        var block = Block(taken: [:], active: [:], conditions: [condition])
                        for config in configs {
                            let value = evaluate(condition, in: config)
                            block.active[config.name] = value
                            block.taken[config.name] = value
                        }
                        stack.append(block)
                    } else if line.hasPrefix("#elseif ") {
                        let condition = String(line.dropFirst(8))
                        guard var block = stack.popLast() else { continue }
                        block.conditions.append(condition)
                        for config in configs {
                            let value = !(block.taken[config.name] ?? false) && evaluate(condition, in: config)
                            block.active[config.name] = value
                            block.taken[config.name] = (block.taken[config.name] ?? false) || value
                        }
                        stack.append(block)
                    } else if line.hasPrefix("#else") {
                        guard var block = stack.popLast() else { continue }
                        for config in configs { block.active[config.name] = !(block.taken[config.name] ?? false) }
                        stack.append(block)
                    } else {
                        _ = stack.popLast()
                    }
                    continue
                }
                if stack.isEmpty || line.isEmpty || line.hasPrefix("//") { continue }
                func on(_ config: Config) -> Bool { stack.allSatisfy { $0.active[config.name] ?? false } }
                let location = "\(relative):\(index + 1): \(line)"
                if on(linux) { continue }
                if on(ios) {
                    let differing = stack.filter { ($0.active[check.name] ?? false) != ($0.active[ios.name] ?? false) }
                    if on(check) {
                        appleOnly += 1
                        compiled += 1
                    } else if !differing.isEmpty && differing.allSatisfy({ $0.conditions.allSatisfy(isLibcCondition) })
                    {
                        darwinOnly += 1
                        darwinLines.append(location)
                    } else {
                        appleOnly += 1
                        missing.append(location)
                    }
                } else if on(macos) {
                    macOnly += 1
                    macLines.append(location)
                }
            }
        }

        print("Apple-only lines compiled: \(compiled) of \(appleOnly)")
        print(
            "  not coverable by framework stubs: \(darwinOnly) lines chosen by the C library (Darwin vs Glibc) or the "
                + "Objective-C runtime, \(macOnly) macOS-only lines"
        )
        if verbose {
            for line in darwinLines { print("  darwin libc: \(line)") }
            for line in macLines { print("  macOS only:  \(line)") }
        }
        if !missing.isEmpty {
            print(
                "Apple-only lines the check does not compile (add `|| IFTTT_APPLE_STUB_CHECK` to their os() condition):"
            )
            for line in missing { print("  \(line)") }
            exit(1)
        }
    }
}
