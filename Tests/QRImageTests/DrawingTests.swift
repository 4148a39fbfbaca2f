import Foundation
import Testing
import QRCore
import QRImage

private let red = RGBAPixel(red: 0xFF, green: 0x3B, blue: 0x30)

/// The set of pixels (x, y) that are not white.
private func painted(_ image: RGBAImage) -> Set<[Int]> {
    var result = Set<[Int]>()
    for y in 0..<image.height {
        for x in 0..<image.width where image[x, y] != .white { result.insert([x, y]) }
    }
    return result
}

@Suite("Drawing")
struct DrawingTests {
    @Test func fillRectIsClipped() throws {
        var image = try RGBAImage(width: 8, height: 8, color: .white)
        image.fillRect(x: -5, y: -5, width: 10, height: 10, color: .black)
        #expect(painted(image) == Set((0..<5).flatMap { y in (0..<5).map { [$0, y] } }))
        image.fillRect(x: Int.max - 1, y: 0, width: Int.max, height: 3, color: red)
        image.fillRect(x: Int.min, y: Int.min, width: Int.max, height: Int.max, color: red)
        image.fillRect(x: 2, y: 2, width: -3, height: 4, color: red)
        #expect(!painted(image).contains([7, 7]))
    }

    @Test func polygonOutlineCoversTheStrokeAroundEachEdge() throws {
        var image = try RGBAImage(width: 40, height: 40, color: .white)
        // Corners on pixel centres, so no centre lies exactly on the stroke's border.
        let square = [Point(10.5, 10.5), Point(30.5, 10.5), Point(30.5, 30.5), Point(10.5, 30.5)]
        image.strokePolygon(square, lineWidth: 3, color: red)
        for x in 9...11 { #expect(image[x, 20] == red) }
        #expect(image[8, 20] == .white && image[12, 20] == .white)
        #expect(image[9, 9] == red && image[31, 31] == red)  // corners closed by the round joins
        #expect(image[20, 20] == .white && image[0, 0] == .white)
        // Exactly the pixels whose centres lie within half the line width of the outline.
        var expected = Set<[Int]>()
        for y in 0..<40 {
            for x in 0..<40 {
                let centre = Point(Double(x) + 0.5, Double(y) + 0.5)
                let distance = (0..<4).map { distanceFrom(centre, toSegment: square[$0], square[($0 + 1) % 4]) }.min() ?? 0
                if distance <= 1.5 { expected.insert([x, y]) }
            }
        }
        #expect(painted(image) == expected)
    }

    @Test func translucentOutlinesAreBlendedOnce() throws {
        var image = try RGBAImage(width: 30, height: 30, color: .white)
        let halfRed = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 128)
        image.strokePolygon([Point(5, 5), Point(25, 5), Point(25, 25), Point(5, 25)], lineWidth: 4, color: halfRed)
        let expected = halfRed.composited(over: .white)
        #expect(image[5, 5] == expected)  // at a join, where edges and the join circle overlap
        #expect(image[15, 5] == expected)
    }

