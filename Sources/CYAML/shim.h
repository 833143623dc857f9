#ifndef SWITCHSCAN_CYAML_SHIM_H
#define SWITCHSCAN_CYAML_SHIM_H
/*
 * libyaml (Debian's libyaml-dev), imported once for the YAMLEvents module (its only client).
 * Everything imports cleanly; the shim exists so the module map names one header of ours.
 */
#include <yaml.h>
#endif
