#ifndef SWITCHSCAN_CBRLAPI_SHIM_H
#define SWITCHSCAN_CBRLAPI_SHIM_H
/*
 * What libbrlapi offers that does not import into Swift, as static inline functions:
 * the UINT64_C key constants and masks, the writeArguments initializer, the per-thread
 * error (brlapi_error_location), key expansion, and an exception handler that records
 * the exception for its handle instead of aborting the process.
 *
 * Only the handle API (brlapi__*) is visible: no hidden global connection.
 */
#define BRLAPI_NO_SINGLE_SESSION 1
#include <brlapi.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- Key codes (brlapi_keycodes.h, brlapi_constants.h) ---- */

static inline uint64_t cbrlapi_key_type_mask(void) { return BRLAPI_KEY_TYPE_MASK; }
static inline uint64_t cbrlapi_key_type_cmd(void) { return BRLAPI_KEY_TYPE_CMD; }
static inline uint64_t cbrlapi_key_type_sym(void) { return BRLAPI_KEY_TYPE_SYM; }
static inline uint64_t cbrlapi_key_code_mask(void) { return BRLAPI_KEY_CODE_MASK; }
static inline uint64_t cbrlapi_key_flags_mask(void) { return BRLAPI_KEY_FLAGS_MASK; }
static inline uint64_t cbrlapi_key_cmd_blk_mask(void) { return BRLAPI_KEY_CMD_BLK_MASK; }
static inline uint64_t cbrlapi_key_cmd_arg_mask(void) { return BRLAPI_KEY_CMD_ARG_MASK; }

/* Commands with an argument (a command block): the argument is the cell, 0-based. */
static inline uint64_t cbrlapi_key_cmd_route(void) { return BRLAPI_KEY_CMD_ROUTE; }

/* Commands without an argument (block 0). */
static inline uint64_t cbrlapi_key_cmd_fwinlt(void) { return BRLAPI_KEY_CMD_FWINLT; }
static inline uint64_t cbrlapi_key_cmd_fwinrt(void) { return BRLAPI_KEY_CMD_FWINRT; }
static inline uint64_t cbrlapi_key_cmd_lnup(void) { return BRLAPI_KEY_CMD_LNUP; }
static inline uint64_t cbrlapi_key_cmd_lndn(void) { return BRLAPI_KEY_CMD_LNDN; }
static inline uint64_t cbrlapi_key_cmd_top(void) { return BRLAPI_KEY_CMD_TOP; }
static inline uint64_t cbrlapi_key_cmd_bot(void) { return BRLAPI_KEY_CMD_BOT; }
static inline uint64_t cbrlapi_key_cmd_chrlt(void) { return BRLAPI_KEY_CMD_CHRLT; }
static inline uint64_t cbrlapi_key_cmd_chrrt(void) { return BRLAPI_KEY_CMD_CHRRT; }
static inline uint64_t cbrlapi_key_cmd_hwinlt(void) { return BRLAPI_KEY_CMD_HWINLT; }
static inline uint64_t cbrlapi_key_cmd_hwinrt(void) { return BRLAPI_KEY_CMD_HWINRT; }
static inline uint64_t cbrlapi_key_cmd_lnbeg(void) { return BRLAPI_KEY_CMD_LNBEG; }
static inline uint64_t cbrlapi_key_cmd_lnend(void) { return BRLAPI_KEY_CMD_LNEND; }
static inline uint64_t cbrlapi_key_cmd_home(void) { return BRLAPI_KEY_CMD_HOME; }
static inline uint64_t cbrlapi_key_cmd_back(void) { return BRLAPI_KEY_CMD_BACK; }
static inline uint64_t cbrlapi_key_cmd_return(void) { return BRLAPI_KEY_CMD_RETURN; }
static inline uint64_t cbrlapi_key_cmd_csrtrk(void) { return BRLAPI_KEY_CMD_CSRTRK; }

/* ---- Key expansion ---- */

/* brlapi_expandKeyCode: type, command (the code without its argument), argument, flags.
 * Returns 0, or -1 for a code of unknown type. */
static inline int cbrlapi_expand_key(brlapi_keyCode_t code, unsigned int *type, unsigned int *command,
                                     unsigned int *argument, unsigned int *flags) {
  brlapi_expandedKeyCode_t expanded;
  int result = brlapi_expandKeyCode(code, &expanded);
  if (result == 0) {
    *type = expanded.type;
    *command = expanded.command;
    *argument = expanded.argument;
    *flags = expanded.flags;
  }
  return result;
}

