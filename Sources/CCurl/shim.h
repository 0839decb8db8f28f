#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic: Swift needs one
// fixed signature per argument type.

static inline CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, ccurl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

typedef int (*ccurl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, ccurl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/// curl_global_init(CURL_GLOBAL_DEFAULT): the macro is not imported.
static inline CURLcode ccurl_global_init_default(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// CURLAUTH_BEARER: the macro's cast keeps it from being imported.
static inline long ccurl_auth_bearer(void) {
    return (long)CURLAUTH_BEARER;
}

static inline CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_version_info(CURLVERSION_NOW): the macro is not imported.
static inline curl_version_info_data *ccurl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

#endif
