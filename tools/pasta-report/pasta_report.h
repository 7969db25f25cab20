/*===- pasta_report.h - pasta-report as a function ------------------------===*
 *
 * The whole tool behind one call, so that a program other than its main
 * (fuzz/fuzz_report.c) runs every path exactly as a user does.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_PASTA_REPORT_H
#define PASTA_TOOLS_PASTA_REPORT_H

/* pasta-report with `argc` arguments `argv` (argv[0] is the program).
 * Returns its exit status (pasta_report.c says which). */
int pasta__report_main(int argc, char **argv);

#endif
