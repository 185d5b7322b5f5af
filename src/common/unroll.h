/* UNCORE_UNROLL_4 before a loop of the read path: unrolled four times, so
 * that a per-counter loop pays its increment, compare and branch once per
 * four counters (bench/README.md section 2 counts instructions per event). */
#ifndef UNCORE_COMMON_UNROLL_H
#define UNCORE_COMMON_UNROLL_H

#if defined(__clang__)
#define UNCORE_UNROLL_4 _Pragma("unroll 4")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define UNCORE_UNROLL_4 _Pragma("GCC unroll 4")
#else
#define UNCORE_UNROLL_4
#endif

#endif
