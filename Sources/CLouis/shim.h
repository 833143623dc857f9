#ifndef SWITCHSCAN_CLOUIS_SHIM_H
#define SWITCHSCAN_CLOUIS_SHIM_H
/*
 * liblouis, imported once for the Louis module (the only client of this module).
 *
 * What does not import cleanly, and what this shim gives instead:
 *
 * - `translationModes` and `logLevels` are anonymous C enums behind a typedef: Swift imports
 *   them as structs with a UInt32 `rawValue`, while `lou_translate` takes the mode as `int`
 *   and the log callback receives a `logLevels`. The constants below are plain `int`s, so
 *   Swift code can `|` them and pass them straight through.
 * - `widechar` is `unsigned short` (UTF-16) or `unsigned int` (UTF-32, `--enable-ucs4`),
 *   fixed when liblouis is configured (Debian 12's liblouis 3.24.0: `unsigned int`).
 *   `SWITCHSCAN_LOU_WIDECHAR_SIZE` is the size this header was compiled with; Swift compares
 *   it with `lou_charSize()` (the size the loaded library was built with) and chooses UTF-16
 *   or UTF-32 by it. The static assertion rejects any other size at build time.
 * - `LOU_ROW_BRAILLE` (U+2800, the first Unicode braille cell) is an enum constant of an
 *   anonymous typedef too.
 */
#include <liblouis/liblouis.h>

_Static_assert(sizeof(widechar) == 2 || sizeof(widechar) == 4,
               "liblouis widechar must be 16-bit (UTF-16) or 32-bit (UTF-32)");

/* sizeof(widechar) in the header this module was compiled against: 2 or 4. */
static const int SWITCHSCAN_LOU_WIDECHAR_SIZE = (int)sizeof(widechar);

/* Translation modes (the `mode` argument of lou_translate), as plain ints. */
static const int SWITCHSCAN_LOU_MODE_NO_CONTRACTIONS = noContractions;
static const int SWITCHSCAN_LOU_MODE_COMPBRL_AT_CURSOR = compbrlAtCursor;
static const int SWITCHSCAN_LOU_MODE_DOTS_IO = dotsIO;
static const int SWITCHSCAN_LOU_MODE_COMPBRL_LEFT_CURSOR = compbrlLeftCursor;
static const int SWITCHSCAN_LOU_MODE_UC_BRL = ucBrl;
static const int SWITCHSCAN_LOU_MODE_NO_UNDEFINED = noUndefined;

/* Log levels, as plain ints, and the level of a callback's argument. */
static const int SWITCHSCAN_LOU_LOG_WARN = LOU_LOG_WARN;
static const int SWITCHSCAN_LOU_LOG_ERROR = LOU_LOG_ERROR;
static inline int switchscan_lou_log_level(logLevels level) { return (int)level; }
static inline void switchscan_lou_set_log_level(int level) { lou_setLogLevel((logLevels)level); }

/* The first Unicode braille cell (U+2800): ucBrl output is this plus the dots of the cell. */
static const int SWITCHSCAN_LOU_ROW_BRAILLE = LOU_ROW_BRAILLE;

#endif
