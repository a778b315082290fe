/// Escapes `text` for HTML and XML (SVG): element content and attribute values in single or double quotes.
///
/// The sandbox's one escaping function: the page templates' escaper (``MarkupEscaping``), so every value the web
/// activation pages, the partner's sign-in page, the playground and the SVG assets render goes through it. Nothing
/// calls it directly. It works on UTF-8 bytes, so a markup character followed by a combining mark is escaped too. It
/// replaces the five characters with a meaning in markup, `&` `<` `>` `"` `'`, by `&amp;` `&lt;` `&gt;`
/// `&quot;` `&#39;` (a numeric reference, valid in HTML 4, HTML5 and XML alike); every other character is kept as
/// it is, so text without them comes back unchanged.
func htmlEscape(_ text: String) -> String {
    let utf8 = text.utf8
    guard
        utf8.contains(where: {
            $0 == .ampersand || $0 == .lessThan || $0 == .greaterThan || $0 == .quote || $0 == .apostrophe
        })
    else {
        return text
    }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count + 16)
    for byte in utf8 {
        switch byte {
        case .ampersand: out.append(contentsOf: "&amp;".utf8)
        case .lessThan: out.append(contentsOf: "&lt;".utf8)
        case .greaterThan: out.append(contentsOf: "&gt;".utf8)
        case .quote: out.append(contentsOf: "&quot;".utf8)
        case .apostrophe: out.append(contentsOf: "&#39;".utf8)
        default: out.append(byte)
        }
    }
    return String(decoding: out, as: UTF8.self)
}

extension UInt8 {
    fileprivate static let ampersand = UInt8(ascii: "&")
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let greaterThan = UInt8(ascii: ">")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let apostrophe = UInt8(ascii: "'")
}
