// Test-only stub of Apple's UIKit: exactly the declarations the SDK's UIKit adapters, the example apps and the
// seed snippets use, with the signatures, optionality and main-actor isolation of Apple's documentation (the page
// is beside each declaration). Bodies do nothing: the check compiles against this module, it never runs it.
// Not Apple's SDK: it proves type-correctness against the API as declared here, not runtime behaviour.
// `@available` annotations for iOS are recorded for the reader; a Linux compiler does not enforce them.
@_exported import Foundation
@_exported import CoreGraphics
@_exported import QuartzCore

// MARK: - Responders, views, windows

/// https://developer.apple.com/documentation/uikit/uiresponder
@MainActor
open class UIResponder: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiresponder/next
    open var next: UIResponder? { nil }
    /// https://developer.apple.com/documentation/uikit/uiresponder/touchesbegan(_:with:)
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// https://developer.apple.com/documentation/uikit/uiresponder/touchesmoved(_:with:)
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// https://developer.apple.com/documentation/uikit/uiresponder/touchesended(_:with:)
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// https://developer.apple.com/documentation/uikit/uiresponder/touchescancelled(_:with:)
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// https://developer.apple.com/documentation/uikit/uiresponder/becomefirstresponder()
    @discardableResult open func becomeFirstResponder() -> Bool { false }
    /// https://developer.apple.com/documentation/uikit/uiresponder/resignfirstresponder()
    @discardableResult open func resignFirstResponder() -> Bool { false }
}

/// https://developer.apple.com/documentation/uikit/uievent
@MainActor
open class UIEvent: NSObject {}

/// https://developer.apple.com/documentation/uikit/uitouch
@MainActor
open class UITouch: NSObject {
    /// https://developer.apple.com/documentation/uikit/uitouch/location(in:)
    open func location(in view: UIView?) -> CGPoint { .zero }
    /// https://developer.apple.com/documentation/uikit/uitouch/timestamp
    open var timestamp: TimeInterval { 0 }
}

/// https://developer.apple.com/documentation/uikit/uigesturerecognizer
@MainActor
open class UIGestureRecognizer: NSObject {
    /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/view
    open var view: UIView? { nil }
}

/// https://developer.apple.com/documentation/uikit/uigesturerecognizerdelegate (its methods are optional; the stub
/// declares the one the SDK implements as a requirement with a default, as Swift protocols cannot mark it optional)
@MainActor
public protocol UIGestureRecognizerDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uigesturerecognizerdelegate/gesturerecognizer(_:shouldrecognizesimultaneouslywith:)
    func gestureRecognizer(
        _ gestureRecognizer: UIGestureRecognizer,
        shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer
    ) -> Bool
}

extension UIGestureRecognizerDelegate {
    public func gestureRecognizer(
        _ gestureRecognizer: UIGestureRecognizer,
        shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer
    ) -> Bool { false }
}

/// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits
public struct UIAccessibilityTraits: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits/button
    public static let button = UIAccessibilityTraits(rawValue: 1 << 0)
    /// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits/link
    public static let link = UIAccessibilityTraits(rawValue: 1 << 1)
    /// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits/selected
    public static let selected = UIAccessibilityTraits(rawValue: 1 << 2)
    /// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits/notenabled
    public static let notEnabled = UIAccessibilityTraits(rawValue: 1 << 3)
    /// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits/updatesfrequently
    public static let updatesFrequently = UIAccessibilityTraits(rawValue: 1 << 4)
    /// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits/statictext
    public static let staticText = UIAccessibilityTraits(rawValue: 1 << 5)
}

/// https://developer.apple.com/documentation/uikit/uiaccessibility
public enum UIAccessibility {
    /// https://developer.apple.com/documentation/uikit/uiaccessibility/notification
    public struct Notification: Hashable, Sendable {
        let rawValue: Int
        /// https://developer.apple.com/documentation/uikit/uiaccessibility/notification/announcement
        public static let announcement = Notification(rawValue: 0)
        /// https://developer.apple.com/documentation/uikit/uiaccessibility/notification/layoutchanged
        public static let layoutChanged = Notification(rawValue: 1)
    }
    /// https://developer.apple.com/documentation/uikit/uiaccessibility/post(notification:argument:)
    @MainActor public static func post(notification: Notification, argument: Any?) {}
    /// https://developer.apple.com/documentation/uikit/uiaccessibility/isreducemotionenabled
    @MainActor public static var isReduceMotionEnabled: Bool { false }
}

/// https://developer.apple.com/documentation/uikit/uiaccessibilityelement
@MainActor
open class UIAccessibilityElement: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiaccessibilityelement/init(accessibilitycontainer:)
    public init(accessibilityContainer container: Any) {}
    /// https://developer.apple.com/documentation/uikit/uiaccessibilityelement/accessibilitylabel
    open var accessibilityLabel: String?
    /// https://developer.apple.com/documentation/uikit/uiaccessibilityelement/accessibilityvalue
    open var accessibilityValue: String?
    /// https://developer.apple.com/documentation/uikit/uiaccessibilityelement/accessibilityhint
    open var accessibilityHint: String?
    /// https://developer.apple.com/documentation/uikit/uiaccessibilityelement/accessibilitytraits
    open var accessibilityTraits: UIAccessibilityTraits = []
    /// https://developer.apple.com/documentation/uikit/uiaccessibilityelement/accessibilityidentifier
    open var accessibilityIdentifier: String?
    /// https://developer.apple.com/documentation/uikit/uiaccessibilityelement/accessibilityframeincontainerspace
    open var accessibilityFrameInContainerSpace: CGRect = .zero
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilitylanguage
    open var accessibilityLanguage: String?
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilityuserinputlabels
    open var accessibilityUserInputLabels: [String]!
}

