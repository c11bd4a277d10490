/* libcurl, loaded the first time a request needs it (an http hook,
 * engine/http_hook.c; the OTLP export, supervisor/otlp.c).
 *
 * Linked at build time, libcurl and the thirty-odd libraries it brings
 * (TLS, Kerberos, LDAP, SSH, IDN...) were mapped and relocated by every
 * start of the hookshim binary: 3.4 ms of CPU, a third of a whole short
 * session (`hookshim run -- true`), paid by sessions that never make a
 * request. dlopen'd here instead, once, with curl_global_init done before
 * any caller sees the table. */
#ifndef HOOKSHIM_ENGINE_CURL_LOAD_H
#define HOOKSHIM_ENGINE_CURL_LOAD_H

#include <stddef.h>

/* the table below stands in for the functions: curl.h's type-checking
 * macros would rename calls to them */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/* The soname loaded (scripts/make-deb.sh names its package). */
#define HS_CURL_SONAME "libcurl.so.4"

struct hs_curl {
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_reset)(CURL *);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
	CURLMcode (*multi_perform)(CURLM *, int *);
	CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int,
				int, int *);
	CURLMsg *(*multi_info_read)(CURLM *, int *);
	CURLMcode (*multi_cleanup)(CURLM *);
};

/* The loaded library, or NULL with why in err (cap bytes; err may be
 * NULL). Thread-safe; loaded once, the answer kept for the process. */
const struct hs_curl *hs_curl(char *err, size_t cap);

#endif
