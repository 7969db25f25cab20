/*===- pasta_report.c - Offline tool over PASTA JSON profiles -------------===*
 *
 *   pasta-report show PROFILE [--kernel REGEX] [--file SUBSTR] [--top N]
 *                             [--format table|csv|json] [--lines]
 *   pasta-report merge OUT.json INPUT... [--force]   (profiles, directories
 *                                                     of them, patterns)
 *   pasta-report diff BEFORE.json AFTER.json [--top N]
 *   pasta-report html PROFILE.json [-o OUT.html] [--source-root DIR]
 *   pasta-report html --diff BEFORE.json AFTER.json -o OUT.html
 *
 * This file is the top: the help text and the dispatch to the commands,
 * each in its own file (report_show.c, report_merge.c, report_diff.c,
 * report_html.c); what they share of the command line (usage, options,
 * error lines) is report_cli.c, at the bottom. Profiles
 * (docs/profile-format.md, versions 1 and 2) are read with profile/'s reader
 * (json_read.h, profile_read.h) into the runtime's own model, through
 * report_load.c, so `show` prints the same tables as an instrumented program
 * and `--format json` and `merge` write through the same JSON writer. The
 * launch, memory, working-set and bandwidth sections are merged and diffed by
 * report_activity_merge.c and report_activity_diff.c, the trace analyses by
 * report_trace.c, on the parsed documents; `show` renders them with the
 * runtime's table writers, writes them back as they were read (--format json)
 * or as CSV blocks (report_csv.c), with its filters applied to their per-kernel
 * rows and scopes. Exit status: 0, 2 for a bad command line or an input that
 * cannot be read, 1 when the output cannot be written. Every error is one line:
 * "pasta-report: error: ...".
 *===----------------------------------------------------------------------===*/
#include "pasta_report.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char help_text[] =
    "\n"
    "show   re-renders a profile: the tables an instrumented program prints "
    "(table,\n"
    "       the default), one CSV table of kernels, device and host "
    "functions\n"
    "       (csv; with --lines the line table instead) followed by one CSV "
    "block\n"
    "       per section (launches, memory, working_set, bandwidth, "
    "trace.*), or\n"
    "       the profile itself with all its sections (json).\n"
    "       --kernel REGEX  functions whose name or mangled name matches "
    "(POSIX ERE),\n"
    "                       the lines of those functions, their launch, "
    "working-set\n"
    "                       and bandwidth rows, and the trace scopes of "
    "matching\n"
    "                       functions\n"
    "       --file SUBSTR   the same for functions, lines and scopes whose "
    "file\n"
    "                       contains SUBSTR\n"
    "       --top N         lines shown (table: default 20; csv, json: all)\n"
    "merge  sums several profiles (one per process, rank or GPU) into "
    "OUT.json:\n"
    "       functions by (kind, mangled name, module), lines by (file, "
    "line,\n"
    "       function, kind); launches, GPU times, memory and working sets "
    "too\n"
    "       (bandwidth is recomputed from the sums; docs/profile-format.md "
    "has\n"
    "       the rules); trace analyses stay one per process (\"traces\"); "
    "the\n"
    "       inputs are listed under \"merged_from\" with their rank, host "
    "and GPUs.\n"
    "       Each function and line gets its spread over the ranks "
    "(\"ranks\": min,\n"
    "       mean, max, imbalance = max / mean, the rank holding the max), "
    "which\n"
    "       show prints as a table and as CSV columns.\n"
    "       An INPUT is a profile, a directory (its *.json files, in natural "
    "order)\n"
    "       or a quoted pattern ('ranks/*.json'), so any number of inputs "
    "fit; they\n"
    "       are read one at a time, in memory that does not grow with their "
    "number.\n"
    "       OUT.json must not exist unless --force is given\n"
    "       (and is never an input).\n"
    "diff   compares two profiles function by function: kernels "
    "(launches, global\n"
    "       bytes, FLOPs, special), device functions (calls, global bytes, "
    "...) and\n"
    "       host functions (calls, bytes, ...), matched by mangled name; "
    "lists the N\n"
    "       lines (--top, default 10) whose bytes + FLOPs\n"
    "       changed most, then compares launches, GPU time, bandwidth and\n"
    "       working sets per kernel, the memory totals, and the trace "
    "analyses'\n"
    "       peak footprint and per-scope stride-k and indirect accesses.\n"
    "html   writes one self-contained HTML page (no network, nothing beside "
    "it):\n"
    "       the sortable kernel table, every source file with its per-line "
    "counts\n"
    "       and a heat bar, the roofline and hotness pictures, call paths "
    "and\n"
    "       working-set statistics. -o OUT.html (default: the profile's path "
    "with\n"
    "       .html for .json); --source-root DIR (repeatable) looks for the "
    "source\n"
    "       files under DIR first, for a profile made on another machine.\n"
    "       With --diff, a page comparing two profiles (-o required).\n"
    "\n"
    "Call paths: frames the program could not resolve where it ran (no\n"
    "libdwarf there) are resolved here from their recorded module, build id\n"
    "and address, reading the module's symbols and DWARF: from its recorded\n"
    "path, else from a file of the same name and build id, else of the same\n"
    "build id, under a --search-dir DIR (three levels deep).\n";

static int run_command(int argc, char **argv) {
  const char *cmd = argv[1];
  if (!strcmp(cmd, "show"))
    return pasta__cmd_show(argc, argv);
  if (!strcmp(cmd, "merge"))
    return pasta__cmd_merge(argc, argv);
  if (!strcmp(cmd, "diff"))
    return pasta__cmd_diff(argc, argv);
  if (!strcmp(cmd, "html"))
    return pasta__cmd_html(argc, argv);
  return pasta__usage_error("unknown command '%s'", cmd);
}

int pasta__report_main(int argc, char **argv) {
  if (argc < 2)
    return pasta__usage_error("missing command");
  for (int i = 1; i < argc; ++i)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      pasta__report_usage(stdout);
      fputs(help_text, stdout);
      return pasta__finish_output(stdout, "the output");
    }
  if (pasta__cli_begin(argc)) {
    pasta__report_error("%s", strerror(ENOMEM));
    return 1;
  }
  int rc = run_command(argc, argv);
  pasta__cli_end();
  return rc;
}