/// https://developer.apple.com/documentation/uikit/uiinteraction
@MainActor
public protocol UIInteraction: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uiinteraction/view
    var view: UIView? { get }
    /// https://developer.apple.com/documentation/uikit/uiinteraction/willmove(to:)
    func willMove(to view: UIView?)
    /// https://developer.apple.com/documentation/uikit/uiinteraction/didmove(to:)
    func didMove(to view: UIView?)
}

/// https://developer.apple.com/documentation/uikit/uilargecontentviewerinteraction
@MainActor
open class UILargeContentViewerInteraction: NSObject, UIInteraction {
    /// https://developer.apple.com/documentation/uikit/uilargecontentviewerinteraction/init(delegate:)
    public init(delegate: AnyObject? = nil) {}
    /// https://developer.apple.com/documentation/uikit/uiinteraction/view
    open var view: UIView? { nil }
    /// https://developer.apple.com/documentation/uikit/uiinteraction/willmove(to:)
    open func willMove(to view: UIView?) {}
    /// https://developer.apple.com/documentation/uikit/uiinteraction/didmove(to:)
    open func didMove(to view: UIView?) {}
}

/// https://developer.apple.com/documentation/uikit/uiuserinterfacestyle
public enum UIUserInterfaceStyle: Int, Sendable {
    case unspecified, light, dark
}

/// https://developer.apple.com/documentation/uikit/uitraitcollection
@MainActor
open class UITraitCollection: NSObject {
    /// https://developer.apple.com/documentation/uikit/uitraitcollection/userinterfacestyle (iOS 12+)
    open var userInterfaceStyle: UIUserInterfaceStyle { .unspecified }
    /// https://developer.apple.com/documentation/uikit/uitraitcollection/current (iOS 13+)
    open class var current: UITraitCollection { UITraitCollection() }
    /// https://developer.apple.com/documentation/uikit/uitraitcollection/displayscale
    open var displayScale: CGFloat { 0 }
    /// https://developer.apple.com/documentation/uikit/uitraitcollection/preferredcontentsizecategory (iOS 10+)
    open var preferredContentSizeCategory: UIContentSizeCategory { .large }
}

/// https://developer.apple.com/documentation/uikit/uicontentsizecategory (iOS 7+)
public struct UIContentSizeCategory: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unspecified = UIContentSizeCategory(rawValue: "_UICTContentSizeCategoryUnspecified")
    public static let extraSmall = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXS")
    public static let small = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryS")
    public static let medium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryM")
    public static let large = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryL")
    public static let extraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXL")
    public static let extraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXXL")
    public static let extraExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXXXL")
    public static let accessibilityMedium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityM")
    public static let accessibilityLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityL")
    public static let accessibilityExtraLarge = UIContentSizeCategory(
        rawValue: "UICTContentSizeCategoryAccessibilityXL")
    public static let accessibilityExtraExtraLarge = UIContentSizeCategory(
        rawValue: "UICTContentSizeCategoryAccessibilityXXL")
    public static let accessibilityExtraExtraExtraLarge = UIContentSizeCategory(
        rawValue: "UICTContentSizeCategoryAccessibilityXXXL")
}

/// https://developer.apple.com/documentation/uikit/uiuserinterfacelayoutdirection
public enum UIUserInterfaceLayoutDirection: Int, Sendable {
    case leftToRight, rightToLeft
}

/// https://developer.apple.com/documentation/uikit/nslayoutanchor
@MainActor
open class NSLayoutAnchor<AnchorType: AnyObject>: NSObject {
    /// https://developer.apple.com/documentation/uikit/nslayoutanchor/constraint(equalto:)
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint { NSLayoutConstraint() }
    /// https://developer.apple.com/documentation/uikit/nslayoutanchor/constraint(equalto:constant:)
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        NSLayoutConstraint()
    }
}

/// https://developer.apple.com/documentation/uikit/nslayoutxaxisanchor
@MainActor
open class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {}

/// https://developer.apple.com/documentation/uikit/nslayoutyaxisanchor
@MainActor
open class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {}

/// https://developer.apple.com/documentation/uikit/nslayoutdimension
@MainActor
open class NSLayoutDimension: NSLayoutAnchor<NSLayoutDimension> {
    /// https://developer.apple.com/documentation/uikit/nslayoutdimension/constraint(equaltoconstant:)
    open func constraint(equalToConstant c: CGFloat) -> NSLayoutConstraint { NSLayoutConstraint() }
}

/// https://developer.apple.com/documentation/uikit/nslayoutconstraint
@MainActor
open class NSLayoutConstraint: NSObject {
    /// https://developer.apple.com/documentation/uikit/nslayoutconstraint/isactive
    open var isActive: Bool = false
    /// https://developer.apple.com/documentation/uikit/nslayoutconstraint/activate(_:)
    open class func activate(_ constraints: [NSLayoutConstraint]) {}
    /// https://developer.apple.com/documentation/uikit/nslayoutconstraint/axis
    public enum Axis: Int, Sendable {
        case horizontal, vertical
    }
}

