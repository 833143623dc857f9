#ifndef SWITCHSCAN_CLOUIS_SHIM_H
#define SWITCHSCAN_CLOUIS_SHIM_H
#include <liblouis/liblouis.h>
#endif
