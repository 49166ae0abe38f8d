#ifndef LAYERCAST_CJANSSON_SHIM_H
#define LAYERCAST_CJANSSON_SHIM_H

#include <jansson.h>

/// json_incref/json_decref are static inline functions in jansson.h; these wrappers give Swift
/// stable symbols for them.
static inline json_t *layercast_json_incref(json_t *json) { return json_incref(json); }
static inline void layercast_json_decref(json_t *json) { json_decref(json); }

#endif