/// https://developer.apple.com/documentation/uikit/uilayoutguide
@MainActor
open class UILayoutGuide: NSObject {
    /// https://developer.apple.com/documentation/uikit/uilayoutguide/topanchor
    open var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uilayoutguide/bottomanchor
    open var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uilayoutguide/leadinganchor
    open var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uilayoutguide/trailinganchor
    open var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
}

/// https://developer.apple.com/documentation/uikit/uiview
@MainActor
open class UIView: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public init(frame: CGRect) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:)
    public required init?(coder: NSCoder) { super.init() }
    /// `init()` is inherited from NSObject and calls `init(frame: .zero)`.
    public convenience override init() { self.init(frame: .zero) }

    /// https://developer.apple.com/documentation/uikit/uiview/contentmode-swift.enum
    public enum ContentMode: Int, Sendable {
        case scaleToFill, scaleAspectFit, scaleAspectFill, redraw, center
    }

    /// https://developer.apple.com/documentation/uikit/uiview/frame
    open var frame: CGRect = .zero
    /// https://developer.apple.com/documentation/uikit/uiview/bounds
    open var bounds: CGRect = .zero
    /// https://developer.apple.com/documentation/uikit/uiview/isopaque
    open var isOpaque: Bool = true
    /// https://developer.apple.com/documentation/uikit/uiview/ishidden
    open var isHidden: Bool = false
    /// https://developer.apple.com/documentation/uikit/uiview/backgroundcolor
    open var backgroundColor: UIColor?
    /// https://developer.apple.com/documentation/uikit/uiview/tintcolor
    open var tintColor: UIColor!
    /// https://developer.apple.com/documentation/uikit/uiview/contentmode-swift.property
    open var contentMode: UIView.ContentMode = .scaleToFill
    /// https://developer.apple.com/documentation/uikit/uiview/isuserinteractionenabled
    open var isUserInteractionEnabled: Bool = true
    /// https://developer.apple.com/documentation/uikit/uiview/translatesautoresizingmaskintoconstraints
    open var translatesAutoresizingMaskIntoConstraints: Bool = true
    /// https://developer.apple.com/documentation/uikit/uiview/layer
    open var layer: CALayer { CALayer() }
    /// https://developer.apple.com/documentation/uikit/uiview/window
    open var window: UIWindow? { nil }
    /// https://developer.apple.com/documentation/uikit/uiview/traitcollection
    open var traitCollection: UITraitCollection { UITraitCollection() }
    /// https://developer.apple.com/documentation/uikit/uiview/effectiveuserinterfacelayoutdirection (iOS 10+)
    open var effectiveUserInterfaceLayoutDirection: UIUserInterfaceLayoutDirection { .leftToRight }
    /// https://developer.apple.com/documentation/uikit/uiview/intrinsiccontentsize
    open var intrinsicContentSize: CGSize { .zero }
    /// https://developer.apple.com/documentation/uikit/uiview/safearealayoutguide (iOS 11+)
    open var safeAreaLayoutGuide: UILayoutGuide { UILayoutGuide() }
    /// https://developer.apple.com/documentation/uikit/uiview/topanchor
    open var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uiview/bottomanchor
    open var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uiview/centeryanchor
    open var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uiview/leadinganchor
    open var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uiview/trailinganchor
    open var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uiview/centerxanchor
    open var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
    /// https://developer.apple.com/documentation/uikit/uiview/widthanchor
    open var widthAnchor: NSLayoutDimension { NSLayoutDimension() }
    /// https://developer.apple.com/documentation/uikit/uiview/heightanchor
    open var heightAnchor: NSLayoutDimension { NSLayoutDimension() }

    // UIAccessibility is an informal protocol on NSObject; the stub declares what the adapters use on UIView.
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/isaccessibilityelement
    open var isAccessibilityElement: Bool = false
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilitylabel
    open var accessibilityLabel: String?
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilitytraits
    open var accessibilityTraits: UIAccessibilityTraits = []
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilityvalue
    open var accessibilityValue: String?
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilityhint
    open var accessibilityHint: String?
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilityelements
    open var accessibilityElements: [Any]?
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilitylanguage
    open var accessibilityLanguage: String?
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilityuserinputlabels
    open var accessibilityUserInputLabels: [String]!
    /// https://developer.apple.com/documentation/uikit/uiaccessibilityidentification/accessibilityidentifier
    open var accessibilityIdentifier: String?
    /// https://developer.apple.com/documentation/uikit/uilargecontentvieweritem/showslargecontentviewer
    open var showsLargeContentViewer: Bool = false
    /// https://developer.apple.com/documentation/uikit/uilargecontentvieweritem/largecontenttitle
    open var largeContentTitle: String?
    /// https://developer.apple.com/documentation/uikit/uiview/interactions
    open var interactions: [any UIInteraction] = []
    /// https://developer.apple.com/documentation/uikit/uiview/addinteraction(_:)
    open func addInteraction(_ interaction: any UIInteraction) {}

    /// https://developer.apple.com/documentation/uikit/uiview/addsubview(_:)
    open func addSubview(_ view: UIView) {}
    /// https://developer.apple.com/documentation/uikit/uiview/layoutsubviews()
    open func layoutSubviews() {}
    /// https://developer.apple.com/documentation/uikit/uiview/setneedslayout()
    open func setNeedsLayout() {}
    /// https://developer.apple.com/documentation/uikit/uiview/setneedsdisplay()
    open func setNeedsDisplay() {}
    /// https://developer.apple.com/documentation/uikit/uiview/draw(_:)
    open func draw(_ rect: CGRect) {}
    /// https://developer.apple.com/documentation/uikit/uiview/invalidateintrinsiccontentsize()
    open func invalidateIntrinsicContentSize() {}
    /// https://developer.apple.com/documentation/uikit/uitraitenvironment/traitcollectiondidchange(_:)
    @available(iOS, deprecated: 17.0, message: "use the trait change registration APIs")
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/prepareforinterfacebuilder()
    open func prepareForInterfaceBuilder() {}
}

