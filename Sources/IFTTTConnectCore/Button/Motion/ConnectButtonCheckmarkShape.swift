import Foundation

/// The checkmark's geometry, drawn alike by UIKit, SwiftUI and the SVG renderer: a circle, a dot that travels
/// round it to where the tick starts, and the tick (ConnectSDK-iOS 2.8's shapes).
///
/// The circle is 42 pt across, stroked 3 pt wide inside that; the tick's arms are 7 and 14 pt at right angles,
/// stroked 3 pt with round ends, its corner 3 pt left of the circle's centre so that it looks centred. The dot
/// (3 pt) starts level with the circle's centre above that corner, swings down and out to the left edge of the 72-pt square around the circle,
/// then up and back in to the tick's start: two quadratic curves, each half of its travel. A tick is not mirrored
/// in right-to-left layouts.
@_spi(Sandbox) public struct ConnectButtonCheckmarkShape: Sendable, Hashable {
    /// A point in the pill's coordinates.
    public struct Point: Sendable, Hashable {
        /// From the pill's left edge.
        public var x: Double
        /// From the pill's top edge.
        public var y: Double
    }

    /// The width of the circle's and the tick's strokes.
    public static let lineWidth = 3.0
    /// The dot's diameter.
    public static let dotDiameter = 3.0
    /// The tick's longer arm.
    static let tickLength = 14.0

    /// The circle's centre.
    public let center: Point
    /// The circle's radius at full size, to the middle of its stroke.
    public let radius: Double
    /// The tick's start, corner and end.
    public let tick: [Point]
    /// The dot's path: start, control, end of the first curve, control, end of the second.
    let dotPath: [Point]

    /// The shape of the checkmark in `frame` (the circle's frame, centred on the pill).
    public init(frame: ConnectButtonRect) {
        let cx = frame.midX
        let cy = frame.midY
        center = Point(x: cx, y: cy)
        radius = frame.width / 2 - Self.lineWidth / 2
        let arm = Self.tickLength / 2.0.squareRoot()
        let origin = Point(x: cx - Self.lineWidth, y: cy)
        let start = Point(x: origin.x - arm / 2, y: cy)
        tick = [start, Point(x: origin.x, y: cy + arm / 2), Point(x: origin.x + arm, y: cy - arm / 2)]
        let half = ConnectButtonGeometry.height / 2
        dotPath = [
            origin, Point(x: cx - half, y: cy + half), Point(x: cx - half, y: cy), Point(x: cx - half, y: cy - half),
            start,
        ]
    }

    /// The circle's radius at `scale` (0 to 1).
    public func radius(scale: Double) -> Double {
        radius * min(1, max(0, scale))
    }

    /// The part of the tick drawn when `stroke` (0 to 1) of its length is: the points from its start to where the
    /// stroke ends (empty at 0).
    public func tick(stroke: Double) -> [Point] {
        let fraction = min(1, max(0, stroke))
        guard fraction > 0 else { return [] }
        let lengths = zip(tick, tick.dropFirst()).map { hypot($1.x - $0.x, $1.y - $0.y) }
        var remaining = fraction * lengths.reduce(0, +)
        var points = [tick[0]]
        for (index, length) in lengths.enumerated() {
            let a = tick[index]
            let b = tick[index + 1]
            if remaining >= length {
                points.append(b)
                remaining -= length
            } else {
                let t = remaining / length
                points.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                break
            }
        }
        return points
    }

    /// Where the dot is when it has travelled `progress` (0 to 1) of its way.
    public func dot(at progress: Double) -> Point {
        let p = min(1, max(0, progress))
        let (a, control, b) = p < 0.5 ? (dotPath[0], dotPath[1], dotPath[2]) : (dotPath[2], dotPath[3], dotPath[4])
        let t = p < 0.5 ? p * 2 : (p - 0.5) * 2
        let u = 1 - t
        return Point(
            x: u * u * a.x + 2 * u * t * control.x + t * t * b.x, y: u * u * a.y + 2 * u * t * control.y + t * t * b.y)
    }
}
