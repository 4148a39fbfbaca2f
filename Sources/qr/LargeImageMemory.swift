#if canImport(CMalloc)
import CMalloc
#endif

/// How the commands that decode photos have the C allocator treat large buffers.
///
/// By default glibc gives each buffer over 128 KiB (rising with use, to at most 32 MiB) its own kernel mapping
/// and unmaps it when freed, and trims free heap memory beyond 128 KiB. Every pass of a read over a 12 MP photo
/// (a 12 MB plane, binary image, downscaled level, …) then faults in freshly zeroed pages: up to a fifth of the
/// decode time of such a photo with no code in it (`qr bench read`, 12 MP BoofCV photos). These commands keep
/// buffers up to 32 MiB in the heap and up to 256 MiB of freed memory for reuse. It is a process-wide setting,
/// so the command makes it, not the library; `qr serve`, a long-running process, keeps the default.
enum LargeImageMemory {
    /// Keeps buffers of up to 32 MiB in the heap, and up to 256 MiB of freed heap memory, for the rest of the
    /// process.
    static func reuseBuffers() {
        #if canImport(CMalloc)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
        #endif
    }
}