/// https://developer.apple.com/documentation/uikit/uiwindow
@MainActor
open class UIWindow: UIView {
    /// https://developer.apple.com/documentation/uikit/uiwindow/rootviewcontroller
    open var rootViewController: UIViewController?
    /// https://developer.apple.com/documentation/uikit/uiwindow/makekeyandvisible()
    open func makeKeyAndVisible() {}
    /// https://developer.apple.com/documentation/uikit/uiwindow/iskeywindow
    open var isKeyWindow: Bool { false }
    /// https://developer.apple.com/documentation/uikit/uiwindow/init(windowscene:) (iOS 13+)
    public init(windowScene: UIWindowScene) { super.init(frame: .zero) }
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public override init(frame: CGRect) { super.init(frame: frame) }
    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:)
    public required init?(coder: NSCoder) { super.init(coder: coder) }
}

/// https://developer.apple.com/documentation/uikit/uiscene
@MainActor
open class UIScene: UIResponder {}

/// https://developer.apple.com/documentation/uikit/uiwindowscene
@MainActor
open class UIWindowScene: UIScene {
    /// https://developer.apple.com/documentation/uikit/uiwindowscene/windows
    open var windows: [UIWindow] { [] }
}

/// https://developer.apple.com/documentation/uikit/uiscreen
@MainActor
open class UIScreen: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiscreen/main (deprecated in iOS 16)
    @available(iOS, deprecated: 16.0, message: "use a UIScreen instance found through context")
    open class var main: UIScreen { UIScreen() }
    /// https://developer.apple.com/documentation/uikit/uiscreen/bounds
    open var bounds: CGRect { .zero }
}

// MARK: - Colours, fonts, images, drawing

/// https://developer.apple.com/documentation/uikit/uicolor
open class UIColor: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/uikit/uicolor/init(red:green:blue:alpha:)
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uicolor/init(white:alpha:)
    public init(white: CGFloat, alpha: CGFloat) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uicolor/black
    open class var black: UIColor { UIColor(white: 0, alpha: 1) }
    /// https://developer.apple.com/documentation/uikit/uicolor/white
    open class var white: UIColor { UIColor(white: 1, alpha: 1) }
    /// https://developer.apple.com/documentation/uikit/uicolor/clear
    open class var clear: UIColor { UIColor(white: 0, alpha: 0) }
    /// https://developer.apple.com/documentation/uikit/uicolor/systembackground (iOS 13+)
    open class var systemBackground: UIColor { UIColor(white: 1, alpha: 1) }
    /// https://developer.apple.com/documentation/uikit/uicolor/label (iOS 13+)
    open class var label: UIColor { UIColor(white: 0, alpha: 1) }
    /// https://developer.apple.com/documentation/uikit/uicolor/secondarylabel (iOS 13+)
    open class var secondaryLabel: UIColor { UIColor(white: 0, alpha: 1) }
    /// https://developer.apple.com/documentation/uikit/uicolor/cgcolor
    open var cgColor: CGColor { CGColor(gray: 0, alpha: 1) }
    /// https://developer.apple.com/documentation/uikit/uicolor/withalphacomponent(_:)
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor { self }
    /// https://developer.apple.com/documentation/uikit/uicolor/setfill()
    open func setFill() {}
    /// https://developer.apple.com/documentation/uikit/uicolor/setstroke()
    open func setStroke() {}
}

/// https://developer.apple.com/documentation/uikit/uifont
open class UIFont: NSObject, @unchecked Sendable {
    override init() { super.init() }
    /// https://developer.apple.com/documentation/uikit/uifont/init(name:size:)
    public init?(name fontName: String, size fontSize: CGFloat) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uifont/systemfont(ofsize:weight:)
    open class func systemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont { UIFont() }
    /// https://developer.apple.com/documentation/uikit/uifont/preferredfont(fortextstyle:)
    open class func preferredFont(forTextStyle style: UIFont.TextStyle) -> UIFont { UIFont() }

    /// https://developer.apple.com/documentation/uikit/uifont/weight
    public struct Weight: Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uifont/weight/semibold
        public static let semibold = Weight(rawValue: 0.3)
        /// https://developer.apple.com/documentation/uikit/uifont/weight/bold
        public static let bold = Weight(rawValue: 0.4)
        /// https://developer.apple.com/documentation/uikit/uifont/weight/heavy
        public static let heavy = Weight(rawValue: 0.56)
    }

    /// https://developer.apple.com/documentation/uikit/uifont/textstyle
    public struct TextStyle: Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uifont/textstyle/body
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        /// https://developer.apple.com/documentation/uikit/uifont/textstyle/headline
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        /// https://developer.apple.com/documentation/uikit/uifont/textstyle/title2
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
    }
}

