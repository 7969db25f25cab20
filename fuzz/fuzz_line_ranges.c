/*===- fuzz_line_ranges.c - libFuzzer target: PASTA_LINES spec parser -----===*
 *
 * The input is a range spec (PASTA_LINES / -pasta-lines). The parser must
 * accept it or return -1 with a one-line message, never crash. What it
 * accepts must hold its invariants: every entry has a non-empty, sorted,
 * disjoint, non-adjacent interval set, and every line of it is selected by
 * pasta_range_spec_select for a file the entry names.
 *===----------------------------------------------------------------------===*/
#include "line_ranges/line_ranges.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "fuzz_line_ranges: %s\n", what);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  pasta_range_spec spec;
  char err[256];
  err[0] = '\0';
  int rc = pasta_range_spec_parse(text, &spec, err, sizeof err);
  if (rc != 0) {
    require(rc == -1, "parse returned neither 0 nor -1");
    require(spec.n == 0 && spec.entries == NULL, "failed parse left entries");
    require(err[0] != '\0' && strchr(err, '\n') == NULL,
            "error message empty or not one line");
    /* A short buffer truncates the message, NUL-terminated. */
    char small[8];
    pasta_range_spec s2;
    require(pasta_range_spec_parse(text, &s2, small, sizeof small) == -1 &&
                strlen(small) < sizeof small,
            "message not truncated to the buffer");
    free(text);
    return 0;
  }
  for (size_t i = 0; i < spec.n; ++i) {
    const pasta_range_entry *e = &spec.entries[i];
    const pasta_interval_set *s = &e->lines;
    require(s->n > 0, "entry with no lines");
    for (size_t j = 0; j < s->n; ++j) {
      require(s->v[j].lo >= 1 && s->v[j].lo <= s->v[j].hi,
              "interval out of order or line 0");
      if (j)
        require((uint64_t)s->v[j - 1].hi + 1 < s->v[j].lo,
                "intervals overlap or touch");
      require(pasta_interval_set_contains(s, s->v[j].lo) &&
                  pasta_interval_set_contains(s, s->v[j].hi) &&
                  pasta_interval_set_overlaps(s, s->v[j].lo, s->v[j].hi),
              "contains/overlaps disagree with the intervals");
    }
    /* The entry's own file name (or any file) selects its lines. */
    const char *path = e->file ? e->file : "any.cu";
    require(pasta_range_spec_file_matches(e->file, path),
            "an entry's file does not match itself");
    require(pasta_range_spec_select(&spec, path, s->v[0].lo, s->v[0].lo) >= 0,
            "a selected line is not selected");
  }
  pasta_range_spec_free(&spec);
  require(spec.n == 0, "free left entries");
  free(text);
  return 0;
}