    @Test func shapesFarOutsideOrNotFiniteAreClippedWithoutCrashing() throws {
        var image = try RGBAImage(width: 40, height: 40, color: .white)
        image.strokePolygon([Point(-1e12, 20), Point(1e12, 20), Point(1e12, 1e12)], lineWidth: 2, color: red)
        // The horizontal edge crosses the whole image: rows 19 and 20.
        for x in [0, 20, 39] { #expect(image[x, 19] == red && image[x, 20] == red) }
        #expect(image[0, 18] == .white && image[0, 21] == .white)
        let before = image
        image.strokePolygon([Point(.nan, 3), Point(10, 10), Point(3, 30)], lineWidth: 3, color: .black)
        image.fillPolygon([Point(.infinity, 3), Point(10, 10), Point(3, 30)], color: .black)
        image.fillCircle(center: Point(.nan, 0), radius: 5, color: .black)
        image.strokeLine(from: Point(5, 5), to: Point(5, 5), lineWidth: 3, color: .black)
        image.strokeLine(from: Point(-1e308, -1e308), to: Point(1e308, 1e308), lineWidth: 1, color: .black)
        image.strokePolygon([Point(-5e5, -5e5), Point(-4e5, -5e5), Point(-4e5, -4e5)], lineWidth: 1e300, color: .black)
        image.fillPolygon([Point(500, 500), Point(600, 500), Point(600, 600)], color: .black)
        image.strokePolygon([Point(0, 0), Point(10, 10)], lineWidth: -2, color: .black)
        image.drawText("123", x: Int.max - 5, y: Int.min, scale: Int.max, color: .black)
        #expect(painted(before).isSubset(of: painted(image)))
        #expect(painted(image).count == 40 * 40)  // the line of width 1e300 covers everything
    }

    @Test func filledPolygonsAndCircles() throws {
        var image = try RGBAImage(width: 20, height: 20, color: .white)
        image.fillPolygon([Point(0, 0), Point(10, 0), Point(0, 10)], color: .black)
        #expect(image[0, 0] == .black && image[8, 0] == .black && image[0, 8] == .black)
        #expect(image[5, 5] == .white && image[9, 9] == .white)
        // A self-intersecting pentagram is filled whole under the non-zero rule, centre included.
        var star = try RGBAImage(width: 21, height: 21, color: .white)
        let points = (0..<5).map { i -> Point in
            let angle = Double(i * 2 % 5) * 2 * Double.pi / 5 - Double.pi / 2
            return Point(10.5 + 10 * cos(angle), 10.5 + 10 * sin(angle))
        }
        star.fillPolygon(points, color: .black)
        #expect(star[10, 10] == .black && star[10, 2] == .black && star[0, 20] == .white)

        var disc = try RGBAImage(width: 20, height: 20, color: .white)
        disc.fillCircle(center: Point(10, 10), radius: 3, color: .black)
        #expect(disc[9, 9] == .black && disc[12, 10] == .black && disc[7, 9] == .black)
        #expect(disc[13, 10] == .white && disc[6, 10] == .white)
    }

    @Test func imagesAreCompositedWithClipping() throws {
        var canvas = try RGBAImage(width: 4, height: 4, color: .white)
        var stamp = try RGBAImage(width: 3, height: 3, color: RGBAPixel(red: 0, green: 0, blue: 255, alpha: 255))
        stamp[1, 1] = .clear
        canvas.draw(stamp, x: -1, y: 2)
        #expect(canvas[0, 2] == RGBAPixel(red: 0, green: 0, blue: 255))
        #expect(canvas[0, 3] == .white)  // the transparent pixel of the stamp
        #expect(canvas[1, 3] == RGBAPixel(red: 0, green: 0, blue: 255))
        #expect(canvas[2, 2] == .white)
        canvas.draw(stamp, x: Int.max, y: Int.min)
    }

    @Test func bitmapFontDrawsGlyphsAtScale() throws {
        var image = try RGBAImage(width: 20, height: 20, color: .white)
        image.drawText("1", x: 2, y: 3, scale: 2, color: .black)
        // Glyph "1": rows 00100, 01100, 00100, 00100, 00100, 00100, 01110.
        let rows = ["00100", "01100", "00100", "00100", "00100", "00100", "01110"]
        var expected = Set<[Int]>()
        for (row, bits) in rows.enumerated() {
            for (column, bit) in bits.enumerated() where bit == "1" {
                for dy in 0..<2 { for dx in 0..<2 { expected.insert([2 + column * 2 + dx, 3 + row * 2 + dy]) } }
            }
        }
        #expect(painted(image) == expected)
        #expect(BitmapFont.size(of: "12", scale: 3) == (33, 21))
        #expect(BitmapFont.size(of: "W", scale: .max) == (.max, .max))
        let required = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ#.-:"
        #expect(required.allSatisfy { BitmapFont.characters.contains($0) })

        var unknown = try RGBAImage(width: 6, height: 7, color: .white)
        unknown.drawText("€", x: 0, y: 0, scale: 1, color: .black)
        var question = try RGBAImage(width: 6, height: 7, color: .white)
        question.drawText("?", x: 0, y: 0, scale: 1, color: .black)
        #expect(unknown == question)
        var german = try RGBAImage(width: 12, height: 7, color: .white)
        german.drawText("ßﬁ", x: 0, y: 0, scale: 1, color: .black)  // upper-case to two letters each
        var twoQuestions = try RGBAImage(width: 12, height: 7, color: .white)
        twoQuestions.drawText("??", x: 0, y: 0, scale: 1, color: .black)
        #expect(german == twoQuestions)
        var lower = try RGBAImage(width: 12, height: 7, color: .white)
        lower.drawText("ab", x: 0, y: 0, scale: 1, color: .black)
        var upper = try RGBAImage(width: 12, height: 7, color: .white)
        upper.drawText("AB", x: 0, y: 0, scale: 1, color: .black)
        #expect(lower == upper)
    }
}

private func distanceFrom(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
    let ab = b - a
    let t = max(0, min(1, (p - a).dot(ab) / ab.dot(ab)))
    return p.distance(to: a + ab * t)
}

@Suite("Marking detected codes")
struct DetectionMarkingTests {
    @Test func lineWidthScalesWithTheImage() {
        #expect(DetectionMarking.lineWidth(imageWidth: 400, imageHeight: 300) == 3)
        #expect(DetectionMarking.lineWidth(imageWidth: 4000, imageHeight: 3000) == 9)
        #expect(DetectionMarking.color == RGBAPixel(red: 0xFF, green: 0x3B, blue: 0x30))
    }

    @Test func outlineAndNumberedLabel() throws {
        var image = try RGBAImage(width: 200, height: 200, color: .white)
        let quad = Quadrilateral(topLeft: Point(60.5, 80.5), topRight: Point(150.5, 80.5),
                                 bottomRight: Point(150.5, 170.5), bottomLeft: Point(60.5, 170.5))
        image.markDetection(quad, label: "1")
        let red = DetectionMarking.color
        #expect(image[100, 79] == red && image[100, 81] == red && image[149, 120] == red)
        #expect(image[100, 120] == .white && image[100, 76] == .white)
        // The label box (glyph 10 × 14 px at scale 2, 4 px margin) sits above the top-left corner.
        let labelPixels = (0..<200).flatMap { y in (0..<200).map { (x: $0, y: y) } }.filter { image[$0.x, $0.y] != .white }
            .filter { $0.y < 78 }
        #expect(!labelPixels.isEmpty)
        #expect(labelPixels.allSatisfy { image[$0.x, $0.y] == red || image[$0.x, $0.y] == .white })
        #expect(labelPixels.map(\.y).min() == 80 - 22 - 3)
        // A corner at the image edge keeps the label inside.
        var edge = try RGBAImage(width: 50, height: 50, color: .white)
        edge.markDetection(Quadrilateral(topLeft: Point(0, 0), topRight: Point(40, 0), bottomRight: Point(40, 40),
                                         bottomLeft: Point(0, 40)), label: "12")
        #expect(edge[0, 0] == red)
        var white = 0
        for y in 0..<50 { for x in 0..<50 where edge[x, y] == .white { white += 1 } }
        #expect(white > 0)
    }
}

