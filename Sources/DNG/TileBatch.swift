/// Tiles of one shape (`columns × rows`) hashed by one call of the multi-lane MD5, in row-major tile order.
struct TileBatch: Sendable {
    let columns: Int
    let rows: Int
    var tiles: [Int]

    /// Groups the `across × down` tiles into batches of at most `batchSize` tiles of equal shape: the full tiles,
    /// and the clipped tiles of the right column, the bottom row and the corner, each among themselves.
    static func make(
        across: Int, down: Int, batchSize: Int, shape: (_ column: Int, _ row: Int) -> (columns: Int, rows: Int)
    ) -> [TileBatch] {
        var batches: [TileBatch] = []
        // The batch still being filled for each shape, by index into `batches`.
        var filling: [Int: Int] = [:]
        for tile in 0..<(across * down) {
            let (columns, rows) = shape(tile % across, tile / across)
            let key = columns << 32 | rows
            if let index = filling[key], batches[index].tiles.count < batchSize {
                batches[index].tiles.append(tile)
            } else {
                filling[key] = batches.count
                batches.append(TileBatch(columns: columns, rows: rows, tiles: [tile]))
            }
        }
        return batches
    }
}
