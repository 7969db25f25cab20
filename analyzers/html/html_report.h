/*===- html_report.h - The profile as one self-contained HTML page --------===*
 *
 * The source view of issue [source-view]: a page that opens in any browser
 * with nothing beside it (no network, no other file): the kernel table
 * (sortable), each source file with its per-line counts and a heat bar, the
 * roofline and hotness pictures inline (the analyzers' own SVG writers),
 * the call paths and the working-set statistics; and a page comparing two
 * profiles. Its CSS and JavaScript are html/report.css and html/report.js,
 * embedded at build time (cmake/embed_text.cmake).
 *
 * Written from the model (profile.h, activity.h, bandwidth.h), so both the
 * runtime (PASTA_HTML=1 at exit) and pasta-report (which reads a JSON
 * profile into that model) write it. Plain C11 on libc: it goes into
 * libpasta_rt. Every text taken from the profile or from a source file is
 * escaped.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_HTML_REPORT_H
#define PASTA_ANALYZERS_HTML_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "pasta/profile.h"
#include "profile/activity.h"
#include "profile/bandwidth.h"

/* One profile and what comes with it; everything is borrowed. */
typedef struct pasta_html_input {
  const pasta_profile *profile;   /* finalized */
  const char *title;              /* the profile's path, or the program */
  const pasta_activity *activity; /* launches, memory, working set, or NULL */
  const pasta_bw_row *bw_rows;    /* bandwidth rows (bound-by), or NULL */
  size_t num_bw_rows;
  /* Directories to look for source files in before their recorded path
   * (--source-root): a recorded /a/b/c.cu is looked for as DIR/a/b/c.cu,
   * DIR/b/c.cu, then DIR/c.cu. NULL-terminated, or NULL. */
  const char *const *source_roots;
  /* Where source files may be read from: real paths (no link, no ".."),
   * NULL-terminated. A file whose real path lies under none of them is
   * not read: the page says so and `refused` (if set) is called with its
   * recorded name. NULL: anywhere (the runtime's page of its own
   * profile). pasta-report passes its source roots, the current directory
   * and the profile's directory: a profile is data, and must not choose
   * which files of the reader's end up in a page. */
  const char *const *allowed_roots;
  /* With allowed_roots: where files named like source code (.c, .cu, .h,
   * ...: pasta__html_named_like_source) may be read from too; anything else
   * there is refused like a file outside every root. pasta-report passes
   * the current directory and the profile's directory: a profile naming
   * .ssh/id_rsa or notes.txt under the directory html runs in must not
   * have them in the page. NULL-terminated, or NULL. */
  const char *const *source_file_roots;
  void (*refused)(void *arg, const char *file);
  void *refused_arg;
} pasta_html_input;

/* Whether `path`'s base name ends like a source file of a language PASTA
 * instruments or a header it includes (.c .cc .cpp .cxx .c++ .C .cu .cuh
 * .hip .cl .h .hh .hpp .hxx .h++ .H .inl .inc .ipp .tpp .tcc .cppm .ixx
 * .m .mm .f .f90 .F .F90 .s .S .def). */
int pasta__html_named_like_source(const char *path);

/* The whole report page. Returns 0, or -1 on a write error or when out of
 * memory. */
int pasta__html_write_report(FILE *out, const pasta_html_input *in);

/* A page comparing `before` with `after`: kernels matched by mangled name
 * (launches, GPU time, bytes, FLOPs, both and the change) and the source
 * lines whose bytes + FLOPs changed most, with their text. Returns 0 or
 * -1. */
int pasta__html_write_diff(FILE *out, const pasta_html_input *before,
                           const pasta_html_input *after);

#endif
