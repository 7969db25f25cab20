/*===- report.h - The report -----------------------------------------------===*
 *
 * Private to host_rt: the report that runs once per process, in two stages
 * (docs/design.md, "The order at exit").
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_REPORT_H
#define PASTA_HOST_RT_REPORT_H

#pragma GCC visibility push(hidden)

/* Set when the report ran, and when its device stage ran (both cleared in a
 * forked child). */
extern int pasta__reported;
extern int pasta__device_read;

/* The report's device stage, once per process: what needs the vendor
 * runtime (launches in flight, device counters) is read and kept. Runs
 * from the exit handler registered after the vendor runtime initialised
 * (before its teardown), or first thing in pasta__report. */
void pasta__read_devices(void);
/* Runs the device stage if it has not run, then collects the host modules
 * and reports, once per process: at the very end (the runtime's
 * destructor), or from quick_exit's handlers. */
void pasta__report(void);

#pragma GCC visibility pop

#endif
