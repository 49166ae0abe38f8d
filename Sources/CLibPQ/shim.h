#ifndef LAYERCAST_CLIBPQ_SHIM_H
#define LAYERCAST_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
