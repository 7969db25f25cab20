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

static void json_loop_allocs(FILE *out, const struct pasta_trace_analysis *a) {
  fputs(",\"loop_allocations\":[", out);
  for (size_t i = 0; i < a->num_loop_allocs; ++i) {
    const struct pasta_trace_loop_allocs *g = &a->loop_allocs[i];
    fputs(i ? ",{\"file\":" : "{\"file\":", out);
    pasta__trace_write_string(out, g->alloc_file);
    pasta__json_write_key_u64(out, "line", g->alloc_line);
    pasta__json_write_key_u64(out, "loop_id", g->loop_id);
    pasta__json_write_key_string(out, "loop_file", g->loop_file);
    pasta__json_write_key_u64(out, "loop_line", g->loop_line);
    pasta__json_write_key_u64(out, "loop_depth", g->loop_depth);
    pasta__json_write_key_u64(out, "allocations", g->allocations);
    pasta__json_write_key_u64(out, "bytes", g->bytes);
    fputc('}', out);
  }
  fputc(']', out);
}

static void json_reuse(FILE *out, const struct pasta_trace_analysis *a) {
  fprintf(out, ",\"reuse\":{\"saving_bytes\":%" PRIu64 ",\"groups\":[",
          a->reuse_saving_bytes);
  for (size_t i = 0; i < a->num_reuse; ++i) {
    const struct pasta_trace_reuse_group *g = &a->reuse[i];
    fprintf(out, "%s{\"size\":%" PRIu64, i ? "," : "", g->size);
    pasta__json_write_key_string(out, "kind", g->kind);
    pasta__json_write_key_u64(out, "buffers", g->buffers);
    pasta__json_write_key_u64(out, "max_live", g->max_live);
    pasta__json_write_key_u64(out, "saving_bytes", g->saving_bytes);
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
  pasta__json_write_key_string(out, "funcname", s->funcname);
  pasta__json_write_key_string(out, "filename", s->filename);
  pasta__json_write_key_u64(out, "line", s->line);
  pasta__json_write_key_u64(out, "col", s->col);
  pasta__json_write_key_u64(out, "executions", s->executions);
  pasta__json_write_key_u64(out, "max_loop_nest", s->max_loop_nest);
  pasta__json_write_key_u64(out, "loops", s->loops);
  fputs(",\"accesses\":{", out);
  json_classes(out, "static", s->static_accesses);
  fputc(',', out);
  json_classes(out, "dynamic", s->dynamic_accesses);
  fputc('}', out);
  pasta__json_write_key_u64(out, "footprint_bytes", s->footprint_bytes);
  pasta__json_write_key_u64(out, "footprint_buffers", s->footprint_buffers);
  fputc('}', out);
}

void pasta__trace_analysis_json(FILE *out,
                                const struct pasta_trace_analysis *a) {
  fprintf(out,
          "{\"end_ns\":%" PRIu64 ",\"footprint\":{\"peak_bytes\":%" PRIu64
          ",\"peak_time_ns\":%" PRIu64 ",\"peak_buffers\":%zu"
          ",\"final_bytes\":%" PRIu64 ",\"final_buffers\":%zu}",
          a->end_ns, a->peak_bytes, a->peak_time_ns, a->peak_buffers,
          a->final_bytes, a->final_buffers);
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
