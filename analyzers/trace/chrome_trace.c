/*===- chrome_trace.c - Trace mode's spans as a Chrome trace --------------===*
 *
 * Processes (pids, from 1): the host, then one per GPU that has stream
 * spans (by ordinal), then one per traced launch that has warp spans (by
 * launch id). Threads keep the model's ids (host thread index, stream
 * index, warp id). Spans become complete ("X") events sorted by track and
 * start, longer first at equal starts so that nested scopes stay nested.
 * A flow ("s" then "f", bound to the enclosing slices) joins the first API
 * call of each correlation to the first kernel span with it.
 *===----------------------------------------------------------------------===*/
#include "chrome_trace.h"
#include "profile/json_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { HOST_PID = 1 };

/* One span placed on its track. */
struct ref {
  uint64_t pid, tid, ts, dur;
  size_t span;
};

/* One span with a correlation, for the flows. */
struct corr {
  uint64_t corr, ts;
  size_t span;
};

struct layout {
  const struct pasta_trace *t;
  uint64_t *gpus, *launches; /* sorted, unique */
  size_t num_gpus, num_launches;
  struct ref *refs;
  size_t num_refs;
  struct corr *api, *kernels; /* sorted by correlation, then time */
  size_t num_api, num_kernels;
};

static int cmp_u64(const void *pa, const void *pb) {
  uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
  return (a > b) - (a < b);
}

static int cmp_ref(const void *pa, const void *pb) {
  const struct ref *a = pa, *b = pb;
  if (a->pid != b->pid)
    return a->pid < b->pid ? -1 : 1;
  if (a->tid != b->tid)
    return a->tid < b->tid ? -1 : 1;
  if (a->ts != b->ts)
    return a->ts < b->ts ? -1 : 1;
  if (a->dur != b->dur)
    return a->dur > b->dur ? -1 : 1; /* the enclosing span first */
  return (a->span > b->span) - (a->span < b->span);
}

static int cmp_corr(const void *pa, const void *pb) {
  const struct corr *a = pa, *b = pb;
  if (a->corr != b->corr)
    return a->corr < b->corr ? -1 : 1;
  if (a->ts != b->ts)
    return a->ts < b->ts ? -1 : 1;
  return (a->span > b->span) - (a->span < b->span);
}

/* Sorts `v` and drops repeats; returns how many are left. */
static size_t sort_unique(uint64_t *v, size_t n) {
  size_t k = 0;
  qsort(v, n, sizeof *v, cmp_u64);
  for (size_t i = 0; i < n; ++i)
    if (!k || v[k - 1] != v[i])
      v[k++] = v[i];
  return k;
}

static size_t index_of(const uint64_t *v, size_t n, uint64_t key) {
  const uint64_t *p = bsearch(&key, v, n, sizeof *v, cmp_u64);
  return p ? (size_t)(p - v) : 0;
}

static uint64_t pid_of(const struct layout *l,
                       const struct pasta_trace_span *s) {
  if (s->track == PASTA_TRACK_STREAM)
    return HOST_PID + 1 + index_of(l->gpus, l->num_gpus, s->device);
  if (s->track == PASTA_TRACK_WARP)
    return HOST_PID + 1 + l->num_gpus +
           index_of(l->launches, l->num_launches, s->launch);
  return HOST_PID;
}

static void layout_free(struct layout *l) {
  free(l->gpus);
  free(l->launches);
  free(l->refs);
  free(l->api);
  free(l->kernels);
}

