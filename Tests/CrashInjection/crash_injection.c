// An LD_PRELOAD library for the crash-safety tests: it numbers the calls
// that make a file change durable or move it (fsync, fdatasync, rename,
// link, unlink, ftruncate and their *at variants), in the order the
// process makes them, and kills the process with SIGKILL at one of them.
//
//   CRASH_INJECTION_LOG=FILE     appends "N NAME ARGUMENT" for each call
//   CRASH_INJECTION_KILL_AT=N    SIGKILL at call N, before it runs
//   CRASH_INJECTION_KILL_AFTER=1 SIGKILL at call N, after it has run
//
// The tests (Tests/PlayersCLITests/CrashSafetyTests.swift) compile it with
// the toolchain's clang; it is never part of a product.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static atomic_long call_count;

static long kill_at(void) {
    const char *value = getenv("CRASH_INJECTION_KILL_AT");
    return value ? atol(value) : 0;
}

static int kills_after(void) {
    const char *value = getenv("CRASH_INJECTION_KILL_AFTER");
    return value && strcmp(value, "1") == 0;
}

static void log_call(long number, const char *name, const char *argument) {
    const char *path = getenv("CRASH_INJECTION_LOG");
    if (!path) return;
    int descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (descriptor < 0) return;
    char line[4200];
    int length = snprintf(line, sizeof line, "%ld %s %s\n", number, name, argument);
    if (length > 0) {
        ssize_t ignored = write(descriptor, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
        (void)ignored;
    }
    close(descriptor);
}

// Numbers the call, logs it, and kills the process before it if asked.
static long before_call(const char *name, const char *argument) {
    long number = atomic_fetch_add(&call_count, 1) + 1;
    log_call(number, name, argument);
    if (number == kill_at() && !kills_after()) kill(getpid(), SIGKILL);
    return number;
}

static void after_call(long number) {
    if (number == kill_at() && kills_after()) kill(getpid(), SIGKILL);
}

static void *next_symbol(const char *name) {
    void *symbol = dlsym(RTLD_NEXT, name);
    if (!symbol) {
        fprintf(stderr, "crash_injection: no %s in the C library\n", name);
        abort();
    }
    return symbol;
}

static const char *descriptor_name(int descriptor, char *buffer, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", descriptor);
    ssize_t length = readlink(link, buffer, size - 1);
    buffer[length > 0 ? length : 0] = 0;
    return buffer;
}

#define INTERCEPT_FD(NAME, ...)                                              \
    char name[4096];                                                         \
    long number = before_call(#NAME, descriptor_name(fd, name, sizeof name)); \
    static int (*real)(int, ##__VA_ARGS__);                                  \
    if (!real) real = next_symbol(#NAME);

int fsync(int fd) {
    INTERCEPT_FD(fsync)
    int result = real(fd);
    after_call(number);
    return result;
}

int fdatasync(int fd) {
    INTERCEPT_FD(fdatasync)
    int result = real(fd);
    after_call(number);
    return result;
}

int ftruncate(int fd, off_t length) {
    INTERCEPT_FD(ftruncate, off_t)
    int result = real(fd, length);
    after_call(number);
    return result;
}

int ftruncate64(int fd, off_t length) {
    INTERCEPT_FD(ftruncate64, off_t)
    int result = real(fd, length);
    after_call(number);
    return result;
}

int unlink(const char *path) {
    long number = before_call("unlink", path);
    static int (*real)(const char *);
    if (!real) real = next_symbol("unlink");
    int result = real(path);
    after_call(number);
    return result;
}

int unlinkat(int directory, const char *path, int flags) {
    long number = before_call("unlinkat", path);
    static int (*real)(int, const char *, int);
    if (!real) real = next_symbol("unlinkat");
    int result = real(directory, path, flags);
    after_call(number);
    return result;
}

int rename(const char *from, const char *to) {
    long number = before_call("rename", to);
    static int (*real)(const char *, const char *);
    if (!real) real = next_symbol("rename");
    int result = real(from, to);
    after_call(number);
    return result;
}

int renameat(int from_directory, const char *from, int to_directory, const char *to) {
    long number = before_call("renameat", to);
    static int (*real)(int, const char *, int, const char *);
    if (!real) real = next_symbol("renameat");
    int result = real(from_directory, from, to_directory, to);
    after_call(number);
    return result;
}

int renameat2(int from_directory, const char *from, int to_directory, const char *to, unsigned int flags) {
    long number = before_call("renameat2", to);
    static int (*real)(int, const char *, int, const char *, unsigned int);
    if (!real) real = next_symbol("renameat2");
    int result = real(from_directory, from, to_directory, to, flags);
    after_call(number);
    return result;
}

int link(const char *from, const char *to) {
    long number = before_call("link", to);
    static int (*real)(const char *, const char *);
    if (!real) real = next_symbol("link");
    int result = real(from, to);
    after_call(number);
    return result;
}

int linkat(int from_directory, const char *from, int to_directory, const char *to, int flags) {
    long number = before_call("linkat", to);
    static int (*real)(int, const char *, int, const char *, int);
    if (!real) real = next_symbol("linkat");
    int result = real(from_directory, from, to_directory, to, flags);
    after_call(number);
    return result;
}
