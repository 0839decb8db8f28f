#ifndef CCURL_H
#define CCURL_H

// libcurl (Debian's libcurl4-openssl-dev for the header, libcurl4 at run
// time), loaded with dlopen the first time a transfer needs it rather than
// linked: libcurl and the thirty libraries it brings (TLS, HTTP/2, LDAP,
// Kerberos…) cost every `players` command about 10 ms of loading, and
// most commands never sync.
//
// Only the header's types and constants are used from <curl/curl.h>: a
// Swift call of a curl_* function itself would fail to link. Call
// ccurl_global_init_default() first; the other functions need it to have
// returned CURLE_OK.

#include <curl/curl.h>

/// Loads libcurl.so.4 (once per process), then runs
/// curl_global_init(CURL_GLOBAL_DEFAULT) (once). Returns CURLE_OK;
/// CURLE_FAILED_INIT when libcurl could not be loaded, with the reason in
/// ccurl_load_error(); or curl_global_init's own error.
CURLcode ccurl_global_init_default(void);

/// Why libcurl could not be loaded (dlerror's message), or NULL.
const char *ccurl_load_error(void);

/// curl_version_info(CURLVERSION_NOW), or NULL when libcurl cannot be loaded.
curl_version_info_data *ccurl_version_info(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
void ccurl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic: Swift needs one
// fixed signature per argument type.

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);

typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);
CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, ccurl_write_callback callback);

typedef int (*ccurl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, ccurl_xferinfo_callback callback);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);

/// CURLAUTH_BEARER: the macro's cast keeps it from being imported.
static inline long ccurl_auth_bearer(void) {
    return (long)CURLAUTH_BEARER;
}

#endif
