// libFuzzer entry points for the SDK module. scripts/fuzz.sh compiles Sources/IFTTTConnectCore with coverage,
// address sanitizer and -enable-testing, then this file (and the JSON differential of the SDK tests) against it:
// `@testable` reaches internal types such as RedirectURLMatcher without changing production code.
// FUZZ_TARGET selects the target: json, connection or redirect.
import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore

private enum Target: String {
    case json, connection, redirect
}

private let target: Target = {
    guard let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"], let target = Target(rawValue: name) else {
        fatalError("set FUZZ_TARGET to json, connection or redirect")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    switch target {
    case .json: fuzzJSON(data)
    case .connection: fuzzConnection(data)
    case .redirect: fuzzRedirect(data)
    }
    return 0
}

/// The SDK's parser never crashes, and it agrees with JSONSerialization (accept/reject and values); see
/// `JSONDifferential.swift` for the only tolerated differences. What it accepts, JSONValue's public Codable
/// path (JSONDecoder in, JSONEncoder out and back) reads as the same value, and the SDK's own writer round-trips
/// (`parse(serialize(v)) == v`, byte equal to JSONSerialization where both are defined); the input's bytes taken
/// as one string value round-trip too, so every generated input is also a generated string.
private func fuzzJSON(_ data: Data) {
    if let disagreement = JSONDifferential.compare(data) {
        fatalError("parser disagrees with JSONSerialization: \(disagreement)")
    }
    if let disagreement = JSONDifferential.compareCodable(data) {
        fatalError("parser disagrees with JSONValue's Codable path: \(disagreement)")
    }
    if let value = try? JSONParser().parse(data), let problem = JSONDifferential.compareRoundTrip(value) {
        fatalError("the writer does not round-trip: \(problem)")
    }
    if let problem = JSONDifferential.compareRoundTrip(.string(String(decoding: data, as: UTF8.self))) {
        fatalError("the writer does not round-trip a string: \(problem)")
    }
}

/// Decoding a Connection from any bytes either succeeds or throws a typed error; a decoded Connection
/// survives a second decode of the same bytes unchanged.
private func fuzzConnection(_ data: Data) {
    do {
        let first = try Connection.decode(from: data)
        let second = try Connection.decode(from: data)
        precondition(first == second, "decoding is not deterministic")
    } catch {
        precondition(!String(describing: error).isEmpty, "an error without a message")
    }
    if let json = try? JSONParser().parse(data) {
        _ = try? Connection.decode(json: json)
    }
}

/// Input: a configured redirect URL, a newline, a received URL. A URL the matcher accepts must really be a
/// redirect to the configured URL, carry a printable state, and never a token with an error outcome.
private func fuzzRedirect(_ data: Data) {
    let text = String(decoding: data, as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let configured = parts.count == 2 ? String(parts[0]) : "myapp://ifttt/redirect"
    let received = String(parts.last ?? "")
    guard let redirectURL = URL(string: configured), let url = URL(string: received) else { return }
    guard let matcher = RedirectURLMatcher(redirectURL: redirectURL) else { return }
    guard let candidate = matcher.candidate(for: url) else { return }
    let components = URLComponents(string: url.absoluteString)
    precondition(
        components?.scheme == matcher.scheme && components?.percentEncodedHost == matcher.host
            && components?.percentEncodedPath == matcher.path && components?.port == matcher.port,
        "accepted a redirect to another URL: \(url) for \(redirectURL)")
    precondition(components?.percentEncodedFragment == nil, "accepted a fragment: \(url)")
    precondition(url.absoluteString.utf8.count <= RedirectURLMatcher.maximumLength, "accepted an oversized URL")
    if let state = candidate.state {  // a redirect may carry no state (a server that does not echo it)
        precondition(
            !state.isEmpty && state.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F },
            "accepted a state that is not printable ASCII")
    }
    if case .complete(let token?) = candidate.outcome {
        precondition(token.value.utf8.count <= RedirectURLMatcher.maximumTokenLength, "accepted an oversized token")
    }
}
