#ifndef CSQLCIPHER_SHIM_H
#define CSQLCIPHER_SHIM_H

// SQLCipher declares sqlite3_key and sqlite3_rekey only when SQLITE_HAS_CODEC
// is defined. The header comes from Debian's libsqlcipher-dev, never from
// libsqlite3-dev: both define the same symbols, and the plain SQLite ones
// would store plaintext.
#define SQLITE_HAS_CODEC 1
#include <sqlcipher/sqlite3.h>

// Swift cannot call C variadic functions: these wrappers give sqlite3_config
// and sqlite3_db_config fixed signatures.

typedef void (*cipherdb_log_callback)(void *context, int code, const char *message);

/// sqlite3_config(SQLITE_CONFIG_LOG, callback, context)
static inline int cipherdb_config_log(cipherdb_log_callback callback, void *context) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}

/// sqlite3_config(SQLITE_CONFIG_MULTITHREAD)
static inline int cipherdb_config_multithread(void) {
    return sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
}

/// sqlite3_db_config(db, op, value, &result) for the integer options
/// (SQLITE_DBCONFIG_ENABLE_FKEY, SQLITE_DBCONFIG_ENABLE_TRIGGER, ...).
static inline int cipherdb_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

/// SQLITE_TRANSIENT is a cast of -1 to a function pointer, a macro Swift
/// does not import.
static inline sqlite3_destructor_type cipherdb_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
