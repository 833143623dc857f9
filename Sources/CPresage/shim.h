#ifndef SWITCHSCAN_CPRESAGE_SHIM_H
#define SWITCHSCAN_CPRESAGE_SHIM_H
/*
 * libpresage's C API (presage.h outside C++): n-gram word prediction over a context the
 * caller gives through two callbacks (the text before and after the caret).
 */
#include <presage.h>

#endif
