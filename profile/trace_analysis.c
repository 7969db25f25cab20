/*===- trace_analysis.c - The "trace" section of the JSON profile ---------===*
 *
 * The C.A.T.S. analyses' results (computed by analyzers/trace/) as the
 * profile carries them, and the names the trace formats share. The reader
 * is trace_read.c.
 *===----------------------------------------------------------------------===*/
#include "trace_analysis.h"
#include "json_write.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *pasta__cats_scope_type(uint32_t kind) {
  static const char *const names[] = {"func", "loop", "conditional",
                                      "parallel"};
  return kind < sizeof names / sizeof names[0] ? names[kind] : NULL;
}

const char *pasta__cats_access_class(uint32_t klass) {
  static const char *const names[PASTA_TRACE_NUM_CLASSES] = {
      "unknown", "constant", "stride-1", "stride-k", "indirect"};
  return klass < PASTA_TRACE_NUM_CLASSES ? names[klass] : names[0];
}

static void json_lives(FILE *out, const struct pasta_trace_analysis *a) {
  fputs(",\"buffers\":[", out);
  for (size_t i = 0; i < a->num_lives; ++i) {
    const struct pasta_trace_buffer_life *l = &a->lives[i];
    fprintf(out, "%s{\"id\":%" PRIu64, i ? "," : "", l->buffer->id);
    pasta__json_write_key_string(out, "name", l->buffer->name);
    pasta__json_write_key_string(out, "kind", l->buffer->kind);
    pasta__json_write_key_u64(out, "size", l->buffer->size);
    fprintf(out, ",\"freed\":%s", l->freed ? "true" : "false");
    pasta__json_write_key_u64(out, "alloc_lifetime_ns", l->alloc_ns);
    if (l->used) {
      pasta__json_write_key_u64(out, "use_lifetime_ns", l->use_ns);
      fprintf(out, ",\"use_ratio\":%.4f",
              l->alloc_ns ? (double)l->use_ns / (double)l->alloc_ns : 1.0);
    } else {
      fputs(",\"use_lifetime_ns\":null,\"use_ratio\":null", out);
    }
    pasta__json_write_key_string(out, "file", l->buffer->alloc_file);
    pasta__json_write_key_u64(out, "line", l->buffer->alloc_line);
    fputc('}', out);
  }
  fputc(']', out);
}

/* A figure of a PASTA_TRACE_* list (trace_analysis.h): `SEP"key":value`. */
#define PUT_STR(out, v) pasta__trace_write_string(out, v)
#define PUT_U32(out, v) fprintf(out, "%" PRIu64, (uint64_t)(v))
#define PUT_U64 PUT_U32
#define PUT_SIZE PUT_U32
#define PUT_FIGURE(row, kind, member, key)                                     \
  fprintf(out, "%s\"%s\":", sep, key);                                         \
  PUT_##kind(out, (row)->member);                                              \
  sep = ",";

static void json_loop_allocs(FILE *out, const struct pasta_trace_analysis *a) {
  fputs(",\"loop_allocations\":[", out);
  for (size_t i = 0; i < a->num_loop_allocs; ++i) {
    const struct pasta_trace_loop_allocs *g = &a->loop_allocs[i];
    const char *sep = "";
    fputs(i ? ",{" : "{", out);
#define PASTA_X(kind, member, key) PUT_FIGURE(g, kind, member, key)
    PASTA_TRACE_LOOP_ALLOCS(PASTA_X)
#undef PASTA_X
    fputc('}', out);
  }
  fputc(']', out);
}

static void json_reuse(FILE *out, const struct pasta_trace_analysis *a) {
  fprintf(out, ",\"reuse\":{\"saving_bytes\":%" PRIu64 ",\"groups\":[",
          a->reuse_saving_bytes);
  for (size_t i = 0; i < a->num_reuse; ++i) {
    const struct pasta_trace_reuse_group *g = &a->reuse[i];
    const char *sep = "";
    fputs(i ? ",{" : "{", out);
#define PASTA_X(kind, member, key) PUT_FIGURE(g, kind, member, key)
    PASTA_TRACE_REUSE_GROUP(PASTA_X)
#undef PASTA_X
    fputc('}', out);
  }
  fputs("]}", out);
}

static void json_classes(FILE *out, const char *key, const uint64_t *v) {
  fprintf(out, "\"%s\":{", key);
  for (unsigned k = 0; k < PASTA_TRACE_NUM_CLASSES; ++k)
    fprintf(out, "%s\"%s\":%" PRIu64, k ? "," : "", pasta__cats_access_class(k),
            v[k]);
  fputc('}', out);
}

static void json_scope(FILE *out, const struct pasta_trace_scope_summary *s) {
  const char *type = pasta__cats_scope_type(s->kind);
  fprintf(out, "{\"id\":%" PRIu64, s->id);
  pasta__json_write_key_string(out, "scope_type", type ? type : "?");
  const char *sep = ",";
#define PASTA_X(kind, member, key) PUT_FIGURE(s, kind, member, key)
  PASTA_TRACE_SCOPE(PASTA_X)
  fputs(",\"accesses\":{", out);
  json_classes(out, "static", s->static_accesses);
  fputc(',', out);
  json_classes(out, "dynamic", s->dynamic_accesses);
  fputc('}', out);
  PASTA_TRACE_SCOPE_FOOTPRINT(PASTA_X)
#undef PASTA_X
  fputc('}', out);
}

void pasta__trace_analysis_json(FILE *out,
                                const struct pasta_trace_analysis *a) {
  fprintf(out, "{\"end_ns\":%" PRIu64 ",\"footprint\":{", a->end_ns);
  const char *sep = "";
#define PASTA_X(kind, member, key) PUT_FIGURE(a, kind, member, key)
  PASTA_TRACE_FOOTPRINT(PASTA_X)
#undef PASTA_X
  fputc('}', out);
  json_lives(out, a);
  json_loop_allocs(out, a);
  json_reuse(out, a);
  fputs(",\"scopes\":[", out);
  for (size_t i = 0; i < a->num_scopes; ++i) {
    fputs(i ? ",\n" : "\n", out);
    json_scope(out, &a->scopes[i]);
  }
  fputs("]}", out);
}

void pasta__trace_analysis_free(struct pasta_trace_analysis *a) {
  free(a->lives);
  free(a->loop_allocs);
  free(a->reuse);
  free(a->scopes);
  memset(a, 0, sizeof *a);
}
