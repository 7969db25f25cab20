/*===- main.c - pasta-report's entry point --------------------------------===*
 *
 * Only this; the tool is pasta__report_main (pasta_report.c), which the
 * fuzz target calls too.
 *===----------------------------------------------------------------------===*/
#include "pasta_report.h"

int main(int argc, char **argv) { return pasta__report_main(argc, argv); }
