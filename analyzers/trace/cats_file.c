/*===- cats_file.c - The C.A.T.S. trace file ------------------------------===*
 *
 * The writer emits one JSON object per event, in the model's order, with
 * the field names of the C.A.T.S. viewer (docs/trace-format.md).
 *===----------------------------------------------------------------------===*/
#include "cats_file.h"
#include "profile/json_write.h"
#include "profile/trace_analysis.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int valid_event(const struct pasta_cats_event *e) {
  if (e->type > PASTA_CATS_DEALLOCATION)
    return 0;
  return e->type != PASTA_CATS_SCOPE_ENTRY ||
         pasta__cats_scope_type(e->scope_kind) != NULL;
}

static void write_access(FILE *out, const struct pasta_cats_event *e) {
  fprintf(out, ",\"mode\":\"%s\"", e->mode == 'w' ? "w" : "r");
  pasta__json_write_key_u64(out, "buffer_id", e->buffer_id);
  pasta__json_write_key_string(out, "buffer_name", e->buffer_name);
  if (e->offset_expr)
    pasta__json_write_key_string(out, "offset", e->offset_expr);
  else
    pasta__json_write_key_u64(out, "offset", e->offset);
  pasta__json_write_key_u64(out, "bytes", e->bytes);
  pasta__json_write_key_string(out, "class",
                               pasta__cats_access_class(e->access_class));
  if (e->access_class == PASTA_ACCESS_STRIDE1 ||
      e->access_class == PASTA_ACCESS_STRIDEK)
    fprintf(out, ",\"stride\":%" PRId32, e->stride);
}

static void write_event(FILE *out, const struct pasta_cats_event *e) {
  static const char *const types[] = {"scope_entry", "scope_exit", "access",
                                      "allocation", "deallocation"};
  fprintf(out, "{\"type\":\"%s\"", types[e->type]);
  pasta__json_write_key_string(out, "filename", e->filename);
  pasta__json_write_key_string(out, "funcname", e->funcname);
  pasta__json_write_key_u64(out, "line", e->line);
  pasta__json_write_key_u64(out, "col", e->col);
  switch (e->type) {
  case PASTA_CATS_SCOPE_ENTRY:
    pasta__json_write_key_u64(out, "id", e->id);
    pasta__json_write_key_string(out, "scope_type",
                                 pasta__cats_scope_type(e->scope_kind));
    if (e->scope_kind == PASTA_SCOPE_LOOP && e->trips_known)
      pasta__json_write_key_u64(out, "iterations", e->iterations);
    break;
  case PASTA_CATS_SCOPE_EXIT:
    pasta__json_write_key_u64(out, "id", e->id);
    break;
  case PASTA_CATS_ACCESS:
    write_access(out, e);
    break;
  case PASTA_CATS_ALLOCATION:
    pasta__json_write_key_u64(out, "buffer_id", e->buffer_id);
    pasta__json_write_key_string(out, "buffer_name", e->buffer_name);
    pasta__json_write_key_u64(out, "size", e->size);
    break;
  default:
    pasta__json_write_key_u64(out, "buffer_id", e->buffer_id);
    pasta__json_write_key_string(out, "buffer_name", e->buffer_name);
  }
  pasta__json_write_key_u64(out, "time_ns", e->time_ns);
  pasta__json_write_key_u64(out, "count", e->count);
  if (e->on_device)
    fputs(",\"device\":true", out);
  fputc('}', out);
}

static void write_clock(FILE *out, const struct pasta_trace *t) {
  fputs(",\n\"clock\":{\"offset_ns\":", out);
  pasta__json_write_finite(out, "%.3f", t->clock_offset_ns);
  fputs(",\"drift\":", out);
  pasta__json_write_finite(out, "%.15g", t->clock_drift);
  fputs(",\"pairs\":[", out);
  for (size_t i = 0; i < t->num_clock_pairs; ++i) {
    const struct pasta_clock_pair *c = &t->clock_pairs[i];
    fprintf(out,
            "%s{\"launch\":%" PRIu64 ",\"host_before_ns\":%" PRIu64
            ",\"host_after_ns\":%" PRIu64 ",\"device_first_ns\":%" PRIu64
            ",\"device_last_ns\":%" PRIu64 "}",
            i ? "," : "", c->launch, c->host_before_ns, c->host_after_ns,
            c->device_first_ns, c->device_last_ns);
  }
  fputs("]}", out);
}

int pasta__cats_write(FILE *out, const struct pasta_trace *t) {
  for (size_t i = 0; i < t->num_events; ++i)
    if (!valid_event(&t->events[i])) {
      errno = EINVAL;
      return -1;
    }
  fprintf(out, "{\"format\":\"%s\",\"version\":%d", PASTA_CATS_FORMAT,
          PASTA_TRACE_FORMAT_VERSION);
  pasta__json_write_key_string(out, "program", t->program);
  pasta__json_write_key_u64(out, "start_ns", t->start_ns);
  pasta__json_write_key_u64(out, "events_seen", t->events_seen);
  pasta__json_write_key_u64(out, "traced_launches", t->traced_launches);
  fprintf(out,
          ",\"dropped\":{\"events\":%" PRIu64 ",\"device_records\":%" PRIu64
          "}",
          t->events_dropped, t->device_records_dropped);
  write_clock(out, t);
  fputs(",\n\"events\":[", out);
  for (size_t i = 0; i < t->num_events; ++i) {
    fputs(i ? ",\n" : "\n", out);
    write_event(out, &t->events[i]);
  }
  fputs("\n]}\n", out);
  return ferror(out) ? -1 : 0;
}
