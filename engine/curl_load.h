/* libcurl, loaded when a session needs it: at the start of one whose
 * config has an http hook (engine/hook_scripts.c says then if it cannot
 * be) or an OTLP collector (supervisor/otlp.c), else never.
 *
 * Linked at build time, libcurl and the thirty-odd libraries it brings
 * (TLS, Kerberos, LDAP, SSH, IDN...) were mapped and relocated by every
 * start of the hookshim binary: 3.4 ms of CPU, a third of a whole short
 * session (`hookshim run -- true`), paid by sessions that never make a
 * request. dlopen'd here instead, once, with curl_global_init done before
 * any caller sees the table (and before the session's threads start). */
#ifndef HOOKSHIM_ENGINE_CURL_LOAD_H
#define HOOKSHIM_ENGINE_CURL_LOAD_H

#include <stddef.h>

#include <curl/curl.h>

/* The soname loaded (scripts/make-deb.sh names its package). */
#define HS_CURL_SONAME "libcurl.so.4"

/* Each entry has the type curl.h gives its function. */
#define HS_CURL_FN(name) __typeof__(curl_##name) *name
struct hs_curl {
	HS_CURL_FN(easy_init);
	HS_CURL_FN(easy_setopt);
	HS_CURL_FN(easy_perform);
	HS_CURL_FN(easy_getinfo);
	HS_CURL_FN(easy_reset);
	HS_CURL_FN(easy_cleanup);
	HS_CURL_FN(easy_strerror);
	HS_CURL_FN(slist_append);
	HS_CURL_FN(slist_free_all);
	HS_CURL_FN(multi_init);
	HS_CURL_FN(multi_add_handle);
	HS_CURL_FN(multi_remove_handle);
	HS_CURL_FN(multi_perform);
	HS_CURL_FN(multi_poll);
	HS_CURL_FN(multi_info_read);
	HS_CURL_FN(multi_cleanup);
};
#undef HS_CURL_FN

/* The loaded library, or NULL with why in err (cap bytes; err may be
 * NULL). Thread-safe; loaded once, the answer kept for the process. */
const struct hs_curl *hs_curl(char *err, size_t cap);

#endif
