/// Interpolates a region of a raw frame to full colour, row band by row band, on all cores.
///
/// Output rows hold camera RGB (0 black, 1 white level) interleaved, `region.width × 3` values. The rows of
/// each band are handed to the caller's sink in order within the band; bands run concurrently, so the sink must
/// only write to its own rows.
struct Demosaicer: Sendable {
    let frame: RawFrame
    /// Relative to the active area.
    let region: PixelRect
    let algorithm: DemosaicAlgorithm
    /// White-balance gains applied before interpolation.
    let gains: (Float, Float, Float)
    /// Whether output rows stay white-balanced (true) or are divided by ``gains`` back to camera values.
    let outputsWhiteBalanced: Bool

    /// Bayer patterns use the Bayer kernels; any other RGB pattern (X-Trans) the colour-difference method.
    private var isBayer: Bool { frame.cfa.isBayer }
    /// Mirrored entries around a band: the 5×5 Bayer kernels need 2; the colour-difference method's 3×3 green
    /// window and its 5×5 colour-difference window need 3.
    private var padding: Int { isBayer ? 2 : 3 }

    /// Interpolation runs on white-balanced values (AsShotNeutral's inverse, as dcraw and LibRaw do): the
    /// kernels assume that colours differ little between neighbours, which holds for white-balanced data but
    /// not for raw channels that differ by 2× on every neutral edge, where it turns into coloured zippers.
    init(frame: RawFrame, region: PixelRect, algorithm: DemosaicAlgorithm, outputsWhiteBalanced: Bool)
        throws(RawImageError)
    {
        guard frame.cfa.colors.allSatisfy({ $0.rawValue <= 2 }) else {
            throw RawImageError(.invalidPattern, "demosaicing handles red, green and blue filters, not \(frame.cfa)")
        }
        let active = PixelRect(width: frame.activeArea.width, height: frame.activeArea.height)
        guard region.width > 0, region.height > 0, active.contains(region) else {
            throw RawImageError(.invalidGeometry, "region \(region) is outside the active area \(frame.activeArea)")
        }
        self.frame = frame
        self.region = region
        self.algorithm = algorithm
        self.outputsWhiteBalanced = outputsWhiteBalanced
        let neutral = try frame.color.validatedNeutral()
        let largest = max(neutral.0, neutral.1, neutral.2)
        gains = (Float(largest / neutral.0), Float(largest / neutral.1), Float(largest / neutral.2))
    }

    /// Runs `sink(row, pixels)` for every region row; `pixels` holds `region.width × 3` values and is only
    /// valid during the call.
    func forEachRow(_ sink: @Sendable (Int, UnsafePointer<Float>) -> Void) {
        Parallel.forEachChunk(of: region.height, minimumChunk: 32) { rows in
            let band = MosaicBand(
                frame: frame, region: region, rows: rows, padding: padding, interiorMargin: 2, gains: gains)
            defer { band.deallocate() }
            let line = UnsafeMutablePointer<Float>.allocate(capacity: region.width * 3)
            defer { line.deallocate() }
            let inverse = (1 / gains.0, 1 / gains.1, 1 / gains.2)
            func emit(_ row: Int) {
                if !outputsWhiteBalanced {
                    var p = line
                    for _ in 0..<region.width {
                        p[0] *= inverse.0
                        p[1] *= inverse.1
                        p[2] *= inverse.2
                        p += 3
                    }
                }
                sink(row, line)
            }
            if isBayer {
                let kinds = bayerKinds()
                for row in rows {
                    bayerRow(band, row: row, kinds: kinds, into: line)
                    emit(row)
                }
            } else {
                let green = greenPlane(band)
                defer { green.deallocate() }
                let offsets = patternOffsets(stride: band.stride)
                for row in rows {
                    patternRow(band, green: green, offsets: offsets, row: row, into: line)
                    emit(row)
                }
            }
        }
    }

    // MARK: Bayer

    /// What is missing at each of the four positions of the 2×2 pattern (row-major): 0 a red site, 1 a blue
    /// site, 2 a green site with red to its left and right, 3 a green site with blue to its left and right.
    private func bayerKinds() -> [UInt8] {
        let cfa = frame.cfa
        return (0..<4).map { position in
            let row = position / 2
            let column = position % 2
            switch cfa.color(row: row, column: column) {
            case .red: return 0
            case .blue: return 1
            default: return cfa.color(row: row, column: column + 1) == .red ? 2 : 3
            }
        }
    }

