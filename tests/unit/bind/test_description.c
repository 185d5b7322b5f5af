/* The component's description in PAPI's 128 characters
 * (bind/description.h): whole when it fits; else its parenthesised details
 * dropped from the last, then a cut after a clause marked "..."; never a
 * word cut in two. */
#include "bind/description.h"
#include "harness.h"

TEST(short_descriptions_are_whole)
{
	char out[128];
	const char *d = "Intel uncore, sim backend: SIMULATED uncore: model e5-2699v3-2s (Xeon E5-2699 "
			"v3, 2 sockets), scenario demo-stream (default)";
	uncore_description_fit(out, sizeof(out), d);
	CHECK_EQ_STR(out, d);
}

TEST(details_in_parentheses_go_first_from_the_last)
{
	char out[128];
	uncore_description_fit(
	    out, sizeof(out),
	    "Intel uncore, perf backend: simulated kernel, SIMULATED uncore: model e5-2699v3-2s "
	    "(Xeon E5-2699 v3, 2 sockets), scenario demo-stream (default)");
	CHECK_EQ_STR(out, "Intel uncore, perf backend: simulated kernel, SIMULATED uncore: model "
			  "e5-2699v3-2s, scenario demo-stream");
	uncore_description_fit(
	    out, sizeof(out),
	    "Intel uncore, perf backend: SIMULATED kernel: Granite Rapids-shaped PMUs (2 x 32 CPUs, 8 "
	    "IMC channels, 2 schedulers each); no uncore tables");
	CHECK_EQ_STR(out, "Intel uncore, perf backend: SIMULATED kernel: Granite Rapids-shaped PMUs; "
			  "no uncore tables");
}

TEST(without_parentheses_it_is_cut_after_a_clause)
{
	char out[40];
	uncore_description_fit(out, sizeof(out),
			       "Intel uncore, sim backend: socket 0 counted by PID 42, reads 0 here");
	CHECK(strlen(out) < sizeof(out));
	CHECK_EQ_STR(out, "Intel uncore, sim backend: socket 0...");
}

TEST(who_holds_a_socket_is_kept_whole)
{
	char out[128];
	uncore_description_fit_tail(
	    out, sizeof(out),
	    "Intel uncore, sim backend: sockets 0, 1 counted by PID 28404 (papi_lock), read 0 here; ",
	    "SIMULATED uncore: model e5-2699v3-2s (Xeon E5-2699 v3, 2 sockets), scenario "
	    "hswep-clocks");
	CHECK_EQ_STR(out, "Intel uncore, sim backend: sockets 0, 1 counted by PID 28404 (papi_lock), "
			  "read 0 here; SIMULATED uncore: model e5-2699v3-2s,...");
}

/* Another measurement group's holder (eventset/share.h): its bracketed
 * note goes before anything else, the PID and command stay. */
TEST(a_groups_note_goes_first)
{
	char out[128];
	uncore_description_fit_tail(
	    out, sizeof(out),
	    "Intel uncore, sim backend: sockets 0, 1 counted by PID 28404 (mpi_ranks), read 0 here "
	    "[user root, measurement group openmpi:2039087105: on the direct backend one group "
	    "programs a socket; uncored, the node service, lets groups share it]; ",
	    "SIMULATED uncore: model e5-2699v3-2s (Xeon E5-2699 v3, 2 sockets), scenario "
	    "hswep-clocks");
	CHECK_EQ_STR(out, "Intel uncore, sim backend: sockets 0, 1 counted by PID 28404 (mpi_ranks), "
			  "read 0 here; SIMULATED uncore: model e5-2699v3-2s,...");
}

int main(void)
{
	RUN(short_descriptions_are_whole);
	RUN(details_in_parentheses_go_first_from_the_last);
	RUN(without_parentheses_it_is_cut_after_a_clause);
	RUN(who_holds_a_socket_is_kept_whole);
	RUN(a_groups_note_goes_first);
	return harness_done();
}
