import QRCore

/// Follows a timing pattern along a symbol's edge in the binary image: where a grid fitted to a finder alone
/// places each dark timing module, the module actually found. Micro QR and rMQR symbols have one finder, and
/// a transform fitted to its 7-module square extrapolates perspective to the far edge with every pixel of the
/// square's error magnified; their timing patterns run along the edges and pin the far side down.
enum TimingModuleTracker {
    /// The dark timing modules at `modules` (module coordinates of their centres, in order along the pattern)
    /// paired with their centres in the image. `along` and `inwards` are one module's step along the pattern
    /// and away from the quiet zone beyond it, in module coordinates. Each module is looked for where
    /// `transform` places it, moved by the last one found's offset; `followingPitch`, once two are found,
    /// where the last few say the pattern goes, at their pitch: seen at a steep angle, a long symbol's modules
    /// shrink along it, and the pitch of a fit to the finder alone falls behind by a module within a few dozen
    /// (at angles short of that, the found centres' error makes their pitch the worse guess). Modules not
    /// found are left out.
    static func darkModuleCentres(_ modules: [Point], along: Point, inwards: Point, transform: PerspectiveTransform,
                                  followingPitch: Bool = false, in image: BinaryImage) -> [(module: Point, centre: Point)] {
        var shift = Point.zero
        var found: [(module: Point, centre: Point)] = []
        for module in modules {
            let projected = transform.apply(module)
            var guess = projected + shift
            var step = transform.apply(module + along) - projected
            var inward = transform.apply(module + inwards) - projected
            if followingPitch && found.count >= 2 {
                // Over up to three found modules back: the pitch of neighbours alone carries their centres' error.
                let last = found[found.count - 1], before = found[max(0, found.count - 4)]
                let modulesApart = (last.module - before.module).dot(along)
                let pitch = (last.centre - before.centre) * (1 / modulesApart)
                // A pitch far from the fit's is a misplaced module, not perspective.
                if modulesApart > 0, (0.6...1.6).contains(pitch.length / step.length) {
                    inward = inward * (pitch.length / step.length)
                    step = pitch
                    guess = last.centre + pitch * (module - last.module).dot(along)
                }
            }
            guard let centre = moduleCentre(near: guess, along: step, inwards: inward, in: image) else { continue }
            found.append((module, centre))
            shift = centre - projected
        }
        return found
    }

    /// The centre of the dark timing module nearest `guess`: the middle of the dark run through it along the
    /// pattern (its light neighbours bound it within a module either side), and half a module in from its
    /// outer edge. `along` and `inwards` are one module's step in pixels. Nil when no dark run about a module
    /// long is there.
    private static func moduleCentre(near guess: Point, along: Point, inwards: Point, in image: BinaryImage) -> Point? {
        let step = 0.1
        var point = guess
        for _ in 0..<2 {
            // The dark run along the pattern, within a module either side.
            let dark = stride(from: -1.0, through: 1.0, by: step).filter { k in
                let p = point + along * k
                return image.isDark(at: p.x, p.y)
            }
            guard let first = dark.first, let last = dark.last, dark.count >= 5, last - first <= 1.6 else { return nil }
            point = point + along * ((first + last) / 2)
            // The outer edge: outwards while dark, or inwards until dark when the guess lies outside. It lies
            // half a step outside the outermost dark sample. Dark a module and a half out, there is no quiet zone.
            func isDark(_ depth: Double) -> Bool {
                let p = point + inwards * depth
                return image.isDark(at: p.x, p.y)
            }
            var depth = 0.0
            if isDark(0) {
                while depth > -1.5 && isDark(depth - step) { depth -= step }
                guard depth > -1.5 else { return nil }
            } else {
                while depth < 1 && !isDark(depth) { depth += step }
                guard depth < 1 else { return nil }
            }
            point = point + inwards * (depth - step / 2 + 0.5)
        }
        return point
    }
}
