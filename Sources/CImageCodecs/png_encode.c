#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "CImageCodecs.h"
#include "codec_message.h"

/* Growing output buffer, owned by the caller of the setjmp function. */
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    char *message;
} png_write_state;

static void on_error(png_structp png, png_const_charp text) {
    png_write_state *state = png_get_error_ptr(png);
    qrc_set_message(state->message, text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void write_bytes(png_structp png, png_bytep bytes, size_t length) {
    png_write_state *state = png_get_io_ptr(png);
    if (length > state->capacity - state->size) {
        size_t needed = state->size + length;
        if (needed < state->size) png_error(png, "the PNG is too large");
        size_t capacity = state->capacity < 4096 ? 4096 : state->capacity;
        while (capacity < needed) capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        uint8_t *grown = realloc(state->data, capacity);
        if (grown == NULL) png_error(png, "not enough memory for the PNG");
        state->data = grown;
        state->capacity = capacity;
    }
    memcpy(state->data + state->size, bytes, length);
    state->size += length;
}

static void flush_bytes(png_structp png) {
    (void)png;
}

static int valid_layout(const qrc_png_image *image) {
    if (image->width == 0 || image->height == 0 || image->width > PNG_UINT_31_MAX
        || image->height > PNG_UINT_31_MAX || image->rows == NULL) return 0;
    if (image->compression_level < 0 || image->compression_level > 9) return 0;
    int depth = image->bit_depth;
    size_t channels;
    switch (image->color_type) {
    case QRC_PNG_GRAY:
        if (depth != 1 && depth != 2 && depth != 4 && depth != 8) return 0;
        channels = 1;
        break;
    case QRC_PNG_PALETTE:
        if (depth != 1 && depth != 2 && depth != 4 && depth != 8) return 0;
        if (image->palette_rgba == NULL || image->palette_count < 1 || image->palette_count > (1 << depth)) return 0;
        channels = 1;
        break;
    case QRC_PNG_RGBA:
        if (depth != 8) return 0;
        channels = 4;
        break;
    default:
        return 0;
    }
    return image->row_bytes == ((size_t)image->width * channels * (size_t)depth + 7) / 8;
}

/* Every libpng call that may longjmp happens inside this function. */
static qrc_status encode(png_write_state *state, png_structp png, png_infop info, const qrc_png_image *image) {
    if (setjmp(png_jmpbuf(png))) {
        return QRC_CORRUPT;
    }
    png_set_write_fn(png, state, write_bytes, flush_bytes);
    png_set_compression_level(png, image->compression_level);
    /* Filters do not help bilevel and palette images (the PNG specification recommends none). */
    int filtered = image->color_type != QRC_PNG_PALETTE && image->bit_depth == 8;
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filtered ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
    png_set_IHDR(png, info, image->width, image->height, image->bit_depth, (int)image->color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (image->color_type == QRC_PNG_PALETTE) {
        png_color palette[256];
        png_byte alpha[256];
        int transparent_count = 0;
        for (int i = 0; i < image->palette_count; i++) {
            const uint8_t *entry = image->palette_rgba + 4 * i;
            palette[i].red = entry[0];
            palette[i].green = entry[1];
            palette[i].blue = entry[2];
            alpha[i] = entry[3];
            /* tRNS only needs entries up to the last translucent one. */
            if (entry[3] != 255) transparent_count = i + 1;
        }
        png_set_PLTE(png, info, palette, image->palette_count);
        if (transparent_count > 0) png_set_tRNS(png, info, alpha, transparent_count, NULL);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < image->height; y++) png_write_row(png, image->rows + (size_t)y * image->row_bytes);
    png_write_end(png, NULL);
    return QRC_OK;
}

qrc_status qrc_png_encode(const qrc_png_image *image, uint8_t **output, size_t *output_size, char *message) {
    *output = NULL;
    *output_size = 0;
    qrc_set_message(message, "");
    if (!valid_layout(image)) {
        qrc_set_message(message, "inconsistent PNG parameters");
        return QRC_INVALID_ARGUMENT;
    }
    png_write_state state = {NULL, 0, 0, message};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
    if (png == NULL) {
        qrc_set_message(message, "cannot initialise libpng");
        return QRC_OUT_OF_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    qrc_status status;
    if (info == NULL) {
        qrc_set_message(message, "cannot initialise libpng");
        status = QRC_OUT_OF_MEMORY;
    } else {
        status = encode(&state, png, info, image);
    }
    png_destroy_write_struct(&png, info != NULL ? &info : NULL);
    if (status != QRC_OK) {
        free(state.data);
        return status;
    }
    *output = state.data;
    *output_size = state.size;
    return QRC_OK;
}
