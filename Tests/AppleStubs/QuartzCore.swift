// Test-only stub of Apple's QuartzCore: only what the SDK's Apple adapters use. Not Apple's SDK; see README.md.
@_exported import CoreGraphics

/// https://developer.apple.com/documentation/quartzcore/calayer
open class CALayer: NSObject {
    /// https://developer.apple.com/documentation/quartzcore/calayer/cornerradius
    open var cornerRadius: CGFloat = 0
}
