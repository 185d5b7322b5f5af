/* Scenario texts that several unit tests count on (sim_set_open's
 * scenario_text): one copy, so that their expected values agree. */
#ifndef UNCORE_TEST_SIM_TEXTS_H
#define UNCORE_TEST_SIM_TEXTS_H

/* Constant writebacks: the three Wb{I,S,E} packet
 * filters of QPI port 0 of socket 0 take turns (Haswell-EP uncore guide
 * 2.9.5, DRS_WB_FROM_QPI), 60 M packets/s in all, 64 bytes each. */
#define SIM_TEXT_QPI_WRITEBACKS                                                                    \
	"include hswep-clocks.scn\n"                                                               \
	"include hswep-shapes.scn\n"                                                               \
	"stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x4 rate=30M/s\n" /* WbIData      \
										      0x1C80 */    \
	"stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x5 rate=20M/s\n" /* WbSData      \
										      0x1CA0 */    \
	"stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x6 rate=10M/s\n" /* WbEData      \
										      0x1CC0 */

#endif