    private func bayerRow(_ band: MosaicBand, row: Int, kinds: [UInt8], into out: UnsafeMutablePointer<Float>) {
        let width = region.width
        let fast = band.interiorRows.contains(row) ? band.interiorColumns : 0..<0
        let patternRow = ((region.y + row) & 1) * 2
        let stride = band.stride
        let rowBase = band.index(row: row, column: 0)
        let quality = algorithm == .highQuality
        for column in 0..<width where !fast.contains(column) {
            band.borderPixel(row: row, column: column, into: out + column * 3)
        }
        for column in fast {
            let p = band.values + rowBase + column
            let c = p[0]
            let west = p[-1]
            let east = p[1]
            let north = p[-stride]
            let south = p[stride]
            let diagonal = p[-stride - 1] + p[-stride + 1] + p[stride - 1] + p[stride + 1]
            let horizontal: Float
            let vertical: Float
            let cross: Float
            let across: Float
            if quality {
                // Malvar–He–Cutler, ICASSP 2004, Figure 2 (coefficients × 8).
                let west2 = p[-2]
                let east2 = p[2]
                let north2 = p[-2 * stride]
                let south2 = p[2 * stride]
                let far = west2 + east2 + north2 + south2
                let mhcCross = (4 * c + 2 * (west + east + north + south) - far) * 0.125
                let mhcHorizontal =
                    (5 * c + 4 * (west + east) - diagonal - (west2 + east2) + 0.5 * (north2 + south2)) * 0.125
                let mhcVertical =
                    (5 * c + 4 * (north + south) - diagonal - (north2 + south2) + 0.5 * (west2 + east2)) * 0.125
                let mhcAcross = (6 * c + 2 * diagonal - 1.5 * far) * 0.125
                // Overshoot limiting: each estimate stays within the range of the photosites it interpolates
                // between. On sharp, high-contrast edges the Laplacian term otherwise overshoots below black on
                // the dark side, and the clipped result shows as coloured dots along the edge.
                let nw = p[-stride - 1]
                let ne = p[-stride + 1]
                let sw = p[stride - 1]
                let se = p[stride + 1]
                cross = Self.clamp(
                    mhcCross, min(min(west, east), min(north, south)), max(max(west, east), max(north, south)))
                horizontal = Self.clamp(mhcHorizontal, min(west, east), max(west, east))
                vertical = Self.clamp(mhcVertical, min(north, south), max(north, south))
                across = Self.clamp(mhcAcross, min(min(nw, ne), min(sw, se)), max(max(nw, ne), max(sw, se)))
            } else {
                cross = (west + east + north + south) * 0.25
                horizontal = (west + east) * 0.5
                vertical = (north + south) * 0.5
                across = diagonal * 0.25
            }
            let o = out + column * 3
            switch kinds[patternRow + ((region.x + column) & 1)] {
            case 0:
                (o[0], o[1], o[2]) = (c, cross, across)
            case 1:
                (o[0], o[1], o[2]) = (across, cross, c)
            case 2:
                (o[0], o[1], o[2]) = (horizontal, c, vertical)
            default:
                (o[0], o[1], o[2]) = (vertical, c, horizontal)
            }
        }
    }

    @inline(__always)
    private static func clamp(_ value: Float, _ low: Float, _ high: Float) -> Float { min(max(value, low), high) }

    // MARK: X-Trans and other patterns

    /// For each pattern position: buffer offsets of the red, green and blue photosites in its 5×5 window.
    private struct PatternOffsets {
        var byColor: [[[Int]]]  // [position][color] → offsets
    }

    private func patternOffsets(stride: Int) -> PatternOffsets {
        let cfa = frame.cfa
        var byColor: [[[Int]]] = []
        for position in 0..<(cfa.width * cfa.height) {
            let row = position / cfa.width
            let column = position % cfa.width
            var lists: [[Int]] = [[], [], []]
            for dy in -2...2 {
                for dx in -2...2 where dy != 0 || dx != 0 {
                    // Positive operands for the pattern lookup: 6 × cfa size covers the ±2 window.
                    let color = cfa.color(row: row + dy + 6 * cfa.height, column: column + dx + 6 * cfa.width)
                    lists[Int(color.rawValue)].append(dy * stride + dx)
                }
            }
            byColor.append(lists)
        }
        return PatternOffsets(byColor: byColor)
    }

