import QRCore

/// The grids one read has already sampled, so that near-identical candidates are not sampled and decoded
/// again: the finder centres and their refined estimates often give the same grid, and the global
/// threshold pass finds the same symbols as the block pass, whose luminance samples would be identical.
struct AttemptedGrids {
    /// Which sampling a grid went through: the binary image of one pass, or the luminance plane of one
    /// scale and polarity (shared by the passes on that plane).
    enum Sampling: Hashable {
        case binary(pass: Int)
        case luminance(scale: Double, inverted: Bool)

        var isLuminance: Bool {
            if case .luminance = self { return true }
            return false
        }
    }

    private struct Footprint {
        let sampling: Sampling
        let width: Int
        let height: Int
        let isTiled: Bool
        /// The four corners and the centre, in pixels of the searched image.
        let points: [Point]
    }

    private var footprints: [Footprint] = []

    /// Records `grid` (found in a plane scaled down by `scale`) for `sampling`; false if a grid of the same
    /// shape whose corners and centre all lie within a twentieth of a module of these was recorded before.
    mutating func insert(_ grid: SamplingGrid, scale: Double, sampling: Sampling) -> Bool {
        let corners = grid.corners
        let centre = grid.pixel(Double(grid.width) / 2, Double(grid.height) / 2)
        let points = [corners.topLeft, corners.topRight, corners.bottomRight, corners.bottomLeft, centre].map { $0 * scale }
        // Luminance is the same plane for every pass at one scale: a grid within a seventh of a module of
        // one sampled there before reads the same modules (another pass's finder centres move that much).
        let tolerance = (sampling.isLuminance ? 0.15 : 0.05) * grid.moduleSize * scale
        let isNew = !footprints.contains { footprint in
            footprint.sampling == sampling && footprint.width == grid.width && footprint.height == grid.height
                && footprint.isTiled == grid.isTiled
                && zip(footprint.points, points).allSatisfy { $0.distance(to: $1) <= tolerance }
        }
        if isNew {
            footprints.append(Footprint(sampling: sampling, width: grid.width, height: grid.height, isTiled: grid.isTiled,
                                        points: points))
        }
        return isNew
    }
}
