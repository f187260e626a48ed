/* The build's configuration: how many workers, and whether they lock. */
#ifndef TALLY_H
#define TALLY_H
#include <pthread.h>
#define WORKERS 2
#ifdef USE_LOCK
#define ENTER(m) pthread_mutex_lock(m)
#define LEAVE(m) pthread_mutex_unlock(m)
#else
#define ENTER(m) ((void)0)
#define LEAVE(m) ((void)0)
#endif
#endif
