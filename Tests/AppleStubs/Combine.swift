// Test-only stub of Apple's Combine: only what the example apps use to publish a model to SwiftUI
// (`ObservableObject`, `@Published`), with the signatures of Apple's documentation (page beside each declaration).
// Not Apple's SDK: it proves type-correctness only; nothing is ever published.
@_exported import Foundation

/// https://developer.apple.com/documentation/combine/publisher
public protocol Publisher<Output, Failure> {
    /// https://developer.apple.com/documentation/combine/publisher/output
    associatedtype Output
    /// https://developer.apple.com/documentation/combine/publisher/failure
    associatedtype Failure: Error
}

/// https://developer.apple.com/documentation/combine/observableobjectpublisher
final public class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    /// https://developer.apple.com/documentation/combine/observableobjectpublisher/init()
    public init() {}
    /// https://developer.apple.com/documentation/combine/observableobjectpublisher/send()
    final public func send() {}
}

/// https://developer.apple.com/documentation/combine/observableobject
public protocol ObservableObject: AnyObject {
    /// https://developer.apple.com/documentation/combine/observableobject/objectwillchangepublisher
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where Self.ObjectWillChangePublisher.Failure == Never
    /// https://developer.apple.com/documentation/combine/observableobject/objectwillchange-2oa5v
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    /// https://developer.apple.com/documentation/combine/observableobject/objectwillchange-1q9ow
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// https://developer.apple.com/documentation/combine/published
@propertyWrapper
public struct Published<Value> {
    private var value: Value
    /// https://developer.apple.com/documentation/combine/published/init(initialvalue:)
    public init(wrappedValue: Value) { value = wrappedValue }
    /// Only for properties of classes, reached through the enclosing instance (as in Apple's SDK).
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }
    /// https://developer.apple.com/documentation/combine/published/subscript(_enclosinginstance:wrapped:storage:)
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].value }
        set { object[keyPath: storageKeyPath].value = newValue }
    }
}
