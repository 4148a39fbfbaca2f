#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "CImageCodecs.h"
#include "codec_message.h"

/* Ancillary chunks kept in memory at most, and the largest chunk libpng may allocate. */
enum { PNG_CHUNK_CACHE_LIMIT = 128 };
#define PNG_CHUNK_MALLOC_LIMIT ((png_alloc_size_t)8 * 1024 * 1024)

/* State shared with the callbacks; it lives in the caller of the setjmp function so that values set
 * before a longjmp are still valid after it. */
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    int truncated;
    char *message;
    png_bytep *rows;
} png_read_state;

static void on_error(png_structp png, png_const_charp text) {
    png_read_state *state = png_get_error_ptr(png);
    if (!state->truncated) qrc_set_message(state->message, text);
    png_longjmp(png, 1);
}

/* Warnings (bad CRC in an ancillary chunk, unknown chunks…) do not stop decoding; stay silent. */
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void read_bytes(png_structp png, png_bytep destination, size_t length) {
    png_read_state *state = png_get_io_ptr(png);
    if (length > state->size - state->offset) {
        state->truncated = 1;
        qrc_set_message(state->message, "the PNG data ends early");
        png_error(png, "truncated");
    }
    memcpy(destination, state->data + state->offset, length);
    state->offset += length;
}

/* Every libpng call that may longjmp happens inside this function. */
static qrc_status decode(png_read_state *state, png_structp png, png_infop info, uint64_t max_pixels,
                         qrc_pixels *result) {
    if (setjmp(png_jmpbuf(png))) {
        return state->truncated ? QRC_TRUNCATED : QRC_CORRUPT;
    }
    /* A dimension above the pixel limit cannot be valid; let libpng refuse it while parsing IHDR. */
    png_uint_32 dimension_limit = max_pixels < PNG_UINT_31_MAX ? (png_uint_32)max_pixels : PNG_UINT_31_MAX;
    png_set_user_limits(png, dimension_limit, dimension_limit);
    png_set_chunk_cache_max(png, PNG_CHUNK_CACHE_LIMIT);
    png_set_chunk_malloc_max(png, PNG_CHUNK_MALLOC_LIMIT);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_read_fn(png, state, read_bytes);

    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    result->width = width;
    result->height = height;
    if ((uint64_t)width * height > max_pixels) {
        qrc_set_message(state->message, "the image has too many pixels");
        return QRC_TOO_LARGE;
    }

    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t channels = png_get_channels(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    if (png_get_bit_depth(png, info) != 8 || channels < 1 || channels > 4 || row_bytes != width * channels) {
        qrc_set_message(state->message, "unexpected sample layout after conversion");
        return QRC_CORRUPT;
    }
    result->channels = (uint32_t)channels;
    result->pixels = malloc(row_bytes * height);
    state->rows = malloc(sizeof(png_bytep) * height);
    if (result->pixels == NULL || state->rows == NULL) {
        qrc_set_message(state->message, "not enough memory for the image");
        return QRC_OUT_OF_MEMORY;
    }
    for (png_uint_32 y = 0; y < height; y++) state->rows[y] = result->pixels + (size_t)y * row_bytes;
    png_read_image(png, state->rows);
    return QRC_OK;
}

qrc_status qrc_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                          qrc_pixels *result, char *message) {
    memset(result, 0, sizeof *result);
    qrc_set_message(message, "");
    png_read_state state = {data, size, 0, 0, message, NULL};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
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
        status = decode(&state, png, info, max_pixels, result);
    }
    png_destroy_read_struct(&png, info != NULL ? &info : NULL, NULL);
    free(state.rows);
    if (status != QRC_OK) {
        free(result->pixels);
        result->pixels = NULL;
    }
    return status;
}