/// https://developer.apple.com/documentation/uikit/uifontmetrics (iOS 11+)
open class UIFontMetrics: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/uikit/uifontmetrics/init(fortextstyle:)
    public init(forTextStyle textStyle: UIFont.TextStyle) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uifontmetrics/scaledfont(for:)
    open func scaledFont(for font: UIFont) -> UIFont { font }
    /// https://developer.apple.com/documentation/uikit/uifontmetrics/scaledvalue(for:)
    open func scaledValue(for value: CGFloat) -> CGFloat { value }
}

/// https://developer.apple.com/documentation/uikit/uiimage
open class UIImage: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/uikit/uiimage/init(systemname:) (iOS 13+)
    public init?(systemName name: String) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uiimage/init(data:)
    public init?(data: Data) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uiimage/init(imageliteralresourcename:) (`required`: a
    /// subclass must implement it, as on iOS)
    public required convenience init(imageLiteralResourceName name: String) { self.init(data: Data())! }
    /// https://developer.apple.com/documentation/uikit/uiimage/draw(in:)
    open func draw(in rect: CGRect) {}
}

/// https://developer.apple.com/documentation/uikit/uibezierpath
open class UIBezierPath: NSObject {
    /// https://developer.apple.com/documentation/uikit/uibezierpath/init()
    public override init() { super.init() }
    /// https://developer.apple.com/documentation/uikit/uibezierpath/init(roundedrect:cornerradius:)
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) { self.init() }
    /// https://developer.apple.com/documentation/uikit/uibezierpath/init(ovalin:)
    public convenience init(ovalIn rect: CGRect) { self.init() }
    /// https://developer.apple.com/documentation/uikit/uibezierpath/linewidth
    open var lineWidth: CGFloat = 1
    /// https://developer.apple.com/documentation/uikit/uibezierpath/linecapstyle
    open var lineCapStyle: CGLineCap = .butt
    /// https://developer.apple.com/documentation/uikit/uibezierpath/linejoinstyle
    open var lineJoinStyle: CGLineJoin = .miter
    /// https://developer.apple.com/documentation/uikit/uibezierpath/move(to:)
    open func move(to point: CGPoint) {}
    /// https://developer.apple.com/documentation/uikit/uibezierpath/addline(to:)
    open func addLine(to point: CGPoint) {}
    /// https://developer.apple.com/documentation/uikit/uibezierpath/addarc(withcenter:radius:startangle:endangle:clockwise:)
    open func addArc(
        withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {}
    /// https://developer.apple.com/documentation/uikit/uibezierpath/close()
    open func close() {}
    /// https://developer.apple.com/documentation/uikit/uibezierpath/fill()
    open func fill() {}
    /// https://developer.apple.com/documentation/uikit/uibezierpath/stroke()
    open func stroke() {}
    /// https://developer.apple.com/documentation/uikit/uibezierpath/addclip()
    open func addClip() {}
}

/// https://developer.apple.com/documentation/uikit/uigraphicsgetcurrentcontext()
public func UIGraphicsGetCurrentContext() -> CGContext? { nil }

/// https://developer.apple.com/documentation/uikit/uirectfill(_:)
public func UIRectFill(_ rect: CGRect) {}

// MARK: - Text drawing (UIKit's additions to Foundation)

/// https://developer.apple.com/documentation/uikit/nstextalignment
public enum NSTextAlignment: Int, Sendable {
    case left, center, right, justified, natural
}

/// https://developer.apple.com/documentation/uikit/nsunderlinestyle
public struct NSUnderlineStyle: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/nsunderlinestyle/single
    public static let single = NSUnderlineStyle(rawValue: 1)
}

/// https://developer.apple.com/documentation/uikit/nsparagraphstyle
open class NSParagraphStyle: NSObject {
    /// https://developer.apple.com/documentation/uikit/nsparagraphstyle/alignment
    open var alignment: NSTextAlignment { .natural }
}

/// https://developer.apple.com/documentation/uikit/nsmutableparagraphstyle
open class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
    private var storedAlignment: NSTextAlignment = .natural
    /// https://developer.apple.com/documentation/uikit/nsmutableparagraphstyle/alignment
    open override var alignment: NSTextAlignment {
        get { storedAlignment }
        set { storedAlignment = newValue }
    }
}

/// https://developer.apple.com/documentation/uikit/nsstringdrawingoptions
public struct NSStringDrawingOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/nsstringdrawingoptions/useslinefragmentorigin
    public static let usesLineFragmentOrigin = NSStringDrawingOptions(rawValue: 1 << 0)
}

/// https://developer.apple.com/documentation/uikit/nsstringdrawingcontext
open class NSStringDrawingContext: NSObject {}

extension NSAttributedString.Key {
    /// https://developer.apple.com/documentation/foundation/nsattributedstring/key/font
    public static let font = NSAttributedString.Key("NSFont")
    /// https://developer.apple.com/documentation/foundation/nsattributedstring/key/foregroundcolor
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// https://developer.apple.com/documentation/foundation/nsattributedstring/key/paragraphstyle
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
    /// https://developer.apple.com/documentation/foundation/nsattributedstring/key/underlinestyle
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
}

extension NSString {
    /// https://developer.apple.com/documentation/foundation/nsstring/size(withattributes:)
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize { .zero }
    /// https://developer.apple.com/documentation/foundation/nsstring/draw(in:withattributes:)
    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {}
}

