#if canImport(UIKit) && !os(watchOS)
import UIKit

extension Connection {
    /// The best cover image for a layout `estimatedLayoutWidth` points wide at the current display scale
    /// (ConnectSDK-iOS 2.8's `coverImage(for:)` with its default scale).
    ///
    /// - Parameter estimatedLayoutWidth: The width of the image's container, in points.
    /// - Returns: The cover image.
    @MainActor
    public func coverImage(for estimatedLayoutWidth: CGFloat) -> CoverImage? {
        let scale = UITraitCollection.current.displayScale
        return coverImage(for: estimatedLayoutWidth, scale: scale > 0 ? scale : 2)
    }
}
#endif
