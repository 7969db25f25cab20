/*===- report_load.c - Reading a profile in pasta-report ------------------===*
 *
 * A profile is parsed by profile/'s reader (json_read.h), then, before
 * anything reads it, the call-path frames the program could not resolve
 * are resolved here (symbolize/, with the --search-dir
 * directories) and every name is demangled (profile_read.h), so that all
 * sections agree; then its core is read into the model (profile_read.h).
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report.h"

#include "profile/env.h"
#include "profile/json_read.h"
#include "profile/profile_read.h"
#include "symbolize/symbolize.h"

#include <stdlib.h>
#include <string.h>

/* The symbolizer for call paths, opened on first use (see symbolize.h). */
static pasta_symbolizer *frames_symbolizer;
static int frames_symbolizer_failed;

static void close_frames_symbolizer(void) {
  pasta__symbolizer_close(frames_symbolizer);
  frames_symbolizer = NULL;
}

static pasta_symbolizer *symbolizer(void) {
  if (!frames_symbolizer && !frames_symbolizer_failed) {
    frames_symbolizer =
        pasta__symbolizer_open(pasta__env_trusted("PASTA_LIBDWARF"));
    if (!frames_symbolizer || pasta__symbolizer_set_search_dirs(
                                  frames_symbolizer, pasta__search_dirs())) {
      close_frames_symbolizer();
      frames_symbolizer_failed = 1;
    } else {
      atexit(close_frames_symbolizer);
    }
  }
  return frames_symbolizer;
}

/* Resolves, in place, the call-path frames (any "frames" array) that the
 * program left without file or function but with the module, build id and
 * address to find them by (profile version 2). Frames the runtime resolved
 * stay as they are. */
static void symbolize_frames(json_t *v) {
  if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); ++i)
      symbolize_frames(json_array_get(v, i));
    return;
  }
  const char *key;
  json_t *member;
  json_object_foreach(v, key, member) {
    if (strcmp(key, "frames") != 0 || !json_is_array(member)) {
      if (json_is_object(member) || json_is_array(member))
        symbolize_frames(member);
      continue;
    }
    for (size_t i = 0; i < json_array_size(member); ++i) {
      json_t *f = json_array_get(member, i);
      json_t *vaddr = json_object_get(f, "vaddr");
      if (!json_is_integer(vaddr) || json_integer_value(vaddr) <= 0 ||
          !pasta__json_str(f, "object") ||
          (pasta__json_str(f, "file") && pasta__json_str(f, "function")) ||
          !symbolizer())
        continue;
      pasta_frame_loc loc = {pasta__json_str(f, "object"),
                             pasta__json_str(f, "build_id"), 0,
                             (uint64_t)json_integer_value(vaddr)};
      json_t *offset = json_object_get(f, "offset");
      if (json_is_integer(offset))
        loc.offset = (uint64_t)json_integer_value(offset);
      pasta_symbol s;
      if (pasta__symbolize_loc(frames_symbolizer, &loc, &s) != 0)
        continue;
      if (s.function && !pasta__json_str(f, "function"))
        json_object_set_new(f, "function", json_string(s.function));
      if (s.file && s.line) {
        json_object_set_new(f, "file", json_string(s.file));
        json_object_set_new(f, "line", json_integer(s.line));
      }
    }
  }
}

int pasta__load_profile(const char *path, const pasta_profile_keep *keep,
                        pasta_profile *p, json_t **parsed) {
  pasta_profile_init(p);
  char err[512];
  json_t *root = pasta__json_load_file(path, err, sizeof err);
  if (!root) {
    pasta__report_error("%s: %s", path, err);
    return 2;
  }
  symbolize_frames(root);
  pasta__profile_json_demangle(root);
  if (pasta__profile_read_json(root, keep, p, err, sizeof err)) {
    json_decref(root);
    pasta__report_error("%s: %s", path, err);
    return 2;
  }
  if (parsed)
    *parsed = root;
  else
    json_decref(root);
  return 0;
}
