// libpq, PostgreSQL's own C client (Debian's libpq-dev): the PostgreSQL
// store's connections, with its TLS (OpenSSL, which SQLCipher links too),
// authentication methods and connection parameters.
#include <postgresql/libpq-fe.h>
#include <poll.h>
#include <sys/eventfd.h>