extension NSAttributedString {
    /// https://developer.apple.com/documentation/foundation/nsattributedstring/boundingrect(with:options:context:)
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [], context: NSStringDrawingContext?)
        -> CGRect
    { .zero }
    /// https://developer.apple.com/documentation/foundation/nsattributedstring/draw(with:options:context:)
    public func draw(with rect: CGRect, options: NSStringDrawingOptions = [], context: NSStringDrawingContext?) {}
}

// MARK: - Controls

/// https://developer.apple.com/documentation/uikit/uicontrol
@MainActor
open class UIControl: UIView {
    /// https://developer.apple.com/documentation/uikit/uicontrol/state-swift.struct
    public struct State: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uicontrol/state-swift.struct/normal
        public static let normal = State([])
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/event
    public struct Event: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uicontrol/event/touchupinside
        public static let touchUpInside = Event(rawValue: 1 << 6)
        /// https://developer.apple.com/documentation/uikit/uicontrol/event/valuechanged
        public static let valueChanged = Event(rawValue: 1 << 12)
        /// https://developer.apple.com/documentation/uikit/uicontrol/event/primaryactiontriggered (iOS 9+)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/contenthorizontalalignment-swift.enum
    public enum ContentHorizontalAlignment: Int, Sendable {
        case center, left, right, fill, leading, trailing
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/contenthorizontalalignment-swift.property
    open var contentHorizontalAlignment: UIControl.ContentHorizontalAlignment = .center
    /// https://developer.apple.com/documentation/uikit/uicontrol/istouchinside
    open var isTouchInside: Bool { false }
    /// https://developer.apple.com/documentation/uikit/uicontrol/endtracking(_:with:)
    open func endTracking(_ touch: UITouch?, with event: UIEvent?) {}
    /// https://developer.apple.com/documentation/uikit/uicontrol/addaction(_:for:) (iOS 14+)
    @available(iOS 14.0, *)
    open func addAction(_ action: UIAction, for controlEvents: UIControl.Event) {}
}

/// https://developer.apple.com/documentation/uikit/uiaction (iOS 14+)
@available(iOS 14.0, *)
@MainActor
open class UIAction: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiaction/init(title:image:identifier:discoverabilitytitle:attributes:state:handler:)
    public convenience init(title: String = "", image: UIImage? = nil, handler: @escaping UIActionHandler) {
        self.init()
    }
    /// https://developer.apple.com/documentation/uikit/uiaction/sender
    open var sender: Any? { nil }
}

/// https://developer.apple.com/documentation/uikit/uiactionhandler
@available(iOS 14.0, *)
public typealias UIActionHandler = (UIAction) -> Void

/// https://developer.apple.com/documentation/uikit/uibutton
@MainActor
open class UIButton: UIControl {
    /// https://developer.apple.com/documentation/uikit/uibutton/buttontype-swift.enum
    public enum ButtonType: Int, Sendable {
        case custom, system
    }
    /// https://developer.apple.com/documentation/uikit/uibutton/init(type:)
    public convenience init(type buttonType: UIButton.ButtonType) { self.init(frame: .zero) }
    /// https://developer.apple.com/documentation/uikit/uibutton/titlelabel
    open var titleLabel: UILabel? { nil }
    /// https://developer.apple.com/documentation/uikit/uibutton/settitle(_:for:)
    open func setTitle(_ title: String?, for state: UIControl.State) {}
    /// https://developer.apple.com/documentation/uikit/uibutton/settitlecolor(_:for:)
    open func setTitleColor(_ color: UIColor?, for state: UIControl.State) {}
    /// https://developer.apple.com/documentation/uikit/uibutton/setimage(_:for:)
    open func setImage(_ image: UIImage?, for state: UIControl.State) {}
}

/// https://developer.apple.com/documentation/uikit/uiswitch
@MainActor
open class UISwitch: UIControl {
    /// https://developer.apple.com/documentation/uikit/uiswitch/ison
    open var isOn: Bool = false
    /// https://developer.apple.com/documentation/uikit/uiswitch/seton(_:animated:)
    open func setOn(_ on: Bool, animated: Bool) {}
}

/// https://developer.apple.com/documentation/uikit/uilabel
@MainActor
open class UILabel: UIView {
    /// https://developer.apple.com/documentation/uikit/uilabel/text
    open var text: String?
    /// https://developer.apple.com/documentation/uikit/uilabel/attributedtext
    open var attributedText: NSAttributedString?
    /// https://developer.apple.com/documentation/uikit/uilabel/textcolor
    open var textColor: UIColor!
    /// https://developer.apple.com/documentation/uikit/uilabel/font
    open var font: UIFont!
    /// https://developer.apple.com/documentation/uikit/uilabel/numberoflines
    open var numberOfLines: Int = 1
    /// https://developer.apple.com/documentation/uikit/uilabel/textalignment
    open var textAlignment: NSTextAlignment = .natural
    /// https://developer.apple.com/documentation/uikit/uicontentsizecategoryadjusting/adjustsfontforcontentsizecategory
    /// (iOS 10+)
    open var adjustsFontForContentSizeCategory: Bool = false
}

/// https://developer.apple.com/documentation/uikit/uiimageview
@MainActor
open class UIImageView: UIView {
    /// https://developer.apple.com/documentation/uikit/uiimageview/init(image:)
    public init(image: UIImage?) { super.init(frame: .zero) }
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public override init(frame: CGRect) { super.init(frame: frame) }
    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:)
    public required init?(coder: NSCoder) { super.init(coder: coder) }
}

