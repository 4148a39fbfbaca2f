#if canImport(CMalloc)
import CMalloc
#endif

/// How the commands that decode photos have the C allocator treat large buffers.
///
/// By default glibc gives each buffer over 128 KiB (rising with use, to at most 32 MiB) its own kernel mapping
/// and unmaps it when freed, and trims free heap memory beyond 128 KiB. Every pass of a read over a 12 MP photo
/// (a 12 MB plane, binary image, downscaled level, …) then faults in freshly zeroed pages: up to a fifth of the
/// decode time of such a photo with no code in it (`qr bench read`, 12 MP BoofCV photos). These commands keep
/// buffers up to 32 MiB in the heap and up to 256 MiB of freed memory for reuse.
///
/// They also keep every thread on the main heap. Swift runs a command on a thread of its concurrency pool, and
/// glibc gives such a thread an arena of its own, in heaps of at most 64 MiB that it unmaps as they empty: the
/// binary images of a large photo's later passes then faulted in afresh on every read (6,000 page faults, a
/// third of the decode time of a 12 MP photo read again), whatever the thresholds above said. Which heap a
/// thread uses is settled when it first allocates, so this must run before any other thread starts.
///
/// These are process-wide settings, so the command line makes them, not the library; `qr serve`, a
/// long-running process serving requests on many threads, keeps the allocator's defaults.
enum LargeImageMemory {
    /// Keeps buffers of up to 32 MiB in the heap, up to 256 MiB of freed heap memory, and every thread on the
    /// main heap, for the rest of the process. Call it first thing in `main`, before any thread is started.
    static func reuseBuffers() {
        #if canImport(CMalloc)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
        _ = mallopt(M_ARENA_MAX, 1)
        #endif
    }

    /// Whether the command named by `arguments` (the process's, program name first) decodes photos, and so
    /// wants ``reuseBuffers()``: every command but `serve`.
    static func wantsReusedBuffers(_ arguments: [String]) -> Bool {
        arguments.dropFirst().first != ServeCommand.configuration.commandName
    }
}
