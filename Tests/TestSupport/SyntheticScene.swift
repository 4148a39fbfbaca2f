import QRCore

/// A grayscale test picture with QR symbols drawn into it under any projective transform, with blur,
/// noise and uneven light: the reader's test bench.
public struct SyntheticScene: Sendable {
    public let width: Int
    public let height: Int
    /// Luminance, row-major.
    public private(set) var pixels: [UInt8]

    public init(width: Int, height: Int, background: UInt8 = 200) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: background, count: width * height)
    }

    /// Draws `modules` with its outer corners (module (0,0), (w,0), (w,h), (0,h)) at `corners` and a light
    /// quiet zone of `quietZone` modules, anti-aliased with 4 × 4 samples per pixel.
    public mutating func place(_ modules: BitMatrix, corners: [Point], quietZone: Int = 4,
                               dark: UInt8 = 20, light: UInt8 = 235) {
        let w = Double(modules.width), h = Double(modules.height), q = Double(quietZone)
        guard let toImage = PerspectiveTransform(from: [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)], to: corners)
        else { return }
        let toModules = toImage.adjugate
        let outline = [Point(-q, -q), Point(w + q, -q), Point(w + q, h + q), Point(-q, h + q)].map(toImage.apply)
        let bounds = Rect(bounding: outline)
        let region = Rect(x: bounds.minX - 1, y: bounds.minY - 1, width: bounds.width + 3, height: bounds.height + 3)
        place(modules, region: region, quietZone: quietZone, dark: dark, light: light, moduleAt: toModules.apply)
    }

    /// Draws `modules` bent by a warp no homography follows: `moduleAt` maps a point of the picture (in
    /// pixels) to module coordinates. Pixels of `region` whose points map into the symbol or its light
    /// quiet zone of `quietZone` modules are drawn, anti-aliased with 4 × 4 samples per pixel.
    public mutating func place(_ modules: BitMatrix, region: Rect, quietZone: Int = 4, dark: UInt8 = 20, light: UInt8 = 235,
                               moduleAt: (Point) -> Point) {
        let w = Double(modules.width), h = Double(modules.height), q = Double(quietZone)
        let x0 = max(0, Int(region.minX)), x1 = min(width - 1, Int(region.maxX))
        let y0 = max(0, Int(region.minY)), y1 = min(height - 1, Int(region.maxY))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                var sum = 0.0, inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let m = moduleAt(Point(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4))
                        guard m.x >= -q, m.y >= -q, m.x < w + q, m.y < h + q else { continue }
                        inside += 1
                        let mx = Int(m.x.rounded(.down)), my = Int(m.y.rounded(.down))
                        let isDark = mx >= 0 && my >= 0 && mx < modules.width && my < modules.height && modules[mx, my]
                        sum += Double(isDark ? dark : light)
                    }
                }
                guard inside > 0 else { continue }
                let old = Double(pixels[y * width + x])
                pixels[y * width + x] = UInt8(((sum + old * Double(16 - inside)) / 16).rounded())
            }
        }
    }

    /// Draws `modules` centred at `center`, `moduleSize` pixels per module, rotated by `degrees` and
    /// tilted: `tilt` shrinks the far (top) edge by that fraction, as a camera looking up at it would.
    public mutating func place(_ modules: BitMatrix, center: Point, moduleSize: Double, degrees: Double = 0,
                               tilt: Double = 0, quietZone: Int = 4, dark: UInt8 = 20, light: UInt8 = 235) {
        let halfWidth = Double(modules.width) * moduleSize / 2, halfHeight = Double(modules.height) * moduleSize / 2
        let top = halfWidth * (1 - tilt)
        let square = [Point(-top, -halfHeight), Point(top, -halfHeight), Point(halfWidth, halfHeight), Point(-halfWidth, halfHeight)]
        let angle = degrees * .pi / 180
        let (c, s) = (cosine(angle), sine(angle))
        let corners = square.map { Point(center.x + $0.x * c - $0.y * s, center.y + $0.x * s + $0.y * c) }
        place(modules, corners: corners, quietZone: quietZone, dark: dark, light: light)
    }

    /// A box blur of the given radius, `passes` times (three passes approximate a Gaussian).
    public mutating func blur(radius: Int, passes: Int = 1) {
        guard radius > 0 else { return }
        for _ in 0..<passes {
            for horizontal in [true, false] {
                var out = pixels
                let (n, lines) = horizontal ? (width, height) : (height, width)
                for line in 0..<lines {
                    func index(_ i: Int) -> Int { horizontal ? line * width + i : i * width + line }
                    for i in 0..<n {
                        var sum = 0, count = 0
                        for k in max(0, i - radius)...min(n - 1, i + radius) {
                            sum += Int(pixels[index(k)])
                            count += 1
                        }
                        out[index(i)] = UInt8(sum / count)
                    }
                }
                pixels = out
            }
        }
    }

    /// Adds uniform noise of ±`amplitude` grey levels.
    public mutating func addNoise(amplitude: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for i in pixels.indices {
            pixels[i] = UInt8(clamping: Int(pixels[i]) + Int.random(in: -amplitude...amplitude, using: &random))
        }
    }

    /// Adds Gaussian noise of standard deviation `deviation` grey levels to every pixel: a camera sensor's in
    /// dim light, whose rare large deviations break up long runs where uniform noise of the same spread
    /// would not.
    public mutating func addGaussianNoise(deviation: Double, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for i in pixels.indices {
            // Box–Muller: two uniform numbers make one normal one.
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
            let normal = (-2 * logarithm(u)).squareRoot() * cosine(2 * Double.pi * v)
            pixels[i] = UInt8(clamping: Int((Double(pixels[i]) + deviation * normal).rounded()))
        }
    }

    /// Lightens every pixel darker than mid-grey by a random 0…`amplitude` grey levels: ink speckled by
    /// the paper under it, which gives large dark modules texture of their own.
    public mutating func addInkTexture(amplitude: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for i in pixels.indices where pixels[i] < 128 {
            pixels[i] = UInt8(clamping: Int(pixels[i]) + Int.random(in: 0...amplitude, using: &random))
        }
    }

    /// Lightens the image by up to `strength` grey levels at `center`, falling off as a Gaussian of
    /// standard deviation `radius`: a bright spot (a lamp's reflection) on the scene.
    public mutating func addBrightSpot(center: Point, radius: Double, strength: Double) {
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - center.x, dy = Double(y) - center.y
                let added = strength * exponential(-(dx * dx + dy * dy) / (2 * radius * radius))
                pixels[y * width + x] = UInt8(min(255, Double(pixels[y * width + x]) + added))
            }
        }
    }

    /// Paints the pixels of `rect` (clipped to the picture) at `level`: a stroke of marker, a label's edge.
    public mutating func fill(_ rect: Rect, level: UInt8) {
        let x0 = max(0, Int(rect.minX)), x1 = min(width, Int(rect.maxX))
        let y0 = max(0, Int(rect.minY)), y1 = min(height, Int(rect.maxY))
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 { pixels.replaceSubrange(y * width + x0..<y * width + x1, with: repeatElement(level, count: x1 - x0)) }
    }

    /// Turns the scene into its negative: light codes on a dark page.
    public mutating func invert() {
        for index in pixels.indices { pixels[index] = 255 - pixels[index] }
    }

    /// Darkens the image from left (×1) to right (×`factor`): a shadow falling across the scene.
    public mutating func addShadow(factor: Double) {
        for y in 0..<height {
            for x in 0..<width {
                let scale = 1 - (1 - factor) * Double(x) / Double(max(1, width - 1))
                pixels[y * width + x] = UInt8(clamping: Int((Double(pixels[y * width + x]) * scale).rounded()))
            }
        }
    }
}

// Plain polynomial-free trigonometry through the C library, without importing Foundation here.
#if canImport(Glibc)
import Glibc
private func cosine(_ x: Double) -> Double { Glibc.cos(x) }
private func sine(_ x: Double) -> Double { Glibc.sin(x) }
private func exponential(_ x: Double) -> Double { Glibc.exp(x) }
private func logarithm(_ x: Double) -> Double { Glibc.log(x) }
#elseif canImport(Darwin)
import Darwin
private func cosine(_ x: Double) -> Double { Darwin.cos(x) }
private func sine(_ x: Double) -> Double { Darwin.sin(x) }
private func exponential(_ x: Double) -> Double { Darwin.exp(x) }
private func logarithm(_ x: Double) -> Double { Darwin.log(x) }
#endif
