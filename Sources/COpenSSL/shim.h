// OpenSSL 3's libcrypto (Debian's libssl-dev), the library SQLCipher
// itself encrypts with: PBKDF2 for CipherDB's passphrase keys, and
// AES-256-GCM, PBKDF2 and HKDF for the encrypted JSON exports, with no
// second copy of a cryptography library.
#include <openssl/evp.h>
#include <openssl/kdf.h>
