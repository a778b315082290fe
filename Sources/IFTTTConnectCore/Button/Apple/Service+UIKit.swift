#if canImport(UIKit) && !os(watchOS)
import UIKit

extension Connection.Service {
    /// The service's brand colour, as in ConnectSDK-iOS 2.8: black when IFTTT sent none or an invalid one.
    /// ``brandColorValue`` gives the same colour as sRGB components, or `nil`.
    public var brandColor: UIColor {
        brandColorValue.map { UIColor($0) } ?? .black
    }
}
#endif