    /// The green plane: measured green, or at red and blue photosites an edge-aware mean of the greens in the
    /// 3×3 window, each weighted by `1 / (ε + |G − v|)` where `v` is the photosite's own value.
    ///
    /// On white-balanced data a neutral surface reads about the same in every channel, so greens on the same side
    /// of an edge as the photosite weigh far more than greens across it, and green no longer smears across edges
    /// (a plain mean leaves green fringes on the dark side of every edge, which no later colour difference can
    /// remove). In flat areas every green is equally far from `v`, so the weights are equal and the result is the
    /// plain mean; `ε` (about the noise of a mid-grey) keeps noise from steering the weights.
    private func greenPlane(_ band: MosaicBand) -> UnsafeMutablePointer<Float> {
        let stride = band.stride
        let count = stride * band.bufferRows
        let values = band.values
        let colors = band.colors
        let green = UnsafeMutablePointer<Float>.allocate(capacity: count)
        green.initialize(repeating: 0, count: count)
        guard band.bufferRows > 2, stride > 2 else { return green }
        for row in 1..<(band.bufferRows - 1) {
            for column in 1..<(stride - 1) {
                let index = row * stride + column
                let own = values[index]
                guard colors[index] != 1 else {
                    green[index] = own
                    continue
                }
                var sum: Float = 0
                var weights: Float = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let neighbour = index + dy * stride + dx
                        guard colors[neighbour] == 1 else { continue }
                        let weight = 1 / (Self.edgeEpsilon + abs(values[neighbour] - own))
                        sum += weight * values[neighbour]
                        weights += weight
                    }
                }
                green[index] = weights > 0 ? sum / weights : own
            }
        }
        return green
    }

    /// The ε of the edge-aware weights, in normalised units (1 = white level).
    static let edgeEpsilon: Float = 0.02

    private func patternRow(
        _ band: MosaicBand, green: UnsafeMutablePointer<Float>, offsets: PatternOffsets, row: Int,
        into out: UnsafeMutablePointer<Float>
    ) {
        let cfa = frame.cfa
        let fast = band.interiorRows.contains(row) ? band.interiorColumns : 0..<0
        let patternRow = ((region.y + row) % cfa.height) * cfa.width
        let rowBase = band.index(row: row, column: 0)
        let quality = algorithm == .highQuality
        for column in 0..<region.width {
            let index = rowBase + column
            let own = Int(band.colors[index])
            let o = out + column * 3
            if fast.contains(column) {
                let lists = offsets.byColor[patternRow + (region.x + column) % cfa.width]
                for channel in 0..<3 {
                    if channel == own {
                        o[channel] = band.values[index]
                        continue
                    }
                    let list = lists[channel]
                    guard !list.isEmpty else {
                        o[channel] = channel == 1 ? green[index] : 0
                        continue
                    }
                    var sum: Float = 0
                    if quality && channel != 1 {
                        // Colour differences weighted like the greens: photosites whose green is close to this
                        // pixel's lie on the same side of any edge.
                        var weights: Float = 0
                        let center = green[index]
                        for offset in list {
                            let neighbourGreen = green[index + offset]
                            let weight = 1 / (Self.edgeEpsilon + abs(neighbourGreen - center))
                            sum += weight * (band.values[index + offset] - neighbourGreen)
                            weights += weight
                        }
                        o[channel] = center + sum / weights
                    } else if quality {
                        o[channel] = green[index]
                    } else {
                        for offset in list { sum += band.values[index + offset] }
                        o[channel] = sum / Float(list.count)
                    }
                }
            } else {
                borderPatternPixel(band, green: green, index: index, quality: quality, into: o)
            }
        }
    }

    /// The colour-difference (or plain mean) estimate near the active area's edge, colours from the colour map.
    private func borderPatternPixel(
        _ band: MosaicBand, green: UnsafeMutablePointer<Float>, index: Int, quality: Bool,
        into o: UnsafeMutablePointer<Float>
    ) {
        let own = band.colors[index]
        for channel in 0..<3 {
            let color = UInt8(channel)
            if color == own {
                o[channel] = band.values[index]
                continue
            }
            if quality && channel == 1 {
                o[channel] = green[index]
                continue
            }
            var sum: Float = 0
            var weights: Float = 0
            for dy in -2...2 {
                for dx in -2...2 {
                    let neighbour = index + dy * band.stride + dx
                    guard band.colors[neighbour] == color else { continue }
                    if quality {
                        let weight = 1 / (Self.edgeEpsilon + abs(green[neighbour] - green[index]))
                        sum += weight * (band.values[neighbour] - green[neighbour])
                        weights += weight
                    } else {
                        sum += band.values[neighbour]
                        weights += 1
                    }
                }
            }
            let mean = weights > 0 ? sum / weights : 0
            o[channel] = quality ? green[index] + mean : mean
        }
    }
}

extension RawFrame {
    /// Interpolates the mosaic to full colour in camera space: black subtracted per CFA position and scaled so
    /// the white level is 1; no white balance in the output (interpolation itself runs white-balanced by
    /// AsShotNeutral, then the gains are divided out again), no clipping (noise can go below 0, and Malvar–He–Cutler's
    /// sharpening slightly above 1 next to clipped areas).
    ///
    /// - Parameters:
    ///   - algorithm: see ``DemosaicAlgorithm``.
    ///   - region: the part to interpolate, relative to the active area; the whole active area by default.
    ///     Pixels near its edge use neighbours outside it when the active area has them.
    /// - Throws: ``RawImageError`` when the region leaves the active area or the pattern has colours other than
    ///   red, green and blue.
    public func demosaiced(_ algorithm: DemosaicAlgorithm = .highQuality, region: PixelRect? = nil)
        throws(RawImageError) -> CameraRGBImage
    {
        let area = region ?? PixelRect(width: activeArea.width, height: activeArea.height)
        let demosaicer = try Demosaicer(frame: self, region: area, algorithm: algorithm, outputsWhiteBalanced: false)
        let rowLength = area.width * 3
        let count = rowLength * area.height
        let pixels = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            demosaicer.forEachRow { row, line in
                (output.base + row * rowLength).update(from: line, count: rowLength)
            }
            initialized = count
        }
        return try CameraRGBImage(width: area.width, height: area.height, pixels: pixels)
    }
}
