/* Box types of the x7400 platform: registered once its tables are merged
 * from the tables-client branch (see README.md, "Adding a generation"). */
#include "events/table.h"

const struct uncore_event_platform uncore_events_x7400 = {
	.id = UNCORE_PLATFORM_X7400,
	.name = "x7400",
};
