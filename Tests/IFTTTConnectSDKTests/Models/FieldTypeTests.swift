import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

@Suite("Field types keep the API's names")
struct FieldTypeTests {
    static let named: [(FieldType, String)] = [
        (.locationEnter, "LOCATION_ENTER"), (.locationExit, "LOCATION_EXIT"),
        (.locationEnterAndExit, "LOCATION_ENTER_AND_EXIT"), (.locationEnterOrExit, "LOCATION_ENTER_OR_EXIT"),
        (.locationRadius, "LOCATION_RADIUS"), (.locationPoint, "LOCATION_POINT"), (.textField, "TEXT_FIELD"),
        (.collectionSelect, "COLLECTION_SELECT"), (.doubleCollectionSelect, "DOUBLE_COLLECTION_SELECT"),
        (.checkboxMulti, "CHECKBOX_MULTI"),
    ]

    @Test func everyNamedTypeRoundTripsThroughItsAPIName() {
        for (type, name) in Self.named {
            #expect(type.rawValue == name)
            #expect(FieldType(rawValue: name) == type)
        }
        #expect(Set(Self.named.map(\.0)).count == Self.named.count)
    }

    @Test func anUnknownNameIsKeptAsItIs() {
        let type = FieldType(rawValue: "SLIDER")
        #expect(type == .other("SLIDER"))
        #expect(type.rawValue == "SLIDER")
        #expect(type.isLocation == false)
        #expect(FieldType(rawValue: "LOCATION_ENTER").locationTransitions == .enter)
    }

    @Test func aDecodedFieldCarriesItsType() throws {
        let connection = try Connection.decode(from: Fixtures.data("android_connection.json"))
        let types = Set(
            connection.features.flatMap { feature in
                (feature.fields + feature.triggers.flatMap(\.fields) + feature.actions.flatMap(\.fields)).compactMap(
                    \.type)
            })
        #expect(types.isSuperset(of: [.locationEnter, .textField]))
    }
}
