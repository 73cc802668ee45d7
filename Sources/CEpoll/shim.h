#ifndef STOREFRONT_CEPOLL_SHIM_H
#define STOREFRONT_CEPOLL_SHIM_H
// Linux's epoll, which Swift's Glibc module leaves out; used by Postgres' SocketReadiness.
#include <sys/epoll.h>
#endif