static void collect(struct layout *l) {
  const struct pasta_trace *t = l->t;
  for (size_t i = 0; i < t->num_spans; ++i) {
    const struct pasta_trace_span *s = &t->spans[i];
    if (s->track == PASTA_TRACK_STREAM)
      l->gpus[l->num_gpus++] = s->device;
    else if (s->track == PASTA_TRACK_WARP)
      l->launches[l->num_launches++] = s->launch;
    if (s->correlation && s->track == PASTA_TRACK_HOST_THREAD)
      l->api[l->num_api++] = (struct corr){s->correlation, s->ts_ns, i};
    else if (s->correlation && s->track == PASTA_TRACK_STREAM)
      l->kernels[l->num_kernels++] = (struct corr){s->correlation, s->ts_ns, i};
  }
  l->num_gpus = sort_unique(l->gpus, l->num_gpus);
  l->num_launches = sort_unique(l->launches, l->num_launches);
  qsort(l->api, l->num_api, sizeof *l->api, cmp_corr);
  qsort(l->kernels, l->num_kernels, sizeof *l->kernels, cmp_corr);
  for (size_t i = 0; i < t->num_spans; ++i) {
    const struct pasta_trace_span *s = &t->spans[i];
    if (s->track > PASTA_TRACK_WARP)
      continue; /* a track this writer does not know */
    l->refs[l->num_refs++] =
        (struct ref){pid_of(l, s), s->tid, s->ts_ns, s->dur_ns, i};
  }
  qsort(l->refs, l->num_refs, sizeof *l->refs, cmp_ref);
}

static int layout_init(struct layout *l, const struct pasta_trace *t) {
  size_t n = t->num_spans + 1;
  memset(l, 0, sizeof *l);
  l->t = t;
  l->gpus = malloc(n * sizeof *l->gpus);
  l->launches = malloc(n * sizeof *l->launches);
  l->refs = malloc(n * sizeof *l->refs);
  l->api = malloc(n * sizeof *l->api);
  l->kernels = malloc(n * sizeof *l->kernels);
  if (!l->gpus || !l->launches || !l->refs || !l->api || !l->kernels) {
    layout_free(l);
    return -1;
  }
  collect(l);
  return 0;
}

/* The first span with correlation `c` in `v` (n, sorted), or NULL. */
static const struct corr *first_with(const struct corr *v, size_t n,
                                     uint64_t c) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].corr < c)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && v[lo].corr == c ? &v[lo] : NULL;
}

/*===-- Writing -----------------------------------------------------------===*/

