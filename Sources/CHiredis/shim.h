#ifndef LAYERCAST_CHIREDIS_SHIM_H
#define LAYERCAST_CHIREDIS_SHIM_H

#include <hiredis/hiredis.h>

#endif
