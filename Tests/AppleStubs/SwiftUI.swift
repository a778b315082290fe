// Test-only stub of Apple's SwiftUI: exactly the declarations the SDK's ConnectButtonView and the SwiftUI example app
// use, with the signatures and main-actor isolation of Apple's documentation (page beside each declaration). Bodies
// do nothing and every modifier returns an opaque wrapper. Not Apple's SDK: it proves type-correctness only.
// `@available` annotations for iOS are recorded for the reader; a Linux compiler does not enforce them.
@_exported import Foundation
@_exported import CoreGraphics
import Combine
import UIKit

// MARK: - Views and builders

/// https://developer.apple.com/documentation/swiftui/view (`@MainActor @preconcurrency protocol View`)
@MainActor @preconcurrency
public protocol View {
    /// https://developer.apple.com/documentation/swiftui/view/body-8kl5o
    associatedtype Body: View
    @ViewBuilder var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    nonisolated public var body: Never { fatalError() }
}

/// A view that wraps another after a modifier (the stub's stand-in for ModifiedContent).
public struct _Modified<Content: View>: View {
    nonisolated init() {}
    nonisolated public var body: Never { fatalError() }
}

extension View {
    nonisolated func modified() -> _Modified<Self> { _Modified() }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
    nonisolated public static func buildBlock() -> EmptyView { EmptyView() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    nonisolated public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-(_:)
    nonisolated public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
        (repeat each Content)
    > {
        TupleView((repeat each content))
    }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    nonisolated public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
    nonisolated public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    nonisolated public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> {
        _ConditionalContent()
    }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    nonisolated public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> {
        _ConditionalContent()
    }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildlimitedavailability(_:)
    nonisolated public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView {
        AnyView(content)
    }
}

extension Optional: View where Wrapped: View {
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/_conditionalcontent
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
public struct TupleView<T>: View {
    nonisolated public init(_ value: T) {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/emptyview
public struct EmptyView: View {
    nonisolated public init() {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/anyview
public struct AnyView: View {
    nonisolated public init<V: View>(_ view: V) {}
    nonisolated public var body: Never { fatalError() }
}

// MARK: - Layout

/// https://developer.apple.com/documentation/swiftui/alignment
public struct Alignment: Equatable, Sendable {
    let id: Int
    /// https://developer.apple.com/documentation/swiftui/alignment/topleading
    public static let topLeading = Alignment(id: 0)
    /// https://developer.apple.com/documentation/swiftui/alignment/top
    public static let top = Alignment(id: 1)
    /// https://developer.apple.com/documentation/swiftui/alignment/center
    public static let center = Alignment(id: 2)
    /// https://developer.apple.com/documentation/swiftui/alignment/leading
    public static let leading = Alignment(id: 3)
}

/// https://developer.apple.com/documentation/swiftui/horizontalalignment
public struct HorizontalAlignment: Equatable, Sendable {
    let id: Int
    /// https://developer.apple.com/documentation/swiftui/horizontalalignment/center
    public static let center = HorizontalAlignment(id: 0)
    /// https://developer.apple.com/documentation/swiftui/horizontalalignment/leading
    public static let leading = HorizontalAlignment(id: 1)
}

/// https://developer.apple.com/documentation/swiftui/vstack
public struct VStack<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/vstack/init(alignment:spacing:content:)
    nonisolated public init(
        alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
    ) {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/zstack
public struct ZStack<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/zstack/init(alignment:content:)
    nonisolated public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/geometryproxy
public struct GeometryProxy {
    /// https://developer.apple.com/documentation/swiftui/geometryproxy/size
    public var size: CGSize { .zero }
}

/// https://developer.apple.com/documentation/swiftui/geometryreader
public struct GeometryReader<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/geometryreader/init(content:)
    nonisolated public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {}
    nonisolated public var body: Never { fatalError() }
}

// MARK: - Text, images, controls

/// https://developer.apple.com/documentation/swiftui/font
public struct Font: Hashable, Sendable {
    let name: String
    /// https://developer.apple.com/documentation/swiftui/font/custom(_:size:)
    nonisolated public static func custom(_ name: String, size: CGFloat) -> Font { Font(name: name) }
    /// https://developer.apple.com/documentation/swiftui/font/system(size:weight:design:)
    nonisolated public static func system(size: CGFloat, weight: Font.Weight? = nil, design: Font.Design? = nil) -> Font
    { Font(name: "system") }
    /// https://developer.apple.com/documentation/swiftui/font/headline
    public static let headline = Font(name: "headline")
    /// https://developer.apple.com/documentation/swiftui/font/footnote
    public static let footnote = Font(name: "footnote")

    /// https://developer.apple.com/documentation/swiftui/font/weight
    public struct Weight: Hashable, Sendable {
        let value: Double
        /// https://developer.apple.com/documentation/swiftui/font/weight/bold
        public static let bold = Weight(value: 0.4)
    }

    /// https://developer.apple.com/documentation/swiftui/font/design
    public enum Design: Hashable {
        case `default`, serif, rounded, monospaced
    }
}

/// https://developer.apple.com/documentation/swiftui/textalignment
public enum TextAlignment: Hashable, Sendable {
    case leading, center, trailing
}

/// https://developer.apple.com/documentation/swiftui/text
public struct Text: View, Equatable, Sendable {
    let parts: [String]
    /// https://developer.apple.com/documentation/swiftui/text/init(verbatim:)
    nonisolated public init(verbatim content: String) { parts = [content] }
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4 (a string, not localized)
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ content: S) { parts = [String(content)] }
    /// https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
    nonisolated public init(
        _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil
    ) {
        parts = [key.key]
    }
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-1a4oh (iOS 15+)
    @available(iOS 15.0, *)
    nonisolated public init(_ attributedContent: AttributedString) { parts = [String(attributedContent.characters)] }
    nonisolated public var body: Never { fatalError() }

    /// https://developer.apple.com/documentation/swiftui/text/+(_:_:)
    nonisolated public static func + (lhs: Text, rhs: Text) -> Text { Text(parts: lhs.parts + rhs.parts) }
    nonisolated init(parts: [String]) { self.parts = parts }

    /// https://developer.apple.com/documentation/swiftui/text/font(_:)
    nonisolated public func font(_ font: Font?) -> Text { self }
    /// https://developer.apple.com/documentation/swiftui/text/foregroundcolor(_:) (deprecated in iOS 17)
    nonisolated public func foregroundColor(_ color: Color?) -> Text { self }
    /// https://developer.apple.com/documentation/swiftui/text/underline(_:color:)
    nonisolated public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text { self }
}

/// https://developer.apple.com/documentation/swiftui/localizedstringkey
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Equatable, Sendable {
    let key: String
    nonisolated public init(_ value: String) { key = value }
    nonisolated public init(stringLiteral value: String) { key = value }
}

/// https://developer.apple.com/documentation/swiftui/image
public struct Image: View, Sendable {
    /// https://developer.apple.com/documentation/swiftui/image/init(systemname:)
    nonisolated public init(systemName: String) {}
    /// https://developer.apple.com/documentation/swiftui/image/init(uiimage:)
    nonisolated public init(uiImage: UIImage) {}
    nonisolated public var body: Never { fatalError() }
    /// https://developer.apple.com/documentation/swiftui/image/resizable(capinsets:resizingmode:)
    nonisolated public func resizable() -> Image { self }
}

/// https://developer.apple.com/documentation/swiftui/asyncimage (iOS 15+)
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
public struct AsyncImage<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/asyncimage/init(url:scale:content:placeholder:)
    nonisolated public init<I: View, P: View>(
        url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (Image) -> I,
        @ViewBuilder placeholder: @escaping () -> P
    ) where Content == _ConditionalContent<I, P> {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/binding
/// (Xcode 16's SDK: `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value, set: ...)`; the
/// closures are `@Sendable`, so a binding may not capture main-actor state without isolating its closures.)
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-6g3d5
    @preconcurrency
    nonisolated public init(
        get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {}
    /// https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
    public var wrappedValue: Value {
        get { fatalError("stub") }
        nonmutating set {}
    }
    /// https://developer.apple.com/documentation/swiftui/binding/projectedvalue
    public var projectedValue: Binding<Value> { self }
    /// https://developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("stub")
    }
}

/// https://developer.apple.com/documentation/swiftui/textfield
public struct TextField<Label: View>: View {
    nonisolated public var body: Never { fatalError() }
}

extension TextField where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:oncommit:)-6lnin
    /// (deprecated: use `onSubmit(of:_:)`; still available)
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>, onCommit: @escaping () -> Void) {}
    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-9ulr8
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

/// https://developer.apple.com/documentation/swiftui/securefield
public struct SecureField<Label: View>: View {
    nonisolated public var body: Never { fatalError() }
}

extension SecureField where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/securefield/init(_:text:) (the `StringProtocol` title)
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

/// https://developer.apple.com/documentation/swiftui/button
public struct Button<Label: View>: View {
    /// https://developer.apple.com/documentation/swiftui/button/init(action:label:)
    nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    nonisolated public var body: Never { fatalError() }
}

extension Button where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
    nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

/// https://developer.apple.com/documentation/swiftui/toggle
public struct Toggle<Label: View>: View {
    /// https://developer.apple.com/documentation/swiftui/toggle/init(ison:label:)
    nonisolated public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {}
    nonisolated public var body: Never { fatalError() }
}

extension Toggle where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/toggle/init(_:ison:)-8qx3l
    nonisolated public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

/// https://developer.apple.com/documentation/swiftui/form
public struct Form<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/form/init(content:)
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/section
public struct Section<Parent, Content: View, Footer>: View {
    nonisolated public var body: Never { fatalError() }
}

extension Section where Parent == Text, Footer == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/section/init(_:content:)-90be4 (iOS 15+)
    @available(iOS 15.0, *)
    nonisolated public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/navigationview (deprecated in iOS 16, still available)
@available(iOS, deprecated: 16.0, message: "use NavigationStack")
public struct NavigationView<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/navigationview/init(content:)
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/navigationpath (iOS 16+)
@available(iOS 16.0, *)
public struct NavigationPath {
    /// https://developer.apple.com/documentation/swiftui/navigationpath/init()
    public init() {}
}

/// https://developer.apple.com/documentation/swiftui/navigationstack (iOS 16+)
@available(iOS 16.0, *)
@MainActor
public struct NavigationStack<Data, Root: View>: View {
    /// https://developer.apple.com/documentation/swiftui/navigationstack/init(root:)
    @MainActor public init(@ViewBuilder root: () -> Root) where Data == NavigationPath {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/navigationlink
public struct NavigationLink<Label: View, Destination: View>: View {
    /// https://developer.apple.com/documentation/swiftui/navigationlink/init(destination:label:)
    nonisolated public init(destination: Destination, @ViewBuilder label: () -> Label) {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/plainbuttonstyle
public struct PlainButtonStyle {
    nonisolated public init() {}
}

// MARK: - Shapes and colours

/// https://developer.apple.com/documentation/swiftui/angle
public struct Angle: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/angle/radians
    public var radians: Double
    /// https://developer.apple.com/documentation/swiftui/angle/degrees(_:)
    nonisolated public static func degrees(_ degrees: Double) -> Angle { Angle(radians: degrees * .pi / 180) }
}

/// https://developer.apple.com/documentation/swiftui/path
public struct Path: Sendable {
    /// https://developer.apple.com/documentation/swiftui/path/init()
    nonisolated public init() {}
    /// https://developer.apple.com/documentation/swiftui/path/move(to:)
    public mutating func move(to end: CGPoint) {}
    /// https://developer.apple.com/documentation/swiftui/path/addline(to:)
    public mutating func addLine(to end: CGPoint) {}
    /// https://developer.apple.com/documentation/swiftui/path/addarc(center:radius:startangle:endangle:clockwise:transform:)
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool) {
    }
    /// https://developer.apple.com/documentation/swiftui/path/closesubpath()
    public mutating func closeSubpath() {}
}

/// https://developer.apple.com/documentation/swiftui/shape (`protocol Shape : Sendable, Animatable, View`)
public protocol Shape: Sendable, View {
    /// https://developer.apple.com/documentation/swiftui/shape/path(in:)
    func path(in rect: CGRect) -> Path
}

extension Shape {
    nonisolated public var body: _Modified<Self> { _Modified() }
}

/// https://developer.apple.com/documentation/swiftui/insettableshape
public protocol InsettableShape: Shape {
    associatedtype InsetShape: InsettableShape
    /// https://developer.apple.com/documentation/swiftui/insettableshape/inset(by:)
    func inset(by amount: CGFloat) -> InsetShape
}

/// https://developer.apple.com/documentation/swiftui/shapestyle
public protocol ShapeStyle: Sendable {}

/// https://developer.apple.com/documentation/swiftui/hierarchicalshapestyle (iOS 15+)
public struct HierarchicalShapeStyle: ShapeStyle {
    let level: Int
    /// https://developer.apple.com/documentation/swiftui/hierarchicalshapestyle/secondary
    public static let secondary = HierarchicalShapeStyle(level: 1)
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// https://developer.apple.com/documentation/swiftui/shapestyle/secondary
    public static var secondary: HierarchicalShapeStyle { .secondary }
}

/// https://developer.apple.com/documentation/swiftui/strokestyle
public struct StrokeStyle: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/strokestyle/init(linewidth:linecap:linejoin:miterlimit:dash:dashphase:)
    nonisolated public init(lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter) {}
}

extension Shape {
    /// https://developer.apple.com/documentation/swiftui/shape/fill(_:style:)
    nonisolated public func fill<S: ShapeStyle>(_ content: S) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/shape/stroke(_:linewidth:)
    nonisolated public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/shape/stroke(_:style:)
    nonisolated public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> some View { modified() }
}

/// https://developer.apple.com/documentation/swiftui/circle
public struct Circle: InsettableShape {
    nonisolated public init() {}
    nonisolated public func path(in rect: CGRect) -> Path { Path() }
    /// https://developer.apple.com/documentation/swiftui/circle/inset(by:)
    nonisolated public func inset(by amount: CGFloat) -> some InsettableShape { self }
}

/// https://developer.apple.com/documentation/swiftui/capsule
public struct Capsule: InsettableShape {
    nonisolated public init() {}
    nonisolated public func path(in rect: CGRect) -> Path { Path() }
    /// https://developer.apple.com/documentation/swiftui/capsule/inset(by:)
    nonisolated public func inset(by amount: CGFloat) -> some InsettableShape { self }
}

/// https://developer.apple.com/documentation/swiftui/color
/// A `Sendable` value; its `View` and `ShapeStyle` conformances are declared in extensions, as in Apple's SDK,
/// so the type and its static colours are not main-actor isolated.
public struct Color: Hashable, Sendable {
    let value: [Double]
    /// https://developer.apple.com/documentation/swiftui/color/rgbcolorspace
    public enum RGBColorSpace: Hashable {
        case sRGB, sRGBLinear, displayP3
    }
    /// https://developer.apple.com/documentation/swiftui/color/init(_:red:green:blue:opacity:)
    nonisolated public init(
        _ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1
    ) {
        value = [red, green, blue, opacity]
    }
    /// https://developer.apple.com/documentation/swiftui/color/black
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// https://developer.apple.com/documentation/swiftui/color/clear
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
    /// https://developer.apple.com/documentation/swiftui/color/secondary
    public static let secondary = Color(red: 0.5, green: 0.5, blue: 0.5)
    /// https://developer.apple.com/documentation/swiftui/color/opacity(_:)
    nonisolated public func opacity(_ opacity: Double) -> Color { self }
}

/// https://developer.apple.com/documentation/swiftui/color (conforms to View and ShapeStyle)
extension Color: View, ShapeStyle {
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/colorscheme
public enum ColorScheme: Hashable {
    case light, dark
}

// MARK: - State and environment

/// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {}

/// https://developer.apple.com/documentation/swiftui/state
@propertyWrapper
public struct State<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    nonisolated public init(wrappedValue value: Value) {}
    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    public var wrappedValue: Value {
        get { fatalError("stub") }
        nonmutating set {}
    }
    /// https://developer.apple.com/documentation/swiftui/state/projectedvalue
    public var projectedValue: Binding<Value> { fatalError("stub") }
}

extension State where Value: ExpressibleByNilLiteral {
    /// https://developer.apple.com/documentation/swiftui/state/init()
    nonisolated public init() { self.init(wrappedValue: nil) }
}

/// https://developer.apple.com/documentation/swiftui/stateobject (iOS 14)
@frozen @propertyWrapper
public struct StateObject<ObjectType>: DynamicProperty where ObjectType: ObservableObject {
    /// https://developer.apple.com/documentation/swiftui/stateobject/init(wrappedvalue:)
    @inlinable nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {}
    /// https://developer.apple.com/documentation/swiftui/stateobject/wrappedvalue
    @MainActor public var wrappedValue: ObjectType { fatalError("stub") }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/colorscheme
    public var colorScheme: ColorScheme { .light }
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/locale
    public var locale: Locale { Locale(identifier: "en_US") }
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/sizecategory
    public var sizeCategory: ContentSizeCategory { .large }
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/layoutdirection
    public var layoutDirection: LayoutDirection {
        get { .leftToRight }
        set {}
    }
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/accessibilityreducemotion
    public var accessibilityReduceMotion: Bool { false }
}

/// https://developer.apple.com/documentation/swiftui/contentsizecategory
public enum ContentSizeCategory: Hashable, CaseIterable {
    case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge, accessibilityMedium,
        accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge
}

/// https://developer.apple.com/documentation/swiftui/layoutdirection
public enum LayoutDirection: Hashable, CaseIterable {
    case leftToRight, rightToLeft
}

/// https://developer.apple.com/documentation/swiftui/animatable
public protocol Animatable {
    /// https://developer.apple.com/documentation/swiftui/animatable/animatabledata-swift.associatedtype
    associatedtype AnimatableData
    /// https://developer.apple.com/documentation/swiftui/animatable/animatabledata-swift.property
    var animatableData: AnimatableData { get set }
}

/// https://developer.apple.com/documentation/swiftui/animation
public struct Animation: Equatable, Sendable {
    let id: Int
    /// https://developer.apple.com/documentation/swiftui/animation/linear(duration:)
    public static func linear(duration: Double) -> Animation { Animation(id: 1) }
    /// https://developer.apple.com/documentation/swiftui/animation/repeatforever(autoreverses:)
    public func repeatForever(autoreverses: Bool = true) -> Animation { self }
}

/// https://developer.apple.com/documentation/swiftui/withanimation(_:_:)
@MainActor
public func withAnimation<Result>(_ animation: Animation? = nil, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

/// https://developer.apple.com/documentation/swiftui/environment
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    private let keyPath: KeyPath<EnvironmentValues, Value>
    /// https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf
    nonisolated public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    /// https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

/// https://developer.apple.com/documentation/swiftui/gesturestate
@propertyWrapper
public struct GestureState<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/gesturestate/init(wrappedvalue:)
    nonisolated public init(wrappedValue: Value) {}
    /// https://developer.apple.com/documentation/swiftui/gesturestate/wrappedvalue
    public var wrappedValue: Value { fatalError("stub") }
    /// https://developer.apple.com/documentation/swiftui/gesturestate/projectedvalue
    public var projectedValue: GestureState<Value> { self }
}

// MARK: - Gestures

/// https://developer.apple.com/documentation/swiftui/gesture
@MainActor @preconcurrency
public protocol Gesture {
    /// https://developer.apple.com/documentation/swiftui/gesture/value
    associatedtype Value
    /// https://developer.apple.com/documentation/swiftui/gesture/body-swift.associatedtype
    associatedtype Body: Gesture
    /// https://developer.apple.com/documentation/swiftui/gesture/body-swift.property
    var body: Self.Body { get }
}

extension Never: Gesture {
    public typealias Value = Never
}

/// https://developer.apple.com/documentation/swiftui/transaction
public struct Transaction {}

/// The gesture `onEnded(_:)` returns.
public struct _EndedGesture<Content: Gesture>: Gesture {
    public typealias Value = Content.Value
    nonisolated init() {}
    nonisolated public var body: Never { fatalError() }
}

/// The gesture `onChanged(_:)` returns.
public struct _ChangedGesture<Content: Gesture>: Gesture where Content.Value: Equatable {
    public typealias Value = Content.Value
    nonisolated init() {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/gesturestategesture
public struct GestureStateGesture<Base: Gesture, State>: Gesture {
    public typealias Value = Base.Value
    nonisolated init() {}
    nonisolated public var body: Never { fatalError() }
}

extension Gesture {
    /// https://developer.apple.com/documentation/swiftui/gesture/updating(_:body:)
    nonisolated public func updating<State>(
        _ state: GestureState<State>, body: @escaping (Self.Value, inout State, inout Transaction) -> Void
    ) -> GestureStateGesture<Self, State> { GestureStateGesture() }
    /// https://developer.apple.com/documentation/swiftui/gesture/onended(_:)
    nonisolated public func onEnded(_ action: @escaping (Self.Value) -> Void) -> _EndedGesture<Self> {
        _EndedGesture()
    }
}

extension Gesture where Value: Equatable {
    /// https://developer.apple.com/documentation/swiftui/gesture/onchanged(_:)
    nonisolated public func onChanged(_ action: @escaping (Self.Value) -> Void) -> _ChangedGesture<Self> {
        _ChangedGesture()
    }
}

/// https://developer.apple.com/documentation/swiftui/coordinatespace
public enum CoordinateSpace {
    case global, local
    case named(AnyHashable)
}

/// https://developer.apple.com/documentation/swiftui/draggesture
public struct DragGesture: Gesture {
    /// https://developer.apple.com/documentation/swiftui/draggesture/value
    public struct Value: Equatable {
        /// https://developer.apple.com/documentation/swiftui/draggesture/value/time
        public var time: Date
        /// https://developer.apple.com/documentation/swiftui/draggesture/value/location
        public var location: CGPoint
        /// https://developer.apple.com/documentation/swiftui/draggesture/value/startlocation
        public var startLocation: CGPoint
    }
    /// https://developer.apple.com/documentation/swiftui/draggesture/init(minimumdistance:coordinatespace:)
    nonisolated public init(minimumDistance: CGFloat = 10, coordinateSpace: CoordinateSpace = .local) {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/gesturemask
public struct GestureMask: OptionSet, Sendable {
    public let rawValue: UInt32
    nonisolated public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/swiftui/gesturemask/none
    public static let none = GestureMask([])
    /// https://developer.apple.com/documentation/swiftui/gesturemask/gesture
    public static let gesture = GestureMask(rawValue: 1)
    /// https://developer.apple.com/documentation/swiftui/gesturemask/subviews
    public static let subviews = GestureMask(rawValue: 2)
    /// https://developer.apple.com/documentation/swiftui/gesturemask/all
    public static let all = GestureMask(rawValue: 3)
}

// MARK: - Modifiers

/// https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior
public struct AccessibilityChildBehavior: Hashable {
    let id: Int
    /// https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior/ignore (a `static let` in
    /// Apple's SDK, not `Sendable` in iOS 16; computed here, as a non-Sendable `static let` is an error in Swift 6)
    public static var ignore: AccessibilityChildBehavior { AccessibilityChildBehavior(id: 0) }
    /// https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior/contain
    public static var contain: AccessibilityChildBehavior { AccessibilityChildBehavior(id: 1) }
}

/// https://developer.apple.com/documentation/swiftui/accessibilitytraits
public struct AccessibilityTraits: SetAlgebra {
    private var bits: Set<Int>
    nonisolated public init() { bits = [] }
    /// https://developer.apple.com/documentation/swiftui/accessibilitytraits/isbutton (a `static let` in Apple's
    /// SDK; computed here, as a non-Sendable `static let` is an error in Swift 6)
    public static var isButton: AccessibilityTraits { AccessibilityTraits(bits: [0]) }
    /// https://developer.apple.com/documentation/swiftui/accessibilitytraits/isselected
    public static var isSelected: AccessibilityTraits { AccessibilityTraits(bits: [1]) }
    /// https://developer.apple.com/documentation/swiftui/accessibilitytraits/isstatictext
    public static var isStaticText: AccessibilityTraits { AccessibilityTraits(bits: [2]) }
    /// https://developer.apple.com/documentation/swiftui/accessibilitytraits/updatesfrequently
    public static var updatesFrequently: AccessibilityTraits { AccessibilityTraits(bits: [3]) }
    private init(bits: Set<Int>) { self.bits = bits }
    nonisolated public func contains(_ member: AccessibilityTraits) -> Bool { member.bits.isSubset(of: bits) }
    nonisolated public func union(_ other: AccessibilityTraits) -> AccessibilityTraits {
        AccessibilityTraits(bits: bits.union(other.bits))
    }
    nonisolated public func intersection(_ other: AccessibilityTraits) -> AccessibilityTraits {
        AccessibilityTraits(bits: bits.intersection(other.bits))
    }
    nonisolated public func symmetricDifference(_ other: AccessibilityTraits) -> AccessibilityTraits {
        AccessibilityTraits(bits: bits.symmetricDifference(other.bits))
    }
    public mutating func insert(_ newMember: AccessibilityTraits) -> (
        inserted: Bool, memberAfterInsert: AccessibilityTraits
    ) {
        let inserted = !contains(newMember)
        bits.formUnion(newMember.bits)
        return (inserted, newMember)
    }
    public mutating func remove(_ member: AccessibilityTraits) -> AccessibilityTraits? {
        guard contains(member) else { return nil }
        bits.subtract(member.bits)
        return member
    }
    public mutating func update(with newMember: AccessibilityTraits) -> AccessibilityTraits? {
        let had = contains(newMember)
        bits.formUnion(newMember.bits)
        return had ? newMember : nil
    }
    public mutating func formUnion(_ other: AccessibilityTraits) { bits.formUnion(other.bits) }
    public mutating func formIntersection(_ other: AccessibilityTraits) { bits.formIntersection(other.bits) }
    public mutating func formSymmetricDifference(_ other: AccessibilityTraits) {
        bits.formSymmetricDifference(other.bits)
    }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/frame(width:height:alignment:)
    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center)
        -> some View
    { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/frame(minwidth:idealwidth:maxwidth:minheight:idealheight:maxheight:alignment:)
    nonisolated public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/offset(x:y:)
    nonisolated public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/padding(_:)-68shk
    nonisolated public func padding(_ length: CGFloat? = nil) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/clipshape(_:style:)
    nonisolated public func clipShape<S: Shape>(_ shape: S) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/contentshape(_:eofill:)
    nonisolated public func contentShape<S: Shape>(_ shape: S) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/font(_:)
    nonisolated public func font(_ font: Font?) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/foregroundcolor(_:) (deprecated in iOS 17, still available)
    @available(iOS, deprecated: 17.0, message: "use foregroundStyle(_:)")
    nonisolated public func foregroundColor(_ color: Color?) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/foregroundstyle(_:) (iOS 15+)
    @available(iOS 15.0, *)
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/linelimit(_:)-513mb
    nonisolated public func lineLimit(_ number: Int?) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/minimumscalefactor(_:)
    nonisolated public func minimumScaleFactor(_ factor: CGFloat) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/multilinetextalignment(_:)
    nonisolated public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/shadow(color:radius:x:y:)
    nonisolated public func shadow(
        color: Color = Color(.sRGB, red: 0, green: 0, blue: 0, opacity: 0.33), radius: CGFloat,
        x: CGFloat = 0, y: CGFloat = 0
    ) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/gesture(_:including:)
    nonisolated public func gesture<T: Gesture>(_ gesture: T, including mask: GestureMask = .all) -> some View {
        modified()
    }
    /// https://developer.apple.com/documentation/swiftui/view/ontapgesture(count:perform:)
    nonisolated public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> some View {
        modified()
    }
    /// https://developer.apple.com/documentation/swiftui/view/opacity(_:)
    nonisolated public func opacity(_ opacity: Double) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/environment(_:_:)
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V)
        -> some View
    { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/id(_:)
    nonisolated public func id<ID: Hashable>(_ id: ID) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/onopenurl(perform:) (iOS 14+)
    @available(iOS 14.0, *)
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityelement(children:)
    nonisolated public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View {
        modified()
    }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilitylabel(_:)-1d7jv
    nonisolated public func accessibilityLabel(_ label: Text) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityaddtraits(_:)
    nonisolated public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityvalue(_:)-(text) (iOS 14+)
    @available(iOS 14.0, *)
    nonisolated public func accessibilityValue(_ value: Text) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityhint(_:)-(text) (iOS 14+)
    @available(iOS 14.0, *)
    nonisolated public func accessibilityHint(_ hint: Text) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityinputlabels(_:)-(text) (iOS 14+)
    @available(iOS 14.0, *)
    nonisolated public func accessibilityInputLabels(_ inputLabels: [Text]) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityshowslargecontentviewer(_:) (iOS 15+)
    @available(iOS 15.0, *)
    nonisolated public func accessibilityShowsLargeContentViewer<V: View>(@ViewBuilder _ largeContentView: () -> V)
        -> some View
    { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/disabled(_:)
    nonisolated public func disabled(_ disabled: Bool) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:perform:) (iOS 14+)
    @available(iOS 14.0, *)
    nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> some View {
        modified()
    }
    /// https://developer.apple.com/documentation/swiftui/view/buttonstyle(_:)-7qx1
    nonisolated public func buttonStyle(_ style: PlainButtonStyle) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)-avgj (iOS 14+)
    @available(iOS 14.0, *)
    nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:)
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping () -> Content
    ) -> some View { modified() }
    /// https://developer.apple.com/documentation/swiftui/view/task(priority:_:) (iOS 15+)
    @available(iOS 15.0, *)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void
    ) -> some View { modified() }
}

extension Image {
    /// https://developer.apple.com/documentation/swiftui/view/scaledtofit()
    nonisolated public func scaledToFit() -> some View { modified() }
}

// MARK: - Apps and scenes

/// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    nonisolated public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

extension Never: Scene {}

/// https://developer.apple.com/documentation/swiftui/windowgroup
public struct WindowGroup<Content: View>: Scene {
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/app (iOS 14+)
@available(iOS 14.0, *)
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    /// https://developer.apple.com/documentation/swiftui/app/init()
    init()
    @SceneBuilder var body: Self.Body { get }
}

@available(iOS 14.0, *)
extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor public static func main() {}
}

// MARK: - UIKit interoperation

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentable
@MainActor @preconcurrency
public protocol UIViewRepresentable: View where Self.Body == Never {
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/uiviewtype
    associatedtype UIViewType: UIView
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/coordinator
    associatedtype Coordinator = Void
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/context
    typealias Context = UIViewRepresentableContext<Self>
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makeuiview(context:)
    @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/updateuiview(_:context:)
    @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makecoordinator()-32trb
    @MainActor @preconcurrency func makeCoordinator() -> Self.Coordinator
}

extension UIViewRepresentable where Self.Coordinator == Void {
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makecoordinator()-1e6ds
    public func makeCoordinator() {}
}

extension UIViewRepresentable {
    /// A representable's body is never called.
    nonisolated public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext
@MainActor @preconcurrency
public struct UIViewRepresentableContext<Representable> where Representable: UIViewRepresentable {
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext/coordinator
    public let coordinator: Representable.Coordinator
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext/environment
    public var environment: EnvironmentValues { EnvironmentValues() }
}

/// https://developer.apple.com/documentation/swiftui/uihostingcontroller
@MainActor @preconcurrency
open class UIHostingController<Content>: UIViewController where Content: View {
    /// https://developer.apple.com/documentation/swiftui/uihostingcontroller/init(rootview:)
    @MainActor @preconcurrency public init(rootView: Content) {
        self.rootView = rootView
        super.init(nibName: nil, bundle: nil)
    }
    /// https://developer.apple.com/documentation/swiftui/uihostingcontroller/init(coder:)
    @MainActor @preconcurrency public required init?(coder aDecoder: NSCoder) { fatalError("stub") }
    /// https://developer.apple.com/documentation/swiftui/uihostingcontroller/rootview
    @MainActor @preconcurrency public var rootView: Content
}
