import AccessibilityModel

/// The text of one braille line, before translation to dots, and what each part of it shows.
///
/// Offsets and ranges count `Character`s of `text` (one cell each in computer braille).
/// Lines made by `BrailleFormatter` keep these invariants: the text is one line (no line
/// breaks, no leading, trailing or doubled spaces), and the segments are sorted, non-empty,
/// contiguous, cover the whole text exactly, and adjacent segments never share a target.
public struct BrailleLine: Hashable, Sendable, CustomStringConvertible {
    /// What a routing key over part of the line acts on.
    public enum Target: Hashable, Sendable {
        /// A scan item or group, by id.
        case element(ElementID)
        /// An entry of the scanner menu, by its 0-based index in the menu.
        case menuEntry(Int)
        /// The scanner menu button (`alwaysTap`, at the end of a cycle): selecting it opens the
        /// menu.
        case menuButton
    }

    /// A range of the text and what it shows; `target` nil shows nothing routable (a message).
    public struct Segment: Hashable, Sendable {
        /// In `Character`s of the line's text.
        public var range: Range<Int>
        public var target: Target?

        public init(range: Range<Int>, target: Target?) {
            self.range = range
            self.target = target
        }
    }

    public var text: String
    public var segments: [Segment]

    public init(text: String, segments: [Segment]) {
        self.text = text
        self.segments = segments
    }

    /// One segment over the whole text (none when the text is empty).
    public init(text: String, target: Target?) {
        let count = text.count
        self.init(text: text, segments: count == 0 ? [] : [Segment(range: 0..<count, target: target)])
    }

    public static let empty = BrailleLine(text: "", segments: [])

    /// The length in `Character`s.
    public var count: Int { text.count }

    public var description: String { text }

    /// The segment covering a character offset; nil outside the text (bounds-checked).
    public func segment(at offset: Int) -> Segment? {
        segments.first { $0.range.contains(offset) }
    }

    /// What the character at an offset shows; nil outside the text or over a message.
    public func target(at offset: Int) -> Target? {
        segment(at: offset)?.target
    }

    /// The ranges showing a target, in order.
    public func ranges(of target: Target) -> [Range<Int>] {
        segments.filter { $0.target == target }.map(\.range)
    }

    /// This line, then `separator` (when both lines have text), then `other`; the separator
    /// belongs to no target and `other`'s segments are shifted.
    public func appending(_ other: BrailleLine, separator: String = " ") -> BrailleLine {
        if other.text.isEmpty { return self }
        if text.isEmpty { return other }
        var builder = LineBuilder(self)
        builder.append(separator, target: nil)
        let shift = builder.count
        builder.text += other.text
        builder.count += other.count
        for segment in other.segments {
            builder.add(Segment(
                range: (segment.range.lowerBound + shift)..<(segment.range.upperBound + shift),
                target: segment.target))
        }
        return builder.line
    }
}

/// Builds a line part by part, merging adjacent parts with the same target into one segment.
struct LineBuilder {
    var text = ""
    var count = 0
    var segments: [BrailleLine.Segment] = []

    init() {}

    init(_ line: BrailleLine) {
        text = line.text
        count = line.count
        segments = line.segments
    }

    var line: BrailleLine { BrailleLine(text: text, segments: segments) }

    mutating func append(_ part: String, target: BrailleLine.Target?) {
        let length = part.count
        guard length > 0 else { return }
        text += part
        add(BrailleLine.Segment(range: count..<(count + length), target: target))
        count += length
    }

    mutating func add(_ segment: BrailleLine.Segment) {
        if let last = segments.last, last.target == segment.target,
           last.range.upperBound == segment.range.lowerBound {
            segments[segments.count - 1].range = last.range.lowerBound..<segment.range.upperBound
        } else {
            segments.append(segment)
        }
    }
}
