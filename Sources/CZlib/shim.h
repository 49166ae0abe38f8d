#ifndef LAYERCAST_CZLIB_SHIM_H
#define LAYERCAST_CZLIB_SHIM_H

#include <zlib.h>

/// deflateInit2 is a macro that Swift cannot import; this is it as a function.
static inline int layercast_deflate_init(z_stream *stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

/// inflateInit2, likewise.
static inline int layercast_inflate_init(z_stream *stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
