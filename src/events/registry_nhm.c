/* Box types of the nhm platform: registered once its tables are merged
 * from the tables-client branch (see README.md, "Adding a generation"). */
#include "events/table.h"

const struct uncore_event_platform uncore_events_nhm = {
	.id = UNCORE_PLATFORM_NHM,
	.name = "nhm",
};
