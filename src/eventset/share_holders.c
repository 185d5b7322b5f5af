/* Who counts on the sockets the running sets use (share.h): the reports
 * of the hub's ownership of them, for the component's description and
 * uncore-stat - what hub_take_sockets (share.c) learnt, read under the
 * hub's lock. */
#include "eventset/share_internal.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <string.h>

int uncore_share_socket_state(struct uncore_share *hub, unsigned s, char *who, size_t wlen)
{
	int st;
	if (s >= UNCORE_MACHINE_MAX_SOCKETS)
		return -1;
	hub_lock(&hub->mu);
	if (!(hub->wanted & (1u << s)))
		st = -1;
	else if (hub->missing & (1u << s)) {
		st = 0;
		if (who)
			snprintf(who, wlen, "%s", hub->owner[s]);
	} else
		st = 1;
	hub_unlock(&hub->mu);
	return st;
}

int uncore_share_holders(struct uncore_share *hub, char *buf, size_t len)
{
	size_t at = 0;
	char who[UNCORE_MACHINE_MAX_SOCKETS][160];
	char note[UNCORE_MACHINE_MAX_SOCKETS][240];
	int held[UNCORE_MACHINE_MAX_SOCKETS];
	unsigned n = hub->be->machine.nsockets;
	if (len)
		buf[0] = '\0';
	if (hub->no_socket_lock && !hub->forked_from)
		return 0;
	if (n > UNCORE_MACHINE_MAX_SOCKETS)
		n = UNCORE_MACHINE_MAX_SOCKETS;
	for (unsigned s = 0; s < n; s++) {
		who[s][0] = '\0';
		held[s] = uncore_share_socket_state(hub, s, who[s], sizeof(who[s])) == 0;
		hub_lock(&hub->mu);
		snprintf(note[s], sizeof(note[s]), "%s", hub->note[s]);
		hub_unlock(&hub->mu);
	}
	/* One clause per holder, naming all its sockets ("sockets 0, 1 counted
	 * by PID 4242 (a.out), read 0 here"): short enough for PAPI's 128
	 * characters of description on a two-socket node. */
	for (unsigned s = 0; s < n; s++) {
		if (!held[s])
			continue;
		unsigned count = 0;
		for (unsigned t = s; t < n; t++)
			count += held[t] && strcmp(who[t], who[s]) == 0;
		int k = snprintf(buf + at, len - at, "%ssocket%s ", at ? "; " : "", count > 1 ? "s" : "");
		for (unsigned t = s, first = 1; k >= 0 && (size_t)k < len - at && t < n; t++) {
			if (!held[t] || strcmp(who[t], who[s]) != 0)
				continue;
			k += snprintf(buf + at + k, len - at - (size_t)k, "%s%u", first ? "" : ", ", t);
			first = 0;
			if (t != s)
				held[t] = 0;
		}
		if (k >= 0 && (size_t)k < len - at)
			k += snprintf(buf + at + k, len - at - (size_t)k, " %s, %s 0 here%s%s%s",
				      who[s], count > 1 ? "read" : "reads", note[s][0] ? " [" : "",
				      note[s], note[s][0] ? "]" : "");
		if (k < 0 || (size_t)k >= len - at)
			return uncore_fail(UNCORE_ENOSPACE, "holder description too long");
		at += (size_t)k;
	}
	return 0;
}
