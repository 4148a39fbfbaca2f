import ArgumentParser
import Foundation
import QRKit

/// `qr bench watch`: how many video frames per second the fast reader decodes on one core.
struct BenchWatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Video frames per second of qr watch's fast reader at 640×480 and 1280×720 (one core).",
        discussion: """
            Generates camera-like gray frames in memory (a textured, noisy scene, with or without a rotated, \
            slightly tilted code) at 640×480 and 1280×720, decodes them one after another with the fast \
            reader and no time budget, and prints milliseconds per frame and frames per second. Build with \
            -c release for meaningful numbers.
            """)

    @Option(name: .long, help: "Frames to decode per case.")
    var frames: Int = 300

    @Option(name: .long, help: "Sensor noise: uniform ± this many gray levels (default 8; low light is 15 or more).")
    var noise: Int = 8

    @Flag(name: .long, help: "Do not look for light-on-dark codes (skips the second pass on frames without a code).")
    var noInverted = false

    @Flag(name: .long, help: "Print JSON Lines instead of a table.")
    var json = false

    func validate() throws {
        if frames < 1 { throw ValidationError("--frames must be at least 1.") }
        if !(0...100).contains(noise) { throw ValidationError("--noise must be 0…100.") }
    }

    func run() throws {
        let reader = QRCodeReader(options: ReaderOptions(accuracy: .fast, tryInverted: !noInverted))
        if !json { print("case                   ms/frame   median      fps   decoded") }
        for (width, height) in [(640, 480), (1280, 720)] {
            for withCode in [false, true] {
                let scenes = try (0..<6).map { try WatchBenchFrame.make(width: width, height: height, variant: $0, withCode: withCode, noise: noise) }
                for scene in scenes.prefix(2) { _ = reader.read(luminance: scene, width: width, height: height) }
                let clock = ContinuousClock()
                var times: [Double] = []
                var decoded = 0
                for index in 0..<frames {
                    let start = clock.now
                    let codes = reader.read(luminance: scenes[index % scenes.count], width: width, height: height)
                    times.append((clock.now - start).inMilliseconds)
                    if codes.contains(where: { $0.text == WatchBenchFrame.text }) { decoded += 1 }
                }
                let mean = times.reduce(0, +) / Double(times.count)
                let median = times.sorted()[times.count / 2]
                let name = "\(width)×\(height) \(withCode ? "with code" : "no code")"
                if json {
                    print(JSONValue.object([
                        "width": .int(width), "height": .int(height), "code": .bool(withCode), "frames": .int(frames),
                        "noise": .int(noise), "ms_per_frame": JSONLine.milliseconds(mean), "median_ms": JSONLine.milliseconds(median),
                        "fps": .double((1000 / mean * 10).rounded() / 10), "decoded": .int(decoded),
                    ]).text)
                } else {
                    let columns = [
                        String(format: "%8.2f", mean), String(format: "%8.2f", median), String(format: "%8.1f", 1000 / mean),
                        withCode ? "\(decoded)/\(frames)" : "-",
                    ]
                    print(name.padding(toLength: 22, withPad: " ", startingAt: 0) + " " + columns.joined(separator: " ") )
                }
            }
        }
    }
}

/// Camera-like test frames: uneven light, objects with hard edges, lines of text-like marks, sensor noise,
/// and optionally a code seen at an angle. Deterministic for each variant.
enum WatchBenchFrame {
    static let text = "https://example.com/qrkit/watch?frame=0042"

