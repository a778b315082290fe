// The work the benchmark suites and `InstructionCount` measure, shared so that both run exactly the same code: the
// decoding payloads and baselines, and the Connect Button render.
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The payloads, by name.
public func payloads() -> [(name: String, data: Data)] {
    var all: [(name: String, data: Data)] = []
    for name in ["ios_fetch_connection_response", "android_connection", "android_connection_enabled"] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url)
        else { fatalError("fixture \(name).json is missing from the Workloads bundle") }
        all.append((name, data))
    }
    all.append(("synthetic 200 features", SyntheticPayload.connection(features: 200)))
    return all
}

/// Throws unless the three decoders build the same Connection from `data`.
public func checkAgreement(_ data: Data, name: String) throws {
    let ours = try Connection.decode(from: data)
    for theirs in [try CodableBaseline.decode(data), try SerializationBaseline.decode(data)] {
        guard ours.id == theirs.id, ours.features.count == theirs.features.count,
            ours.services.count == theirs.services.count, ours.locationRegions == theirs.locationRegions,
            ours.userConnection?.userFeatures.count == theirs.userConnection?.userFeatures.count
        else { throw DecodersDisagree(payload: name) }
    }
}

/// The decoders built different Connections from one payload.
public struct DecodersDisagree: Error, CustomStringConvertible {
    /// The payload's name.
    public let payload: String
    /// What went wrong.
    public var description: String { "the decoders disagree on \(payload)" }
}
