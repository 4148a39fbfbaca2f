#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

/*
 * Thin C wrappers around libpng and libjpeg(-turbo).
 *
 * Both libraries report errors by longjmp. Every setjmp lives in this target, so a longjmp never
 * crosses a Swift frame: each function here returns a status code and writes a human-readable message.
 * Buffers handed out are allocated with malloc; release them with qrc_free after copying them.
 */

#include <stddef.h>
#include <stdint.h>

/* Capacity of the message buffers the functions below write into, including the terminating NUL. */
#define QRC_MESSAGE_CAPACITY 200

typedef enum {
    QRC_OK = 0,
    /* The data is not a valid image; the message holds the library's explanation. */
    QRC_CORRUPT = 1,
    /* The data ends before the image does. */
    QRC_TRUNCATED = 2,
    /* width × height exceeds the pixel limit; width and height of the result are set. */
    QRC_TOO_LARGE = 3,
    QRC_OUT_OF_MEMORY = 4,
    /* The caller passed inconsistent parameters (encoders only). */
    QRC_INVALID_ARGUMENT = 5,
} qrc_status;

/* Decoded pixels: 8 bits per sample, rows packed without padding. */
typedef struct {
    uint32_t width;
    uint32_t height;
    /* 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA (alpha straight, not premultiplied). */
    uint32_t channels;
    /* width × height × channels bytes from malloc, or NULL; release with qrc_free. */
    uint8_t *pixels;
} qrc_pixels;

/*
 * Decodes a PNG of any bit depth, colour type and interlacing into 8-bit samples. Palettes become RGB,
 * tRNS becomes an alpha channel, 16-bit samples are rounded to 8 bits. Refuses images with more than
 * max_pixels pixels right after reading the header, before allocating them.
 */
qrc_status qrc_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                          qrc_pixels *result, char *message);

/*
 * Decodes a baseline or progressive JPEG. With grayscale non-zero, colour images are reduced to their
 * luma by libjpeg (fast); otherwise the result is gray for gray files and RGB for colour (CMYK and YCCK
 * files are converted to RGB). Premature end of data is reported as QRC_TRUNCATED.
 */
qrc_status qrc_jpeg_decode(const uint8_t *data, size_t size, int grayscale, uint64_t max_pixels,
                           qrc_pixels *result, char *message);

typedef enum {
    QRC_PNG_GRAY = 0,
    QRC_PNG_PALETTE = 3,
    QRC_PNG_RGBA = 6,
} qrc_png_color_type;

/* An image to write as PNG; rows are already packed in PNG layout (big-endian bit order). */
typedef struct {
    uint32_t width;
    uint32_t height;
    /* 1, 2, 4 or 8; 8 for RGBA. */
    int bit_depth;
    qrc_png_color_type color_type;
    /* For palette images: palette_count RGBA entries (4 bytes each); alpha below 255 is written as tRNS. */
    const uint8_t *palette_rgba;
    int palette_count;
    /* zlib level 0…9. */
    int compression_level;
    /* height rows of row_bytes bytes each. */
    const uint8_t *rows;
    size_t row_bytes;
} qrc_png_image;

/* Encodes a PNG into a malloc'd buffer (*output, *output_size). */
qrc_status qrc_png_encode(const qrc_png_image *image, uint8_t **output, size_t *output_size, char *message);

/*
 * Encodes 8-bit gray (channels 1) or RGB (channels 3) pixels as a JPEG of quality 1…100 with optimised
 * Huffman tables, progressive when progressive is non-zero, into a malloc'd buffer.
 */
qrc_status qrc_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                           int quality, int progressive, uint8_t **output, size_t *output_size,
                           char *message);

/* Releases a buffer returned by the functions above. */
void qrc_free(void *pointer);

#endif
