#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libcurl's functions, resolved once by load(): written before
// pthread_once returns, read only after it.
static struct {
    CURLcode (*global_init)(long flags);
    curl_version_info_data *(*version_info)(CURLversion version);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CURLcode init_result = CURLE_FAILED_INIT;

static int resolve(void *library, void **function, const char *name) {
    *function = dlsym(library, name);
    if (*function == NULL) {
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name);
        return 0;
    }
    return 1;
}

static void load(void) {
    // The soname of Debian's libcurl4 (OpenSSL), which the header of
    // libcurl4-openssl-dev describes.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "libcurl.so.4 could not be loaded");
        return;
    }
    loaded = resolve(library, (void **)&curl.global_init, "curl_global_init")
        && resolve(library, (void **)&curl.version_info, "curl_version_info")
        && resolve(library, (void **)&curl.easy_init, "curl_easy_init")
        && resolve(library, (void **)&curl.easy_cleanup, "curl_easy_cleanup")
        && resolve(library, (void **)&curl.easy_perform, "curl_easy_perform")
        && resolve(library, (void **)&curl.easy_strerror, "curl_easy_strerror")
        && resolve(library, (void **)&curl.easy_setopt, "curl_easy_setopt")
        && resolve(library, (void **)&curl.easy_getinfo, "curl_easy_getinfo")
        && resolve(library, (void **)&curl.slist_append, "curl_slist_append")
        && resolve(library, (void **)&curl.slist_free_all, "curl_slist_free_all");
}

static int load_library(void) {
    pthread_once(&load_once, load);
    return loaded;
}

static void global_init(void) {
    init_result = load_library() ? curl.global_init(CURL_GLOBAL_DEFAULT) : CURLE_FAILED_INIT;
}

CURLcode ccurl_global_init_default(void) {
    pthread_once(&init_once, global_init);
    return init_result;
}

const char *ccurl_load_error(void) {
    return load_library() ? NULL : load_error;
}

curl_version_info_data *ccurl_version_info(void) {
    return load_library() ? curl.version_info(CURLVERSION_NOW) : NULL;
}

CURL *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string) {
    return curl.slist_append(list, string);
}

void ccurl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, ccurl_write_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}

CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, ccurl_xferinfo_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl.easy_getinfo(handle, info, value);
}
