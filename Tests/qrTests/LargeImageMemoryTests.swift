import Testing
@testable import qr

@Suite("Allocator settings") struct LargeImageMemoryTests {
    @Test func everyCommandButTheServerKeepsLargeBuffers() {
        for command in ["read", "mark", "pick", "watch", "bench", "make"] {
            #expect(LargeImageMemory.wantsReusedBuffers(["qr", command, "photo.jpg"]), "\(command)")
        }
        // A long-running server serving requests on many threads keeps the allocator's defaults.
        #expect(!LargeImageMemory.wantsReusedBuffers(["qr", "serve", "--port", "8080"]))
        #expect(LargeImageMemory.wantsReusedBuffers(["qr"]))
    }
}
