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

/// Reads `count` bytes at `offset` of the file of `schema` ("main") through
/// the connection's own file handle: SQLITE_IOERR_SHORT_READ when the file
/// is shorter. Opening the file anew and closing it would drop every POSIX
/// lock that the process holds on it, its connections' included.
static inline int cipherdb_read_database_file(sqlite3 *db, const char *schema, void *buffer, int count, sqlite3_int64 offset) {
    sqlite3_file *file = 0;
    int code = sqlite3_file_control(db, schema, SQLITE_FCNTL_FILE_POINTER, &file);
    if (code != SQLITE_OK) return code;
    if (file == 0 || file->pMethods == 0) return SQLITE_CANTOPEN;
    return file->pMethods->xRead(file, buffer, count, offset);
}

#endif
