import PostgresClient
import SyncServer

/// PostgreSQL's errors as the server's store failures: one that cannot
/// reach the database now (``PostgresStoreError/isUnavailable``) is
/// answered 503 with `Retry-After`. The driver (PostgresClient) knows
/// nothing of the server's rules; the store above it does.
extension PostgresStoreError: StoreFailure {}