/// https://developer.apple.com/documentation/uikit/uiscrollview
@MainActor
open class UIScrollView: UIView {
    /// https://developer.apple.com/documentation/uikit/uiscrollview/contentlayoutguide (iOS 11+)
    open var contentLayoutGuide: UILayoutGuide { UILayoutGuide() }
    /// https://developer.apple.com/documentation/uikit/uiscrollview/framelayoutguide (iOS 11+)
    open var frameLayoutGuide: UILayoutGuide { UILayoutGuide() }
}

/// https://developer.apple.com/documentation/uikit/uistackview
@MainActor
open class UIStackView: UIView {
    /// https://developer.apple.com/documentation/uikit/uistackview/alignment-swift.enum
    public enum Alignment: Int, Sendable {
        case fill, leading, firstBaseline, center, trailing, lastBaseline
    }
    /// https://developer.apple.com/documentation/uikit/uistackview/init(arrangedsubviews:)
    public init(arrangedSubviews views: [UIView]) { super.init(frame: .zero) }
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public override init(frame: CGRect) { super.init(frame: frame) }
    /// https://developer.apple.com/documentation/uikit/uistackview/init(coder:)
    public required init(coder: NSCoder) { super.init(frame: .zero) }
    /// https://developer.apple.com/documentation/uikit/uistackview/axis
    open var axis: NSLayoutConstraint.Axis = .horizontal
    /// https://developer.apple.com/documentation/uikit/uistackview/alignment-swift.property
    open var alignment: UIStackView.Alignment = .fill
    /// https://developer.apple.com/documentation/uikit/uistackview/spacing
    open var spacing: CGFloat = 0
    /// https://developer.apple.com/documentation/uikit/uistackview/addarrangedsubview(_:)
    open func addArrangedSubview(_ view: UIView) {}
}

// MARK: - Text input

/// https://developer.apple.com/documentation/uikit/uitextautocorrectiontype
public enum UITextAutocorrectionType: Int, Sendable {
    case `default`, no, yes
}

/// https://developer.apple.com/documentation/uikit/uitextautocapitalizationtype
public enum UITextAutocapitalizationType: Int, Sendable {
    case none, words, sentences, allCharacters
}

/// https://developer.apple.com/documentation/uikit/uireturnkeytype
public enum UIReturnKeyType: Int, Sendable {
    case `default`, go, done, `continue`
}

/// https://developer.apple.com/documentation/uikit/uikeyboardtype
public enum UIKeyboardType: Int, Sendable {
    case `default`, emailAddress
}

/// https://developer.apple.com/documentation/uikit/uitextcontenttype
public struct UITextContentType: Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/emailaddress
    public static let emailAddress = UITextContentType(rawValue: "email")
}

/// https://developer.apple.com/documentation/uikit/uitextfielddelegate
@MainActor
public protocol UITextFieldDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uitextfielddelegate/textfieldshouldreturn(_:) (optional)
    func textFieldShouldReturn(_ textField: UITextField) -> Bool
}

extension UITextFieldDelegate {
    /// Optional requirement in Objective-C; the stub gives it a default.
    public func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
}

/// https://developer.apple.com/documentation/uikit/uitextfield
@MainActor
open class UITextField: UIControl {
    /// https://developer.apple.com/documentation/uikit/uitextfield/borderstyle-swift.enum
    public enum BorderStyle: Int, Sendable {
        case none, line, bezel, roundedRect
    }
    /// https://developer.apple.com/documentation/uikit/uitextfield/delegate
    open weak var delegate: (any UITextFieldDelegate)?
    /// https://developer.apple.com/documentation/uikit/uitextfield/text
    open var text: String?
    /// https://developer.apple.com/documentation/uikit/uitextfield/placeholder
    open var placeholder: String?
    /// https://developer.apple.com/documentation/uikit/uitextfield/attributedplaceholder (iOS 6+)
    open var attributedPlaceholder: NSAttributedString?
    /// https://developer.apple.com/documentation/uikit/uitextfield/textalignment
    open var textAlignment: NSTextAlignment = .natural
    /// https://developer.apple.com/documentation/uikit/uitextfield/textcolor
    open var textColor: UIColor?
    /// https://developer.apple.com/documentation/uikit/uitextfield/font
    open var font: UIFont?
    /// https://developer.apple.com/documentation/uikit/uitextfield/borderstyle-swift.property
    open var borderStyle: UITextField.BorderStyle = .none
    /// https://developer.apple.com/documentation/uikit/uitextinputtraits/autocorrectiontype
    open var autocorrectionType: UITextAutocorrectionType = .default
    /// https://developer.apple.com/documentation/uikit/uitextinputtraits/autocapitalizationtype
    open var autocapitalizationType: UITextAutocapitalizationType = .sentences
    /// https://developer.apple.com/documentation/uikit/uitextinputtraits/returnkeytype
    open var returnKeyType: UIReturnKeyType = .default
    /// https://developer.apple.com/documentation/uikit/uitextinputtraits/keyboardtype
    open var keyboardType: UIKeyboardType = .default
    /// https://developer.apple.com/documentation/uikit/uitextinputtraits/textcontenttype
    open var textContentType: UITextContentType!
    /// https://developer.apple.com/documentation/uikit/uitextinputtraits/issecuretextentry
    open var isSecureTextEntry: Bool = false
}

