// A SwiftUI app file that imports the SDK keeps meaning SwiftUI's `Color` when it writes `Color`
// (the SDK's own colour type is ConnectColor). Checked with the SwiftUI stub by scripts/check-apple.sh.
import Foundation
import IFTTTConnectSDK

#if canImport(SwiftUI)
import SwiftUI

func tint(for connection: Connection) -> Color {
    let brand: ConnectColor? = connection.connectingService.brandColorValue
    return brand == nil ? Color.secondary : Color.black
}
#endif

func brandHex(for connection: Connection) -> String {
    return connection.connectingService.brandColorValue?.hex ?? "#000000"
}
