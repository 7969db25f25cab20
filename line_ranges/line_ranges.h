/*===- line_ranges.h - Restrict instrumentation to selected lines ---------===*
 *
 * Three independent pieces, plain C11, no global state:
 *   - pasta_interval_set: a sorted set of inclusive uint32 intervals;
 *   - pasta_range_spec:   the parsed PASTA_LINES / -pasta-lines option;
 *   - pasta_propagate_lines: gives every instruction of a function a line
 *     range [start, end], also those without a debug location.
 *
 * Every function that can fail returns 0 (or an index) on success and a
 * negative value on error; nothing is printed and nothing aborts.
 */
#ifndef PASTA_LINE_RANGES_H
#define PASTA_LINE_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Interval sets ---------------------------------------------------- */

/* An inclusive interval [lo, hi]. */
typedef struct pasta_interval {
  uint32_t lo, hi;
} pasta_interval;

/* Sorted, disjoint intervals; overlapping or adjacent ones are merged, so
 * v[i].hi + 1 < v[i + 1].lo. A zero-initialised struct is the empty set. */
typedef struct pasta_interval_set {
  pasta_interval *v;
  size_t n, cap;
} pasta_interval_set;

/* Adds [lo, hi], merging it with overlapping and adjacent intervals.
 * Returns 0, or -1 if s is NULL, lo > hi or memory runs out (the set is
 * then unchanged). */
int pasta_interval_set_add(pasta_interval_set *s, uint32_t lo, uint32_t hi);

/* True if some interval of s shares a line with [lo, hi] (binary search).
 * False for a NULL or empty set and for lo > hi. */
bool pasta_interval_set_overlaps(const pasta_interval_set *s, uint32_t lo,
                                 uint32_t hi);

/* True if line lies in some interval of s. */
bool pasta_interval_set_contains(const pasta_interval_set *s, uint32_t line);

/* Frees the intervals and leaves s empty (reusable). NULL is allowed. */
void pasta_interval_set_free(pasta_interval_set *s);

/* ---- Range specifications (PASTA_LINES) ------------------------------- */

/* One entry of a spec: a file (NULL = any file) and its selected lines. */
typedef struct pasta_range_entry {
  char *file;               /* NULL: any file */
  pasta_interval_set lines; /* never empty after a successful parse */
  unsigned matched;         /* incremented by pasta_range_spec_select */
} pasta_range_entry;

/* A parsed spec; entries keep the order in which they were written. */
typedef struct pasta_range_spec {
  pasta_range_entry *entries;
  size_t n;
} pasta_range_spec;

/* Parses `text`:
 *   SPEC   := ENTRY { ';' ENTRY }       empty entries and whitespace around
 *                                       entries, items and numbers ignored
 *   ENTRY  := FILE ':' RANGES | RANGES  (RANGES alone: any file; the LAST
 *                                       ':' separates FILE from RANGES)
 *   RANGES := RANGE { ',' RANGE }
 *   RANGE  := N | N '-' M               decimal, 1 <= N <= M <= UINT32_MAX
 * e.g. "axpy.cu:41-60;bicg.cu:113-115,120", "42-80", "src/k.cu:7".
 * `out` is overwritten (not freed first). Returns 0, or -1 with `out` left
 * empty, nothing leaked, and a one-line message in err (truncated to
 * errlen bytes including the NUL; err may be NULL when errlen is 0). */
int pasta_range_spec_parse(const char *text, pasta_range_spec *out, char *err,
                           size_t errlen);

/* Index of the first entry whose file matches `path` (see below) and whose
 * lines overlap [lo, hi]; increments that entry's `matched`. Returns -1 if
 * none does (always for lo > hi, i.e. a still-unknown line range). */
int pasta_range_spec_select(pasta_range_spec *spec, const char *path,
                            uint32_t lo, uint32_t hi);

/* Whether a spec file name designates `path`:
 *   - NULL spec_file matches everything (also a NULL path);
 *   - without '/', it must equal the base name of path ("k.cu" matches
 *     "/x/k.cu", not "/x/ak.cu");
 *   - with '/', path must equal it or end with "/" + spec_file ("src/k.cu"
 *     matches "/u/src/k.cu", not "/u/xsrc/k.cu").
 * No normalisation is done ("./", "..", repeated '/'). */
bool pasta_range_spec_file_matches(const char *spec_file, const char *path);

/* Frees all entries and leaves spec empty. NULL is allowed. */
void pasta_range_spec_free(pasta_range_spec *spec);

/* ---- Line propagation over a CFG --------------------------------------- */

/* A function's CFG in compressed form. Instructions are numbered 0..N-1
 * block by block, N = block_first[num_blocks]. */
typedef struct pasta_cfg {
  size_t num_blocks;
  const uint32_t *block_first; /* num_blocks + 1 offsets into `lines`, starting
                                  at 0: block b has instructions
                                  [block_first[b], block_first[b+1]) */
  const uint32_t *lines;       /* per instruction: its source line, 0 = no
                                  debug location */
  const uint32_t *succ_first;  /* num_blocks + 1 offsets into `succs` */
  const uint32_t *succs;       /* successor block indices */
} pasta_cfg;

#define PASTA_LINE_UNKNOWN_START UINT32_MAX
#define PASTA_LINE_UNKNOWN_END 0u

/* Fills start[i], end[i] for every instruction i (arrays of N elements).
 * An instruction with a line L gets [L, L]. For one without, start is the
 * minimum start of its predecessors (previous instruction of its block, or
 * the last instruction of every predecessor block) and end the maximum end
 * of its successors (next instruction, or the first instruction of every
 * successor block), computed to a fixed point with a worklist. Blocks
 * without instructions are transparent: their predecessors' last
 * instructions reach their successors' first instructions through them.
 * What stays unknown keeps PASTA_LINE_UNKNOWN_START / PASTA_LINE_UNKNOWN_END
 * (e.g. start of code unreachable from any lined instruction).
 * Returns 0, or -1 for a malformed cfg (NULL arrays, block_first[0] != 0,
 * offsets not monotone, successor >= num_blocks) or out of memory; start
 * and end are then left untouched. With 0 blocks nothing is written. */
int pasta_propagate_lines(const pasta_cfg *cfg, uint32_t *start, uint32_t *end);

#define PASTA_LINE_NO_SOURCE UINT32_MAX

/* As pasta_propagate_lines, and also where each value came from:
 * start_from[i] (end_from[i]) is the index of an instruction that has a
 * line equal to start[i] (end[i]): i itself when it has a line, else the
 * neighbour the value was propagated from (the first one in predecessor
 * (successor) order when several have it); PASTA_LINE_NO_SOURCE while the
 * value is unknown. A line taken from another instruction belongs to that
 * instruction's file, which need not be the function's (code inlined from
 * a header). Either array may be NULL. Also -1 for N + num_blocks >=
 * PASTA_LINE_NO_SOURCE. */
int pasta_propagate_lines_from(const pasta_cfg *cfg, uint32_t *start,
                               uint32_t *end, uint32_t *start_from,
                               uint32_t *end_from);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_LINE_RANGES_H */
