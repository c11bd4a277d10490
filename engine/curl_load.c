/* libcurl, loaded when first needed (curl_load.h says why). */
#include "curl_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct hs_curl table;
static const struct hs_curl *loaded;
static char why[256];

/* each entry of the table by its libcurl name */
#define SYMS(X)                                                               \
	X(easy_init) X(easy_setopt) X(easy_perform) X(easy_getinfo)           \
	X(easy_reset) X(easy_cleanup) X(easy_strerror) X(slist_append)        \
	X(slist_free_all) X(multi_init) X(multi_add_handle)                   \
	X(multi_remove_handle) X(multi_perform) X(multi_poll)                 \
	X(multi_info_read) X(multi_cleanup)

static void load(void)
{
	__typeof__(curl_global_init) *global_init;
	const char *e;
	void *h;

	/* RTLD_LOCAL: its symbols serve this table, nothing else */
	h = dlopen(HS_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		e = dlerror();
		snprintf(why, sizeof(why), "libcurl could not be loaded (%s)",
			 e ? e : HS_CURL_SONAME);
		return;
	}
#define GET(name)                                                             \
	if (!(table.name = (__typeof__(table.name))dlsym(h, "curl_" #name))) { \
		snprintf(why, sizeof(why), "libcurl (%s) has no curl_%s",     \
			 HS_CURL_SONAME, #name);                              \
		return;                                                       \
	}
	SYMS(GET)
#undef GET
	global_init = (__typeof__(global_init))dlsym(h, "curl_global_init");
	if (!global_init || global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(why, sizeof(why), "libcurl could not start");
		return;
	}
	/* never dlclose'd: handles live until the process ends */
	loaded = &table;
}

const struct hs_curl *hs_curl(char *err, size_t cap)
{
	pthread_once(&once, load);
	if (!loaded && err && cap)
		snprintf(err, cap, "%s", why);
	return loaded;
}
