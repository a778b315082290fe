import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing

/// `RecordingTransport` keeps no typed-throws function type in a stored property: reflecting such a property needs the
/// Swift runtime's `swift_getExtendedFunctionTypeMetadata`, which iOS has only from 18 and which the compiler calls
/// unguarded, so `dump` or `Mirror` of a transport would crash on iOS 13-17 (scripts/check-ios-sdk.sh finds the symbol
/// in the linked products; scripts/checks/45-ios-availability.sh finds the declaration without the SDK).
@Suite("RecordingTransport reflection")
struct RecordingTransportReflectionTests {
    @Test func noStoredPropertyHasATypedThrowsFunctionType() {
        let transport = RecordingTransport { _ throws(ConnectAPIError) in throw .timedOut }
        let types = Mirror(reflecting: transport).children.map { String(describing: type(of: $0.value)) }
        #expect(types.count >= 2)
        #expect(!types.contains { $0.contains("throws(") }, "stored property types: \(types)")
    }

    @Test func theAnswerStillThrowsItsTypedError() async {
        let transport = RecordingTransport { _ throws(ConnectAPIError) in throw .timedOut }
        let request = HTTPRequest(method: "GET", url: URL(string: "https://connect.ifttt.test/v2/me")!)
        await #expect(throws: ConnectAPIError.timedOut) { _ = try await transport.send(request) }
        #expect(transport.requests.count == 1)
    }
}