/* ---- Writing ---- */

/* BRLAPI_WRITEARGUMENTS_INITIALIZER, with displayNumber -1 (BRLAPI_DISPLAY_DEFAULT),
 * textSize -1 (strlen) and cursor BRLAPI_CURSOR_LEAVE. */
static inline brlapi_writeArguments_t cbrlapi_write_arguments(void) {
  brlapi_writeArguments_t arguments;
  memset(&arguments, 0, sizeof(arguments));
  arguments.displayNumber = BRLAPI_DISPLAY_DEFAULT;
  arguments.regionBegin = 0;
  arguments.regionSize = 0;
  arguments.text = NULL;
  arguments.textSize = -1;
  arguments.andMask = NULL;
  arguments.orMask = NULL;
  arguments.cursor = BRLAPI_CURSOR_LEAVE;
  arguments.charset = NULL;
  return arguments;
}

/* brlapi__ignoreAllKeys is a macro; this is what it expands to. */
static inline int cbrlapi_ignore_all_keys(brlapi_handle_t *handle) {
  return brlapi__ignoreKeys(handle, brlapi_rangeType_all, NULL, 0);
}

/* ---- Errors ---- */

/* The calling thread's brlapi_error (brlapi_errno and friends are macros over this). */
typedef struct {
  int code;         /* enum brlapi_error */
  int libcErrno;    /* errno, when code is BRLAPI_ERROR_LIBCERR (and left over otherwise) */
  int gaiErrno;     /* getaddrinfo error, when code is BRLAPI_ERROR_GAIERR */
  const char *function; /* the libc function that failed inside libbrlapi, or NULL */
} cbrlapi_error;

static inline cbrlapi_error cbrlapi_last_error(void) {
  brlapi_error_t *error = brlapi_error_location();
  cbrlapi_error result = { (int)error->brlerrno, error->libcerrno, error->gaierrno, error->errfun };
  return result;
}

/* Clears the calling thread's error, so that after a failure every field is the failure's own
 * (libbrlapi does not reset brlapi_error on success). */
static inline void cbrlapi_clear_error(void) {
  brlapi_error_t *error = brlapi_error_location();
  error->brlerrno = BRLAPI_ERROR_SUCCESS;
  error->libcerrno = 0;
  error->gaierrno = 0;
  error->errfun = NULL;
}

/* brlapi_strerror_r for the calling thread's error. */
static inline size_t cbrlapi_last_error_message(char *buffer, size_t size) {
  return brlapi_strerror_r(brlapi_error_location(), buffer, size);
}

/* ---- Exceptions ---- */

/* The last exception the server sent for a handle. BrlAPI reports some errors (of writes,
 * mostly) asynchronously as exceptions; the default handler prints them and abort()s. */
typedef struct {
  int error;                 /* BRLAPI_ERROR_*, 0 while none */
  uint32_t packetType;       /* the type of the guilty packet */
  unsigned long count;       /* exceptions seen so far */
  char description[256];     /* brlapi__strexception */
} cbrlapi_exception_record;

static inline void cbrlapi_recording_exception_handler(brlapi_handle_t *handle, int error, brlapi_packetType_t type,
                                                       const void *packet, size_t size) {
  cbrlapi_exception_record *record = (cbrlapi_exception_record *)brlapi__getClientData(handle);
  if (record == NULL) return;
  record->error = error;
  record->packetType = type;
  record->count += 1;
  record->description[0] = 0;
  brlapi__strexception(handle, record->description, sizeof(record->description), error, type, packet, size);
}

/* Replaces the aborting default handler of `handle` by one that records the exception in
 * `record` (kept as the handle's client data). brlapi__openConnection resets both, so call
 * this after opening. Returning from the handler makes the pending call fail with
 * BRLAPI_ERROR_EOF, and libbrlapi closes the connection's descriptor. */
static inline void cbrlapi_install_recording_exception_handler(brlapi_handle_t *handle,
                                                               cbrlapi_exception_record *record) {
  memset(record, 0, sizeof(*record));
  brlapi__setClientData(handle, record);
  brlapi__setExceptionHandler(handle, cbrlapi_recording_exception_handler);
}

#endif
