// libsodium (Debian's libsodium-dev), for the end-to-end sealing of synced
// rows (SyncSealing): XChaCha20-Poly1305, X25519 boxes, BLAKE2b key
// derivation, padding and constant-time comparison. Only a program that
// links SyncSealing links it.
#include <sodium.h>
