/*
 * The libqrencode side of `Benchmarks/encode-vs-qrencode.sh`: encodes the same payloads as `qr bench make`
 * in-process, mask chosen automatically, and prints codes per second. Build:
 *   cc -O2 -o qrencode_peer qrencode_peer.c -lqrencode
 */
#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Encodes `data` at `level` repeatedly for about `seconds` and returns codes per second. */
static double measure(const char *data, QRecLevel level, double seconds, int *version) {
    long count = 0;
    double start = now(), elapsed = 0;
    while (elapsed < seconds) {
        for (int i = 0; i < 16; i++) {
            QRcode *code = QRcode_encodeString8bit(data, 0, level);
            if (code == NULL) { fprintf(stderr, "qrencode failed\n"); exit(1); }
            *version = code->version;
            QRcode_free(code);
            count++;
        }
        elapsed = now() - start;
    }
    return (double)count / elapsed;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: qrencode_peer URL FULL_V40_H_TEXT\n"); return 2; }
    int version = 0;
    double url = measure(argv[1], QR_ECLEVEL_M, 3.0, &version);
    printf("qrencode short-url-M version=%d codes_per_second=%.1f\n", version, url);
    double full = measure(argv[2], QR_ECLEVEL_H, 3.0, &version);
    printf("qrencode full-40-H version=%d codes_per_second=%.1f\n", version, full);
    return 0;
}
