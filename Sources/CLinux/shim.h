#ifndef STOREFRONT_CLINUX_SHIM_H
#define STOREFRONT_CLINUX_SHIM_H
// Linux calls that Swift's Glibc module leaves out, used by Postgres' PostgresEventLoop: epoll,
// eventfd, and naming a thread (a GNU extension, declared here as glibc declares it).
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

int pthread_setname_np(pthread_t thread, const char *name);
int pthread_getname_np(pthread_t thread, char *name, size_t length);
#endif