    static func make(width: Int, height: Int, variant: Int, withCode: Bool, noise: Int) throws -> [UInt8] {
        var random = WatchBenchRandom(seed: UInt64(variant * 7919 + width))
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                // Light falling off towards one corner.
                pixels[y * width + x] = UInt8(90 + 110 * (1 - Double(x + y) / Double(width + height)))
            }
        }
        for _ in 0..<40 {
            let w = random.next(below: width / 5) + 8, h = random.next(below: height / 5) + 8
            fill(&pixels, width: width, x: random.next(below: width - w), y: random.next(below: height - h), w: w, h: h,
                 value: UInt8(30 + random.next(below: 200)))
        }
        // Text-like rows: many short dark runs, the hardest background for finder-pattern search.
        for _ in 0..<12 {
            let x0 = random.next(below: width / 2), y0 = random.next(below: height - 12)
            var x = x0
            while x < min(width - 4, x0 + width / 3) {
                let w = 1 + random.next(below: 4)
                fill(&pixels, width: width, x: x, y: y0, w: w, h: 6 + random.next(below: 4), value: UInt8(20 + random.next(below: 40)))
                x += w + 1 + random.next(below: 4)
            }
        }
        if withCode {
            let code = try QRCode.encode(text, options: EncodingOptions(errorCorrectionLevel: .medium))
            let moduleSize = Double(min(width, height)) / 90
            let center = Point(Double(width) * (0.35 + 0.06 * Double(variant % 5)), Double(height) * (0.45 + 0.04 * Double(variant % 3)))
            draw(code.modules, into: &pixels, width: width, height: height, center: center, moduleSize: moduleSize,
                 degrees: Double(variant * 23 % 360), tilt: 0.1)
        }
        for i in pixels.indices {
            pixels[i] = UInt8(clamping: Int(pixels[i]) + random.next(below: 2 * noise + 1) - noise)
        }
        return pixels
    }

    private static func fill(_ pixels: inout [UInt8], width: Int, x: Int, y: Int, w: Int, h: Int, value: UInt8) {
        for row in y..<y + h {
            for column in x..<x + w { pixels[row * width + column] = value }
        }
    }

    /// Draws `modules` with a 4-module quiet zone, rotated and with the far edge shrunk by `tilt`, 2 × 2
    /// samples per pixel.
    private static func draw(_ modules: BitMatrix, into pixels: inout [UInt8], width: Int, height: Int, center: Point,
                             moduleSize: Double, degrees: Double, tilt: Double) {
        let d = Double(modules.width), q = 4.0
        let half = (d / 2 + q) * moduleSize, top = half * (1 - tilt)
        let angle = degrees * .pi / 180
        let corners = [Point(-top, -half), Point(top, -half), Point(half, half), Point(-half, half)].map {
            Point(center.x + $0.x * cos(angle) - $0.y * sin(angle), center.y + $0.x * sin(angle) + $0.y * cos(angle))
        }
        let square = [Point(-q, -q), Point(d + q, -q), Point(d + q, d + q), Point(-q, d + q)]
        guard let toImage = PerspectiveTransform(from: square, to: corners) else { return }
        let toModules = toImage.adjugate
        let bounds = Rect(bounding: corners)
        for y in max(0, Int(bounds.minY))..<min(height, Int(bounds.maxY) + 1) {
            for x in max(0, Int(bounds.minX))..<min(width, Int(bounds.maxX) + 1) {
                var sum = 0, inside = 0
                for sy in 0..<2 {
                    for sx in 0..<2 {
                        let m = toModules.apply(Point(Double(x) + 0.25 + 0.5 * Double(sx), Double(y) + 0.25 + 0.5 * Double(sy)))
                        guard m.x >= -q, m.y >= -q, m.x < d + q, m.y < d + q else { continue }
                        inside += 1
                        let mx = Int(m.x.rounded(.down)), my = Int(m.y.rounded(.down))
                        sum += modules.contains(x: mx, y: my) && modules[mx, my] ? 25 : 225
                    }
                }
                if inside > 0 { pixels[y * width + x] = UInt8((sum + Int(pixels[y * width + x]) * (4 - inside)) / 4) }
            }
        }
    }
}

/// A small deterministic generator, so that every run measures the same frames.
struct WatchBenchRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next(below bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(1, bound)))
    }
}
