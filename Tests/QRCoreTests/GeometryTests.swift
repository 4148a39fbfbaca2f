import Testing
@testable import QRCore

@Suite struct GeometryTests {
    let square = Quadrilateral(topLeft: Point(0, 0), topRight: Point(10, 0), bottomRight: Point(10, 10), bottomLeft: Point(0, 10))

    @Test func quadrilateralBasics() {
        #expect(square.area == 100)
        #expect(square.center == Point(5, 5))
        #expect(square.boundingRect == Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(square.contains(Point(5, 5)))
        #expect(square.contains(Point(10, 5)))
        #expect(!square.contains(Point(11, 5)))
        // The border counts within a billionth of a pixel, also just beyond the bounding box.
        #expect(square.contains(Point(10, 10)))
        #expect(square.contains(Point(4, 10 + 1e-10)))
        #expect(!square.contains(Point(4, 10 + 1e-6)))
        #expect(square.distance(to: Point(13, 14)) == 5)
        #expect(square.distance(to: Point(3, 3)) == 0)
    }

    @Test func rectanglesInsetShrinkAndIntersect() {
        let rect = Rect(x: 0, y: 0, width: 10, height: 6)
        #expect(rect.insetBy(dx: 1, dy: 2) == Rect(x: 1, y: 2, width: 8, height: 2))
        #expect(rect.insetBy(dx: -1, dy: -1) == Rect(x: -1, y: -1, width: 12, height: 8))
        #expect(rect.intersection(Rect(x: 5, y: 3, width: 10, height: 10)) == Rect(x: 5, y: 3, width: 5, height: 3))
        #expect(rect.intersection(Rect(x: 10, y: 0, width: 5, height: 5)) == nil)
    }

    @Test func rotatedQuadrilateralContainment() {
        let diamond = Quadrilateral(topLeft: Point(5, 0), topRight: Point(10, 5), bottomRight: Point(5, 10), bottomLeft: Point(0, 5))
        #expect(diamond.contains(Point(5, 5)))
        #expect(!diamond.contains(Point(1, 1)))
        #expect(abs(diamond.distance(to: Point(0, 0)) - (12.5).squareRoot()) < 1e-9)
    }

    @Test func perspectiveTransformMapsCornersAndInverts() throws {
        let source = [Point(0, 0), Point(21, 0), Point(21, 21), Point(0, 21)]
        let destination = [Point(100, 120), Point(300, 90), Point(330, 310), Point(80, 290)]
        let transform = try #require(PerspectiveTransform(from: source, to: destination))
        for (s, d) in zip(source, destination) {
            #expect(transform.apply(s).distance(to: d) < 1e-6)
        }
        let inverse = try #require(PerspectiveTransform(from: destination, to: source))
        let p = Point(7.5, 13.25)
        #expect(inverse.apply(transform.apply(p)).distance(to: p) < 1e-6)
    }

    @Test func degenerateQuadrilateralHasNoTransform() {
        let line = [Point(0, 0), Point(1, 1), Point(2, 2), Point(3, 3)]
        #expect(PerspectiveTransform(from: line, to: line) == nil)
    }

    @Test func linearSystemsSolveWithPivotingAndRefuseSingularOnes() throws {
        // The first pivot is zero: only row exchanges solve it.
        let x = try #require(LinearSystem.solve([0, 2, 1, 1, 1, 1, 2, 1, 3], [7, 6, 13], size: 3))
        for (value, expected) in zip(x, [1.0, 2, 3] as [Double]) { #expect(abs(value - expected) < 1e-12) }
        #expect(LinearSystem.solve([1, 2, 2, 4], [3, 6], size: 2) == nil)
    }

    @Test func bitMatrixTransposeAndRows() {
        var matrix = BitMatrix(width: 3, height: 2)
        matrix[2, 0] = true
        matrix[0, 1] = true
        #expect(matrix.rowStrings == ["001", "100"])
        #expect(matrix.transposed().rowStrings == ["01", "00", "10"])
        #expect(matrix.darkCount == 2)
    }

    @Test func bitBufferPacksMostSignificantFirst() {
        var buffer = BitBuffer()
        buffer.append(0b0100, bits: 4)
        buffer.append(0xABC, bits: 12)
        buffer.appendBit(true)
        #expect(buffer.count == 17)
        #expect(buffer.bytes == [0x4A, 0xBC, 0x80])
        var reader = BitReader(buffer.bytes)
        #expect(reader.read(4) == 4)
        #expect(reader.read(12) == 0xABC)
        #expect(reader.read(1) == 1)
        #expect(reader.read(8) == nil)
    }
}