/* Nanoseconds as microseconds with three decimals, exactly. */
static void write_us(FILE *out, uint64_t ns) {
  fprintf(out, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* A metadata event; `name` is written as a JSON string. */
static void meta(FILE *out, const char *what, uint64_t pid, uint64_t tid,
                 const char *name) {
  fprintf(out,
          ",\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%" PRIu64
          ",\"tid\":%" PRIu64 ",\"args\":{\"name\":",
          what, pid, tid);
  pasta__trace_write_string(out, name);
  fputs("}}", out);
}

static void meta_index(FILE *out, const char *what, uint64_t pid, uint64_t tid,
                       uint64_t index) {
  fprintf(out,
          ",\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%" PRIu64
          ",\"tid\":%" PRIu64 ",\"args\":{\"sort_index\":%" PRIu64 "}}",
          what, pid, tid, index);
}

static void process(FILE *out, uint64_t pid, const char *name) {
  meta(out, "process_name", pid, 0, name);
  meta_index(out, "process_sort_index", pid, 0, pid - HOST_PID);
}

static const char *kernel_name(const struct layout *l, uint64_t launch) {
  const struct corr *k = first_with(l->kernels, l->num_kernels, launch + 1);
  return k ? l->t->spans[k->span].name : "kernel";
}

static int processes(FILE *out, const struct layout *l) {
  char name[64];
  /* The first event: every other one starts with a comma. */
  fprintf(out,
          "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
          "\"args\":{\"name\":\"Host\"}}",
          HOST_PID);
  meta_index(out, "process_sort_index", HOST_PID, 0, 0);
  for (size_t i = 0; i < l->num_gpus; ++i) {
    snprintf(name, sizeof name, "GPU %" PRIu64, l->gpus[i]);
    process(out, HOST_PID + 1 + i, name);
  }
  for (size_t i = 0; i < l->num_launches; ++i) {
    const char *kernel = kernel_name(l, l->launches[i]);
    size_t size = strlen(kernel ? kernel : "") + 64;
    char *label = malloc(size);
    if (!label)
      return -1;
    snprintf(label, size, "%s launch %" PRIu64 " (sampled warps)",
             kernel ? kernel : "", l->launches[i]);
    process(out, HOST_PID + 1 + l->num_gpus + i, label);
    free(label);
  }
  return 0;
}

static void thread(FILE *out, const struct ref *r, uint32_t track) {
  static const char *const prefix[] = {"thread", "stream", "warp"};
  char name[64];
  snprintf(name, sizeof name, "%s %" PRIu64, prefix[track], r->tid);
  meta(out, "thread_name", r->pid, r->tid, name);
  meta_index(out, "thread_sort_index", r->pid, r->tid, r->tid);
}

static void complete(FILE *out, const struct ref *r,
                     const struct pasta_trace_span *s) {
  fputs(",\n{\"name\":", out);
  pasta__trace_write_string(out, s->name);
  fputs(",\"cat\":", out);
  pasta__trace_write_string(out, s->category);
  fprintf(out, ",\"ph\":\"X\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"ts\":",
          r->pid, r->tid);
  write_us(out, r->ts);
  fputs(",\"dur\":", out);
  write_us(out, r->dur);
  if (s->detail && *s->detail) {
    fputs(",\"args\":{\"detail\":", out);
    pasta__trace_write_string(out, s->detail);
    fputc('}', out);
  }
  fputc('}', out);
}

static void spans(FILE *out, const struct layout *l) {
  for (size_t i = 0; i < l->num_refs; ++i) {
    const struct ref *r = &l->refs[i];
    const struct pasta_trace_span *s = &l->t->spans[r->span];
    if (!i || r->pid != r[-1].pid || r->tid != r[-1].tid)
      thread(out, r, s->track);
    complete(out, r, s);
  }
}

static void flow_end(FILE *out, const struct layout *l, const char *ph,
                     const struct corr *c) {
  const struct pasta_trace_span *s = &l->t->spans[c->span];
  fprintf(out,
          ",\n{\"name\":\"launch\",\"cat\":\"launch\",\"ph\":\"%s\","
          "\"bp\":\"e\",\"id\":%" PRIu64 ",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64
          ",\"ts\":",
          ph, c->corr, pid_of(l, s), s->tid);
  write_us(out, s->ts_ns);
  fputc('}', out);
}

static void flows(FILE *out, const struct layout *l) {
  for (size_t i = 0; i < l->num_kernels; ++i) {
    const struct corr *k = &l->kernels[i];
    if (i && k->corr == k[-1].corr)
      continue;
    const struct corr *api = first_with(l->api, l->num_api, k->corr);
    if (!api)
      continue;
    flow_end(out, l, "s", api);
    flow_end(out, l, "f", k);
  }
}

static void other_data(FILE *out, const struct pasta_trace *t) {
  fprintf(out, "\"otherData\":{\"format\":\"%s\",\"version\":%d,\"program\":",
          PASTA_CHROME_TRACE_FORMAT, PASTA_TRACE_FORMAT_VERSION);
  pasta__trace_write_string(out, t->program);
  fprintf(out, ",\"start_ns\":%" PRIu64 ",\"clock_offset_ns\":", t->start_ns);
  pasta__json_write_finite(out, "%.15g", t->clock_offset_ns);
  fputs(",\"clock_drift\":", out);
  pasta__json_write_finite(out, "%.15g", t->clock_drift);
  fprintf(out,
          ",\"traced_launches\":%" PRIu64 ",\"events_dropped\":%" PRIu64
          ",\"device_records_dropped\":%" PRIu64 "}}\n",
          t->traced_launches, t->events_dropped, t->device_records_dropped);
}

int pasta__chrome_trace_write(FILE *out, const struct pasta_trace *t) {
  struct layout l;
  if (layout_init(&l, t)) {
    errno = ENOMEM;
    return -1;
  }
  fputs("{\"traceEvents\":[\n", out);
  int rc = processes(out, &l);
  if (!rc) {
    spans(out, &l);
    flows(out, &l);
    fputs("\n],\n\"displayTimeUnit\":\"ns\",\n", out);
    other_data(out, t);
  }
  layout_free(&l);
  return rc || ferror(out) ? -1 : 0;
}
