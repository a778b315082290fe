// The work the benchmark suites and `InstructionCount` measure, shared so that both run exactly the same code: the
// decoding payloads and baselines, and the Connect Button render.
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The payloads, by name: every Connection fixture of the tests (`Tests/Fixtures`, copied into `Fixtures`), a
/// complete Connection in the shape of the decoding table tests (value propositions, a cover image, two services, a
/// location feature and three location triggers of the user), and a synthetic Connection with 500 features.
public func payloads() -> [(name: String, data: Data)] {
    var all: [(name: String, data: Data)] = []
    for name in ["ios_fetch_connection_response", "android_connection", "android_connection_enabled"] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url)
        else { fatalError("fixture \(name).json is missing from the Workloads bundle") }
        all.append((name, data))
    }
    all.append(("value propositions", Data(completeConnection.utf8)))
    all.append(("synthetic 500 features", SyntheticPayload.connection(features: 500)))
    return all
}

/// Every key the decoding table tests name, once (`DecodingTableTests.payload()`).
private let completeConnection = #"""
    {"type":"connection","id":"gx-arrive-store","name":"Show my list","description":"When I arrive",
     "url":"https://ifttt.com/connect/gx-arrive-store","user_status":"enabled","enabled_count":12,
     "embedded_url":"https://ifttt.com/embed/gx",
     "services":[
      {"service_id":"grocery_express","service_name":"Grocery Express","service_short_name":"Grocery",
       "is_primary":true,"monochrome_icon_url":"https://assets.example/gx-mono.png",
       "color_icon_url":"https://assets.example/gx.png","brand_color":"#1BAF5D","url":"https://ifttt.com/grocery_express"},
      {"service_id":"location","service_name":"Location","service_short_name":"Location","is_primary":false,
       "monochrome_icon_url":"https://assets.example/loc-mono.png","brand_color":"#0099FF",
       "url":"https://ifttt.com/location"}],
     "cover_image":{"480w_url":"https://assets.example/c480.png","1440w_url":"https://assets.example/c1440.png"},
     "value_propositions":[{"description":"Your list at the door","icon_url":"https://assets.example/vp.png"}],
     "features":[{"id":"feature-1","title":"Arrive","description":"Show the list","icon_url":"https://assets.example/f.png",
       "feature_triggers":[{"id":"ft-1","trigger_id":"enter_region","service_id":"location",
         "fields":[{"id":"location","type":"LOCATION_ENTER","default_value":{"lat":37.78,"lng":-122.41,"radius":100,
           "address":"1 Main St","description":"Store","zoom":15}}]}]}],
     "user_connection":{"user_features":[{"id":"uf-1","feature_id":"feature-1","enabled":true,
       "user_feature_triggers":[
        {"id":"ut-1","feature_trigger_id":"ft-1","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER",
          "value":{"lat":37.70,"lng":-122.4,"radius":150,"address":"1 Main St","description":"Store","zoom":15}}]},
        {"id":"ut-2","feature_trigger_id":"ft-1","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER",
          "value":{"lat":37.71,"lng":-122.4,"radius":150,"address":"1 Main St","description":"Store","zoom":15}}]},
        {"id":"ut-3","feature_trigger_id":"ft-1","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER",
          "value":{"lat":37.72,"lng":-122.4,"radius":150,"address":"1 Main St","description":"Store","zoom":15}}]}]}]}}
    """#

/// Throws unless the three decoders read the same Connection from `data`: the Codable baseline builds the SDK's
/// model (compared on its id, the counts of its parts and its regions); 2.8's path builds its own, compared on what
/// both read (id, primary service, the regions of the user's location triggers).
public func checkAgreement(_ data: Data, name: String) throws {
    let ours = try Connection.decode(from: data)
    let codable = try CodableBaseline.decode(data)
    guard ours.id == codable.id, ours.features.count == codable.features.count,
        ours.services.count == codable.services.count,
        ours.valuePropositions.count == codable.valuePropositions.count,
        ours.locationRegions == codable.locationRegions,
        ours.userConnection?.userFeatures.count == codable.userConnection?.userFeatures.count
    else { throw DecodersDisagree(payload: name, baseline: "Codable") }
    guard let legacy = Legacy28Baseline.decode(data), legacy.id == ours.id,
        legacy.primaryService.id == ours.primaryService.id,
        Set(legacy.activeUserTriggers.map(\.identifier)) == Set(ours.locationRegions.map(\.identifier))
    else { throw DecodersDisagree(payload: name, baseline: "2.8's parser") }
}

/// The decoders built different Connections from one payload.
public struct DecodersDisagree: Error, CustomStringConvertible {
    /// The payload's name.
    public let payload: String
    /// The baseline that disagrees with the SDK.
    public let baseline: String
    /// What went wrong.
    public var description: String { "the SDK and \(baseline) disagree on \(payload)" }
}
