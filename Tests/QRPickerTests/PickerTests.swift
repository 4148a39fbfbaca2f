import QRCore
import Testing
@testable import QRPicker

@Suite struct ViewMappingTests {
    let image = Size(width: 400, height: 200)

    @Test func aspectFitLetterboxes() {
        let mapping = ViewMapping(imageSize: image, viewSize: Size(width: 200, height: 200), contentMode: .aspectFit)
        #expect(mapping.scaleX == 0.5 && mapping.scaleY == 0.5)
        #expect(mapping.offset == Point(0, 50))
        #expect(mapping.viewPoint(fromImage: Point(400, 200)) == Point(200, 150))
        #expect(mapping.imagePoint(fromView: Point(100, 100)) == Point(200, 100))
    }

    @Test func aspectFillCropsAndCentres() {
        let mapping = ViewMapping(imageSize: image, viewSize: Size(width: 200, height: 200), contentMode: .aspectFill)
        #expect(mapping.scaleX == 1)
        #expect(mapping.offset == Point(-100, 0))
        #expect(mapping.viewPoint(fromImage: Point(200, 100)) == Point(100, 100))
    }

    @Test func centerAndStretch() {
        let centred = ViewMapping(imageSize: image, viewSize: Size(width: 600, height: 400), contentMode: .center)
        #expect(centred.offset == Point(100, 100))
        let stretched = ViewMapping(imageSize: image, viewSize: Size(width: 800, height: 100), contentMode: .stretch)
        #expect(stretched.viewPoint(fromImage: Point(100, 100)) == Point(200, 50))
    }

    /// The seed's computation: Core Image's bottom-left bounds, flipped, scaled by view width / image
    /// width, and offset by (view height − image height · scale) / 2.
    @Test func coreImageFlipScaleAndOffset() {
        let mapping = ViewMapping(imageSize: Size(width: 1000, height: 1500), viewSize: Size(width: 375, height: 812),
                                  contentMode: .aspectFit, imageOrigin: .bottomLeft)
        let scale = 375.0 / 1000
        let offsetY = (812 - 1500 * scale) / 2
        let ciBounds = Rect(x: 100, y: 200, width: 300, height: 300)  // bottom-left origin
        let view = mapping.viewRect(fromImage: ciBounds)
        #expect(abs(view.minX - 100 * scale) < 1e-9)
        #expect(abs(view.minY - ((1500 - 500) * scale + offsetY)) < 1e-9)
        #expect(abs(view.width - 300 * scale) < 1e-9)
        let back = mapping.imagePoint(fromView: mapping.viewPoint(fromImage: Point(123, 456)))
        #expect(back.distance(to: Point(123, 456)) < 1e-9)
    }
}

@Suite struct HitTesterTests {
    let left = Quadrilateral(topLeft: Point(10, 10), topRight: Point(110, 10), bottomRight: Point(110, 110), bottomLeft: Point(10, 110))
    let right = Quadrilateral(topLeft: Point(150, 10), topRight: Point(250, 10), bottomRight: Point(250, 110), bottomLeft: Point(150, 110))

    @Test func insideToleranceAndMiss() {
        #expect(HitTester.hit(Point(50, 50), in: [left, right]) == 0)
        #expect(HitTester.hit(Point(200, 60), in: [left, right]) == 1)
        #expect(HitTester.hit(Point(118, 60), in: [left, right]) == 0, "8 points outside is within the 10-point tolerance")
        #expect(HitTester.hit(Point(145, 60), in: [left, right]) == 1)
        #expect(HitTester.hit(Point(130, 60), in: [left, right]) == nil, "20 points from both")
        #expect(HitTester.hit(Point(130, 60), in: [left, right], tolerance: 25) == 0, "nearest wins")
        #expect(HitTester.hit(Point(500, 500), in: []) == nil)
        // A point inside hits whatever the tolerance; a negative or NaN one reaches no further.
        for tolerance in [-1.0, .nan, -.infinity] {
            #expect(HitTester.hit(Point(50, 50), in: [left, right], tolerance: tolerance) == 0)
            #expect(HitTester.hit(Point(118, 60), in: [left, right], tolerance: tolerance) == nil)
        }
    }

    @Test func rotatedCodes() {
        let diamond = Quadrilateral(topLeft: Point(100, 0), topRight: Point(200, 100), bottomRight: Point(100, 200), bottomLeft: Point(0, 100))
        #expect(HitTester.hit(Point(100, 100), in: [diamond]) == 0)
        #expect(HitTester.hit(Point(10, 10), in: [diamond]) == nil, "inside the bounding box but far outside the code")
    }
}

@Suite struct SelectionTests {
    @Test func rule() {
        #expect(Selection<Int>([]).single == nil)
        if case .none = Selection<Int>([]) {} else { Issue.record("empty is none") }
        #expect(Selection([7]).single == 7)
        if case let .several(items) = Selection([1, 2]) { #expect(items == [1, 2]) } else { Issue.record("two is several") }
    }
}

@Suite struct ReadingOrderTests {
    func square(_ x: Double, _ y: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x, y), topRight: Point(x + 50, y), bottomRight: Point(x + 50, y + 50), bottomLeft: Point(x, y + 50))
    }

    @Test func rowsTopToBottomThenLeftToRight() {
        // A slightly tilted 2 × 2 sheet, listed in scan order.
        let codes = [("D", square(210, 108)), ("A", square(10, 0)), ("C", square(0, 100)), ("B", square(200, 12))]
        #expect(ReadingOrder.sorted(codes, corners: \.1).map(\.0) == ["A", "B", "C", "D"])
    }
}