// MARK: - View controllers

/// https://developer.apple.com/documentation/uikit/uimodalpresentationstyle
public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen, pageSheet, formSheet
    case automatic = -2
}

/// https://developer.apple.com/documentation/uikit/uimodaltransitionstyle
public enum UIModalTransitionStyle: Int, Sendable {
    case coverVertical, flipHorizontal, crossDissolve
}

/// https://developer.apple.com/documentation/uikit/uistatusbarstyle
public enum UIStatusBarStyle: Int, Sendable {
    case `default`, lightContent
    case darkContent = 3
}

/// https://developer.apple.com/documentation/uikit/uiviewcontroller
@MainActor
open class UIViewController: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/init(nibname:bundle:)
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/init(coder:)
    public required init?(coder: NSCoder) { super.init() }
    /// `init()` calls `init(nibName: nil, bundle: nil)`.
    public convenience override init() { self.init(nibName: nil, bundle: nil) }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/view
    open var view: UIView!
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/title
    open var title: String?
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/navigationcontroller
    open var navigationController: UINavigationController? { nil }
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/navigationitem
    open var navigationItem: UINavigationItem { UINavigationItem() }
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/modalpresentationstyle
    open var modalPresentationStyle: UIModalPresentationStyle = .automatic
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/modaltransitionstyle
    open var modalTransitionStyle: UIModalTransitionStyle = .coverVertical
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/preferredstatusbarstyle
    open var preferredStatusBarStyle: UIStatusBarStyle { .default }
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/viewdidload()
    open func viewDidLoad() {}
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/present(_:animated:completion:)
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil)
    {}
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/dismiss(animated:completion:)
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {}
}

/// https://developer.apple.com/documentation/uikit/uinavigationitem
@MainActor
open class UINavigationItem: NSObject {
    /// https://developer.apple.com/documentation/uikit/uinavigationitem/rightbarbuttonitem
    open var rightBarButtonItem: UIBarButtonItem?
}

/// https://developer.apple.com/documentation/uikit/uibarbuttonitem
@MainActor
open class UIBarButtonItem: NSObject {
    /// https://developer.apple.com/documentation/uikit/uibarbuttonitem/init(title:primaryaction:menu:) (iOS 14+)
    @available(iOS 14.0, *)
    public convenience init(title: String?, primaryAction: UIAction?, menu: NSObject? = nil) { self.init() }
}

/// https://developer.apple.com/documentation/uikit/uinavigationcontroller
@MainActor
open class UINavigationController: UIViewController {
    /// https://developer.apple.com/documentation/uikit/uinavigationcontroller/init(rootviewcontroller:)
    public init(rootViewController: UIViewController) { super.init(nibName: nil, bundle: nil) }
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/init(coder:)
    public required init?(coder: NSCoder) { super.init(coder: coder) }
    /// https://developer.apple.com/documentation/uikit/uinavigationcontroller/pushviewcontroller(_:animated:)
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {}
}

// MARK: - The application

/// https://developer.apple.com/documentation/uikit/uibackgroundfetchresult
public enum UIBackgroundFetchResult: UInt, Sendable {
    case newData, noData, failed
}

/// https://developer.apple.com/documentation/uikit/uiapplication
@MainActor
open class UIApplication: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiapplication/shared
    open class var shared: UIApplication { UIApplication() }

    /// https://developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey
    public struct OpenExternalURLOptionsKey: Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// https://developer.apple.com/documentation/uikit/uiapplication/openurloptionskey
    public struct OpenURLOptionsKey: Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// https://developer.apple.com/documentation/uikit/uiapplication/launchoptionskey
    public struct LaunchOptionsKey: Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// https://developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification
    nonisolated public static let didEnterBackgroundNotification = NSNotification.Name(
        "UIApplicationDidEnterBackgroundNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    nonisolated public static let didBecomeActiveNotification = NSNotification.Name(
        "UIApplicationDidBecomeActiveNotification")

    /// https://developer.apple.com/documentation/uikit/uiapplication/connectedscenes (iOS 13+)
    open var connectedScenes: Set<UIScene> { [] }
    /// https://developer.apple.com/documentation/uikit/uiapplication/canopenurl(_:)
    open func canOpenURL(_ url: URL) -> Bool { false }
    /// https://developer.apple.com/documentation/uikit/uiapplication/open(_:options:completionhandler:) (iOS 10+)
    open func open(
        _ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) {}
    /// The async form of `open(_:options:completionHandler:)`, as Swift imports it (same page).
    open func open(_ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:]) async -> Bool { false }
    /// https://developer.apple.com/documentation/uikit/uiapplication/registerforremotenotifications()
    open func registerForRemoteNotifications() {}
}

/// https://developer.apple.com/documentation/uikit/uiapplicationdelegate
@MainActor
public protocol UIApplicationDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/window
    var window: UIWindow? { get set }
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:willfinishlaunchingwithoptions:)
    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didfinishlaunchingwithoptions:)
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:open:options:)
    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didreceiveremotenotification:fetchcompletionhandler:)
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)
}

extension UIApplicationDelegate {
    // Optional requirements in Objective-C; the stub gives them defaults.
    public var window: UIWindow? {
        get { nil }
        set {}
    }
    public func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    public func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any])
        -> Bool
    { false }
    public func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {}
    /// What `@main` calls (UIKit provides `main()` for application delegates).
    public static func main() {}
}
