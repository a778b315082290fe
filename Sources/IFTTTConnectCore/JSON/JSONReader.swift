import Foundation

/// Reads typed values out of a JSON object, tolerant where the Connect API is loose and strict where a
/// value is essential. Errors carry a relative path that callers extend while the error unwinds, so the
/// success path never builds path strings.
package struct JSONReader {
    package let object: JSONObject

    package init(_ value: JSONValue) throws(ConnectDecodingError) {
        guard case .object(let object) = value else {
            throw ConnectDecodingError(path: "", reason: .typeMismatch(expected: "object", found: value.typeName))
        }
        self.object = object
    }

    /// A present, non-null value.
    package func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// A required string. Numbers are accepted and written in their plain decimal form (ids are sometimes numeric).
    package func string(_ key: String) throws(ConnectDecodingError) -> String {
        guard let value = value(key) else {
            throw ConnectDecodingError(path: "", reason: .missingKey(key))
        }
        return try Self.string(value, key: key)
    }

    /// An optional string: absent or `null` gives `nil`.
    package func optionalString(_ key: String) throws(ConnectDecodingError) -> String? {
        guard let value = value(key) else { return nil }
        return try Self.string(value, key: key)
    }

    package static func string(_ value: JSONValue, key: String) throws(ConnectDecodingError) -> String {
        switch value {
        case .string(let s): return s
        case .number(let d): return JSONValue.format(d)
        default:
            throw ConnectDecodingError(
                path: "." + key, reason: .typeMismatch(expected: "string", found: value.typeName))
        }
    }

    /// A required absolute URL.
    package func url(_ key: String) throws(ConnectDecodingError) -> URL {
        let text = try string(key)
        guard let url = Self.absoluteURL(text) else {
            throw ConnectDecodingError(path: "." + key, reason: .invalidValue("not an absolute URL"))
        }
        return url
    }

    /// An optional URL: absent, `null`, empty or unparseable gives `nil`.
    package func optionalURL(_ key: String) throws(ConnectDecodingError) -> URL? {
        guard let text = try optionalString(key) else { return nil }
        return Self.absoluteURL(text)
    }

    /// An optional web URL: absent, `null`, empty, unparseable or not ``webURL(_:)`` gives `nil`. For the URLs the
    /// SDK shows or links (icons, cover images, a service's site), so that no `javascript:`, `data:` or `file:` URL
    /// reaches an image view, a link or a rendered SVG.
    package func optionalWebURL(_ key: String) throws(ConnectDecodingError) -> URL? {
        guard let text = try optionalString(key) else { return nil }
        return Self.webURL(text)
    }

    /// `text` as an absolute `http` or `https` URL with a host; `nil` for any other scheme.
    package static func webURL(_ text: String) -> URL? {
        guard let url = absoluteURL(text) else { return nil }
        switch webURLVerdict(text) {
        case true?: return url
        case false?: return nil
        case nil: return url.isWebURL ? url : nil
        }
    }

    /// Whether `text`, which `URL(string:)` accepts, is a URL that ``URL/isWebURL`` accepts, decided on its bytes
    /// when that is plain: the scheme is the bytes before the first `:` (``absoluteURL(_:)`` has checked them), and a
    /// host needs `//` after it and an authority of letters, digits, `-._~` with at most one `@` (user information
    /// before it) and one `:` after the host (a port of digits). For anything else in the authority (`%`, `[`, a
    /// sub-delimiter, a non-ASCII byte, ...) it returns `nil`: the parsed URL decides. Reading the parsed URL's
    /// scheme and host costs a copy, a lowercasing and a percent-decoding per URL.
    static func webURLVerdict(_ text: String) -> Bool? {
        var utf8 = text
        return utf8.withUTF8 { bytes -> Bool? in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
            func lower(_ index: Int) -> UInt8 { bytes[index] | 0x20 }
            let http =
                colon >= 4 && colon <= 5 && lower(0) == UInt8(ascii: "h") && lower(1) == UInt8(ascii: "t")
                && lower(2) == UInt8(ascii: "t") && lower(3) == UInt8(ascii: "p")
                && (colon == 4 || lower(4) == UInt8(ascii: "s"))
            guard http else { return false }
            guard colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"),
                bytes[colon + 2] == UInt8(ascii: "/")
            else { return false }
            var hostStart = colon + 3
            var hostEnd: Int?
            var at = 0
            var index = colon + 3
            authority: while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): break authority
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    if hostEnd != nil, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                        return nil  // a port that is not digits
                    }
                case UInt8(ascii: "@"):
                    at += 1
                    guard at == 1 else { return nil }
                    hostStart = index + 1
                    hostEnd = nil
                case UInt8(ascii: ":"):
                    if hostEnd != nil { return nil }  // user information's `:`, or a second port separator
                    hostEnd = index
                default: return nil
                }
                index += 1
            }
            // A `:` before the `@` separated user and password, not host and port.
            if let end = hostEnd, end < hostStart { return nil }
            return (hostEnd ?? index) > hostStart
        }
    }

    package static func absoluteURL(_ text: String) -> URL? {
        // A scheme (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":") checked on the bytes is much
        // cheaper than asking the parsed URL for it.
        var sawLetter = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":") {
                guard sawLetter else { return nil }
                return URL(string: text)
            }
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOther =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (sawLetter && isOther) else { return nil }
            sawLetter = true
        }
        return nil
    }

    /// A Boolean given as `true`/`false`, `"true"`/`"false"`, or the number `1`/`0` (Foundation reads a JSON `1` as
    /// `true`, and ConnectSDK-iOS 2.8 read its Booleans that way); absent or `null` gives `defaultValue`.
    package func bool(_ key: String, default defaultValue: Bool) throws(ConnectDecodingError) -> Bool {
        guard let value = value(key) else { return defaultValue }
        if case .number(let number) = value, number == 0 || number == 1 { return number == 1 }
        guard let bool = value.boolValue else {
            throw ConnectDecodingError(
                path: "." + key, reason: .typeMismatch(expected: "boolean", found: value.typeName))
        }
        return bool
    }

    /// An optional number given as a JSON number or a numeric string.
    package func optionalDouble(_ key: String) throws(ConnectDecodingError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue else {
            throw ConnectDecodingError(
                path: "." + key, reason: .typeMismatch(expected: "number", found: value.typeName))
        }
        return number
    }

    /// An array whose elements are decoded by `element`; absent or `null` gives an empty array.
    package func array<T>(_ key: String, _ element: (JSONValue) throws(ConnectDecodingError) -> T)
        throws(ConnectDecodingError) -> [T]
    {
        guard let value = value(key) else { return [] }
        guard case .array(let items) = value else {
            throw ConnectDecodingError(path: "." + key, reason: .typeMismatch(expected: "array", found: value.typeName))
        }
        var result: [T] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do throws(ConnectDecodingError) {
                result.append(try element(item))
            } catch {
                throw error.prefixed(".\(key)[\(index)]")
            }
        }
        return result
    }

    /// An array whose elements are decoded by `element`, leaving out every element that lacks a key it
    /// requires (as the original SDK did); any other error still fails with the element's path.
    package func arrayDroppingIncomplete<T>(_ key: String, _ element: (JSONValue) throws(ConnectDecodingError) -> T)
        throws(ConnectDecodingError) -> [T]
    {
        try arrayDropping(key, element).items
    }

    /// Like ``arrayDroppingIncomplete(_:_:)`` and also returns the first error of a left-out element, with
    /// its path.
    package func arrayDropping<T>(_ key: String, _ element: (JSONValue) throws(ConnectDecodingError) -> T)
        throws(ConnectDecodingError) -> (items: [T], firstDropped: ConnectDecodingError?)
    {
        guard let value = value(key) else { return ([], nil) }
        guard case .array(let items) = value else {
            throw ConnectDecodingError(path: "." + key, reason: .typeMismatch(expected: "array", found: value.typeName))
        }
        var result: [T] = []
        var firstDropped: ConnectDecodingError?
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do throws(ConnectDecodingError) {
                result.append(try element(item))
            } catch {
                guard case .missingKey = error.reason, error.path.isEmpty else {
                    throw error.prefixed(".\(key)[\(index)]")
                }
                if firstDropped == nil { firstDropped = error.prefixed(".\(key)[\(index)]") }
            }
        }
        return (result, firstDropped)
    }

    /// Decodes a nested object, extending the error path with `key`.
    package func nested<T>(_ key: String, _ body: (JSONValue) throws(ConnectDecodingError) -> T)
        throws(ConnectDecodingError) -> T?
    {
        guard let value = value(key) else { return nil }
        do throws(ConnectDecodingError) {
            return try body(value)
        } catch {
            throw error.prefixed("." + key)
        }
    }
}

extension ConnectDecodingError {
    /// The same error with `component` put in front of its path.
    package func prefixed(_ component: String) -> ConnectDecodingError {
        if path.hasPrefix("$") { return self }
        return ConnectDecodingError(path: component + path, reason: reason)
    }

    /// The same error with its path anchored at the document root (`$`).
    package func rooted() -> ConnectDecodingError {
        if path.hasPrefix("$") { return self }
        return ConnectDecodingError(path: "$" + path, reason: reason)
    }
}

extension URL {
    /// Whether this is an `http` or `https` URL with a host: the only URLs the SDK renders into SVG or shows.
    package var isWebURL: Bool {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(host ?? "").isEmpty
    }
}
