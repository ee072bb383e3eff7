/// A rectangle of whole pixels: origin at the top left, x to the right, y down.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Column of the left edge.
    public var x: Int
    /// Row of the top edge.
    public var y: Int
    /// Columns covered.
    public var width: Int
    /// Rows covered.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The rectangle `(0, 0, width, height)`.
    public init(width: Int, height: Int) { self.init(x: 0, y: 0, width: width, height: height) }

    /// Row just below the bottom edge (DNG ActiveArea's "bottom").
    public var bottom: Int { y + height }
    /// Column just right of the right edge (DNG ActiveArea's "right").
    public var right: Int { x + width }

    /// Whether `other` lies entirely inside this rectangle.
    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.right <= right && other.bottom <= bottom && other.width >= 0
            && other.height >= 0
    }

    /// The same rectangle with `margin` pixels removed on every side (never smaller than zero).
    public func inset(by margin: Int) -> PixelRect {
        PixelRect(
            x: x + margin, y: y + margin, width: max(0, width - 2 * margin), height: max(0, height - 2 * margin))
    }

    public var description: String { "\(width)×\(height)+\(x)+\(y)" }
}
