// Test-only stub of Apple's CoreGraphics: only what the SDK's Apple adapters use. Not Apple's SDK; see README.md.
// CGFloat, CGPoint, CGSize and CGRect come from Foundation on Linux, as they do from CoreGraphics on Apple platforms.
@_exported import Foundation

/// https://developer.apple.com/documentation/coregraphics/cgcolor
public final class CGColor: @unchecked Sendable {
    /// https://developer.apple.com/documentation/coregraphics/cgcolor/init(gray:alpha:) (iOS 13+)
    public init(gray: CGFloat, alpha: CGFloat) {}
}

/// https://developer.apple.com/documentation/coregraphics/cglinecap
public enum CGLineCap: Int32, Sendable {
    case butt, round, square
}

/// https://developer.apple.com/documentation/coregraphics/cglinejoin
public enum CGLineJoin: Int32, Sendable {
    case miter, round, bevel
}

/// https://developer.apple.com/documentation/coregraphics/cgcontext
public final class CGContext {
    init() {}
    /// https://developer.apple.com/documentation/coregraphics/cgcontext/savegstate()
    public func saveGState() {}
    /// https://developer.apple.com/documentation/coregraphics/cgcontext/restoregstate()
    public func restoreGState() {}
    /// https://developer.apple.com/documentation/coregraphics/cgcontext/translateby(x:y:)
    public func translateBy(x tx: CGFloat, y ty: CGFloat) {}
    /// https://developer.apple.com/documentation/coregraphics/cgcontext/setshadow(offset:blur:color:)
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {}
    /// https://developer.apple.com/documentation/coregraphics/cgcontext/setalpha(_:)
    public func setAlpha(_ alpha: CGFloat) {}
}
