#ifndef SWITCHSCAN_CBRLAPI_SHIM_H
#define SWITCHSCAN_CBRLAPI_SHIM_H
/* Only the handle API (brlapi__*): no hidden global connection. */
#define BRLAPI_NO_SINGLE_SESSION 1
#include <brlapi.h>
#endif
