/*===- report_main.c - pasta-report with its main renamed, for fuzz_report -===*
 *
 * fuzz_report calls pasta_report_main(argc, argv) once per command on each
 * input, so that every path of the tool runs exactly as a user runs it.
 *===----------------------------------------------------------------------===*/
int pasta_report_main(int argc, char **argv);
#define main pasta_report_main
#include "../tools/pasta-report/pasta_report.c"
