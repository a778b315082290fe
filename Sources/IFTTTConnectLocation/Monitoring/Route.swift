import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A sequence of position fixes to replay through a ``SimulatedRegionMonitor``.
///
/// Read one from GPX 1.1 (`<trkpt>`, `<rtept>` or `<wpt>` with `lat`/`lon` attributes and a `<time>`), or
/// build one from fixes. GPX has no accuracy field; this reader takes the horizontal accuracy in metres from
/// an optional `<accuracy>` element inside the point (or its `<extensions>`), and uses ``defaultAccuracy``
/// otherwise. Points without `<time>` are spaced ``defaultInterval`` seconds after the previous one.
@_spi(Sandbox) public struct Route: Sendable, Hashable {
    /// The fixes in replay order.
    public var fixes: [LocationFix]

    /// The accuracy used when a point has none: 10 m.
    public static let defaultAccuracy: Double = 10
    /// The spacing of points without a time: 60 s.
    public static let defaultInterval: TimeInterval = 60

    /// Creates a route from fixes.
    public init(fixes: [LocationFix]) {
        self.fixes = fixes
    }

    /// Reads a GPX document.
    ///
    /// - Throws: ``LocationError`` with ``LocationError/Code/invalidRoute`` when the XML is malformed, a point
    ///   has no valid coordinates or a time cannot be read, or the document has no points.
    public init(gpx data: Data, start: Date = Date(timeIntervalSince1970: 0)) throws(LocationError) {
        let reader = GPXReader(start: start)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse(), reader.failure == nil else {
            throw LocationError(
                .invalidRoute,
                reader.failure
                    ?? (data.isEmpty
                        ? "the GPX document is empty"
                        : "malformed GPX: not well-formed XML at line \(parser.lineNumber), column \(parser.columnNumber)")
            )
        }
        guard !reader.fixes.isEmpty else { throw LocationError(.invalidRoute, "the GPX document has no points") }
        self.fixes = reader.fixes
    }
}

private final class GPXReader: NSObject, XMLParserDelegate {
    var fixes: [LocationFix] = []
    var failure: String?
    private let start: Date
    private var point: (lat: Double, lon: Double)?
    private var time: Date?
    private var accuracy: Double?
    private var text = ""

    init(start: Date) {
        self.start = start
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes: [String: String] = [:]
    ) {
        text = ""
        switch local(elementName) {
        case "trkpt", "rtept", "wpt":
            guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                Coordinate(latitude: lat, longitude: lon).isValid
            else {
                fail(parser, "point \(fixes.count + 1) has no valid lat/lon")
                return
            }
            point = (lat, lon)
            time = nil
            accuracy = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch local(elementName) {
        case "time" where point != nil:
            guard let date = Self.parseTime(value) else {
                fail(parser, "point \(fixes.count + 1) has an unreadable time")
                return
            }
            time = date
        case "accuracy" where point != nil:
            guard let meters = Double(value), meters >= 0 else {
                fail(parser, "point \(fixes.count + 1) has an invalid accuracy")
                return
            }
            accuracy = meters
        case "trkpt", "rtept", "wpt":
            guard let point else { return }
            let timestamp = time ?? fixes.last.map { $0.timestamp.addingTimeInterval(Route.defaultInterval) } ?? start
            fixes.append(
                LocationFix(
                    latitude: point.lat, longitude: point.lon,
                    horizontalAccuracy: accuracy ?? Route.defaultAccuracy, timestamp: timestamp))
            self.point = nil
        default:
            break
        }
        text = ""
    }

    private func local(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        if failure == nil { failure = reason }
        parser.abortParsing()
    }

    /// ISO 8601 in UTC or with an offset, with or without fractional seconds.
    static func parseTime(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
