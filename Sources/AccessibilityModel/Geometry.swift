/// Screen geometry in points, with the origin at the top left (UIKit's coordinate space).

public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(formatPoints(x)), \(formatPoints(y)))" }
}

/// `accessibilityFrame`: a rectangle in screen points.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var center: Point { Point(x: midX, y: midY) }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Double { isEmpty ? 0 : width * height }

    /// Half-open containment, as `CGRect.contains`: a point on the right or bottom edge is outside.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    public func union(_ other: Rect) -> Rect {
        let left = Swift.min(minX, other.minX), top = Swift.min(minY, other.minY)
        let right = Swift.max(maxX, other.maxX), bottom = Swift.max(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    public func intersection(_ other: Rect) -> Rect? {
        let left = Swift.max(minX, other.minX), top = Swift.max(minY, other.minY)
        let right = Swift.min(maxX, other.maxX), bottom = Swift.min(maxY, other.maxY)
        guard right > left, bottom > top else { return nil }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    public var description: String {
        "[\(formatPoints(x)), \(formatPoints(y)), \(formatPoints(width)), \(formatPoints(height))]"
    }
}

/// Points print without a fractional part when they have none: `20`, not `20.0`.
public func formatPoints(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
