/*===- fuzz_trace.c - libFuzzer target: the trace and activity readers ----===*
 *
 * The input is JSON: a profile (its "trace", its merged "traces" entries
 * and its "launches"/"memory"/"working_set"/"bandwidth" sections) or a bare
 * trace-analysis object. Each is read back as pasta-report reads it
 * (trace_read.c, activity_read.c), printed with the runtime's table writers
 * and compared with itself (report_trace.c, report_activity_diff.c), and the
 * trace analysis is written out again as JSON (profile/trace_analysis.c), which
 * must parse and read back to the same totals (the round trip pasta-report
 * relies on).
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "analyzers/bandwidth/bandwidth_report.h"
#include "analyzers/kernels/kernel_tables.h"
#include "analyzers/trace/cats_file.h"
#include "analyzers/trace/trace_analyses.h"
#include "analyzers/working_set/ws_tables.h"
#include "profile/activity_read.h"
#include "profile/json_read.h"
#include "profile/trace_read.h"
#include "tools/pasta-report/report_activity.h"
#include "tools/pasta-report/report_trace.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  sink = fopen("/dev/null", "w");
  if (!sink)
    abort();
  return 0;
}

static void require(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "fuzz_trace: %s\n", what);
    abort();
  }
}

/* Reads one trace analysis, prints it, writes it as JSON and reads that
 * back: the totals must survive. */
static void one_trace(json_t *trace) {
  pasta_trace_read r;
  if (pasta__trace_analysis_read(trace, &r))
    return;
  pasta__trace_analysis_print(sink, &r.analysis, 20);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  require(mem != NULL, "open_memstream");
  pasta__trace_analysis_json(mem, &r.analysis);
  require(fclose(mem) == 0, "writing the analysis");
  /* Read as pasta-report reads a file: integers above INT64_MAX (a scope
   * id read from a huge real saturates to UINT64_MAX) are quoted first. */
  char err[256];
  json_t *again = pasta__json_load_text(text, len, err, sizeof err);
  if (!again)
    fprintf(stderr, "fuzz_trace: %s (%s)\n", err, text);
  require(again != NULL, "the analysis written as JSON does not parse");
  pasta_trace_read r2;
  if (pasta__trace_analysis_read(again, &r2) == 0) {
    const struct pasta_trace_analysis *a = &r.analysis, *b = &r2.analysis;
    require(a->peak_bytes == b->peak_bytes &&
                a->final_bytes == b->final_bytes &&
                a->num_scopes == b->num_scopes &&
                a->num_lives == b->num_lives && a->num_reuse == b->num_reuse &&
                a->num_loop_allocs == b->num_loop_allocs,
            "the analysis does not read back the same");
    pasta__trace_read_free(&r2);
  }
  json_decref(again);
  free(text);
  pasta__trace_read_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_t *root = json_loadb((const char *)data, size, 0, NULL);
  if (!root)
    return 0;
  json_t *trace = json_object_get(root, "trace");
  one_trace(json_is_object(trace) ? trace : root);
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(root, "traces"), i, e) {
    if (json_is_object(e))
      one_trace(e);
  }
  pasta__report_show_traces(sink, root, json_object_get(root, "merged_from"),
                            5);
  pasta__report_diff_traces(sink, root, root);

  pasta_activity_read ar;
  if (pasta__activity_read_json(root, &ar) == 0) {
    if (ar.present) {
      pasta__activity_write_tables(sink, &ar.activity, 5);
      if (ar.activity.ws_enabled)
        pasta__activity_write_ws_tables(sink, &ar.activity, 5);
      if (ar.num_rows)
        pasta__bw_write_table(sink, ar.rows, ar.num_rows, &ar.activity);
    }
    pasta__activity_read_free(&ar);
  }
  pasta__report_diff_activity(sink, root, root);
  json_decref(root);
  return 0;
}
