/* The connections a post hook waits for (net.c, docs/network.md): their
 * PostToolUse when they end. */
#ifndef HOOKSHIM_SHIM_NET_H
#define HOOKSHIM_SHIM_NET_H

/* fd is about to be closed (close, before the real one): its
 * connection's post, when this process opened one on it. Only when
 * hs_st.net_conns. */
void hs_net_closing(int fd);
/* The same for every followed descriptor from lo to hi (close_range,
 * closefrom). */
void hs_net_closing_range(unsigned lo, unsigned hi);
/* The process is exiting: the posts of every connection still open. */
void hs_net_exiting(void);

#endif
