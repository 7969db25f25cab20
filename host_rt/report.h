/*===- report.h - The report -----------------------------------------------===*
 *
 * Private to host_rt: the report that runs once per process (at main's
 * return, at exit or quick_exit).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_REPORT_H
#define PASTA_HOST_RT_REPORT_H

#pragma GCC visibility push(hidden)

/* Set when the report ran (cleared in a forked child). */
extern int pasta__reported;

/* Collects every registered module and reports, once per process. */
void pasta__report(void);

#pragma GCC visibility pop

#endif
