/*===- test_bandwidth.c - The bandwidth analyzer on a hand-made program ---===*
 *
 * Two kernels with hand-chosen counts, times and device peaks; every
 * expected number below is derived in the comments from those inputs.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "bandwidth_report.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

/* a is b within a relative 1e-9 (b is a constant: evaluated twice). */
#define CHECK_NEAR(a, b) CHECK_EQ_DBL(a, b, 1e-9 * fabs((double)(b)) + 1e-12)

static const pasta_bw_row *row(const pasta_bw_row *rows, size_t n,
                               const char *name) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(rows[i].kernel, name) == 0)
      return &rows[i];
  return NULL;
}

static size_t count(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
    ++n;
  return n;
}

static char *slurp(FILE *f) {
  long size = ftell(f);
  char *buf = calloc(1, (size_t)size + 1);
  rewind(f);
  if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
    free(buf);
    return NULL;
  }
  return buf;
}

int main(void) {
  /* copy: 2 counted launches, 2000 B loaded and 2000 B stored, 1000 f32
   * FLOPs in all: per launch 2000 B and 500 FLOPs, intensity 0.25.
   * fma: 1 counted launch, 100 B loaded, 10000 f64 FLOPs: intensity 100. */
  pasta_profile p;
  pasta_profile_init(&p);
  pasta_profile_func copy = {0};
  copy.mangled = "_Z4copyPf";
  copy.kind = PASTA_FUNC_KERNEL;
  copy.calls = 2;
  copy.counts.load_bytes[PASTA_SPACE_GLOBAL] = 2000;
  copy.counts.store_bytes[PASTA_SPACE_GLOBAL] = 2000;
  copy.counts.flops[PASTA_PREC_F32] = 1000;
  pasta_profile_func fma = {0};
  fma.mangled = "_Z3fmaPd";
  fma.kind = PASTA_FUNC_KERNEL;
  fma.calls = 1;
  fma.counts.load_bytes[PASTA_SPACE_GLOBAL] = 100;
  fma.counts.flops[PASTA_PREC_F64] = 10000;
  CHECK_EQ_INT(pasta_profile_add_func(&p, &copy), PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_add_func(&p, &fma), PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_finalize(&p), PASTA_PROFILE_OK);

  /* copy: 4 launches, 3 of the plain copy: the first (7000 ns) is left out,
   * the other two take 1000 ns together: 500 ns
   * per launch -> 2000 B / 500 ns = 4e9 B/s, 500 FLOPs / 500 ns = 1e9
   * FLOP/s. fma: only its instrumented launch was timed, 1000 ns: 1e10
   * FLOP/s, 1e8 B/s. Peaks: 1e10 B/s measured; f32 1e11, f64 1e10 FLOP/s:
   * ridges at 10 (f32) and 1 (f64) FLOP/B: copy (0.25) is memory-bound, fma
   * (100) compute-bound. */
  pasta_activity_kernel ks[2] = {{0}, {0}};
  ks[0].name = "copy";
  ks[0].mangled = "_Z4copyPf";
  ks[0].launches = 4;
  ks[0].counted = 2;
  ks[0].timed = 4;
  ks[0].time_total_ns = 9000;
  ks[0].plain_timed = 3; /* the first, 7000 ns, loaded the copy */
  ks[0].plain_rest = 2;
  ks[0].plain_first_ns = 7000;
  ks[0].plain_time_ns = 1000;
  ks[1].name = "fma";
  ks[1].mangled = "_Z3fmaPd";
  ks[1].launches = 1;
  ks[1].counted = 1;
  ks[1].timed = 1;
  ks[1].time_total_ns = 1000;
  pasta_activity a;
  memset(&a, 0, sizeof a);
  a.kernels = ks;
  a.num_kernels = 2;
  a.peaks.bw_measured = 1e10;
  a.peaks.bw_theoretical = 2e10;
  a.peaks.flops[PASTA_PREC_F32] = 1e11;
  a.peaks.flops[PASTA_PREC_F64] = 1e10;
  /* One working-set launch of copy touched 1000 bytes: 2e9 B/s unique. */
  pasta_activity_ws_launch ws = {0, 0, 1, 4096, 1000, 0};
  a.ws_launches = &ws;
  a.num_ws_launches = 1;

  pasta_bw_row *rows;
  size_t n;
  CHECK_EQ_INT(pasta__bw_rows(&p, &a, &rows, &n), 0);
  CHECK_EQ_INT(n, 2);
  const pasta_bw_row *c = row(rows, n, "copy"), *f = row(rows, n, "fma");
  CHECK(c && f);
  if (c && f) {
    CHECK_EQ_INT(c->time_source, PASTA_BW_TIME_PLAIN);
    CHECK_NEAR(c->time_ns, 500);
    CHECK_NEAR(c->bytes, 2000);
    CHECK_NEAR(c->bandwidth, 4e9);
    CHECK_NEAR(c->unique_bytes, 1000);
    CHECK_NEAR(c->unique_bandwidth, 2e9);
    CHECK_NEAR(c->flop_rate, 1e9);
    CHECK_NEAR(c->intensity, 0.25);
    CHECK_NEAR(c->bandwidth_fraction, 0.4);
    CHECK_NEAR(c->flop_fraction, 0.01);
    CHECK_EQ_STR(c->bound, "memory");
    CHECK_EQ_INT(f->time_source, PASTA_BW_TIME_COUNTED);
    CHECK_NEAR(f->time_ns, 1000);
    CHECK_NEAR(f->flop_rate, 1e10);
    CHECK_NEAR(f->intensity, 100);
    CHECK_EQ_INT(f->precision, PASTA_PREC_F64);
    CHECK_NEAR(f->flop_fraction, 1.0);
    CHECK(f->unique_bytes < 0);
    CHECK_EQ_STR(f->bound, "compute");
    /* Most GPU time first: copy 4 x 500 ns > fma 1 x 1000 ns. */
    CHECK_EQ_PTR(rows[0].kernel, c->kernel);
  }

  /* JSON: parses, and holds the same numbers. */
  FILE *j = tmpfile();
  CHECK(j && pasta__bw_write_json(j, rows, n, &a) == 0);
  if (j) {
    char *text = slurp(j);
    /* The writer emits ",\n\"bandwidth\":{...}": wrap it into an object. */
    size_t len = text ? strlen(text) : 0;
    char *doc = malloc(len + 2);
    if (doc && text) {
      doc[0] = '{';
      memcpy(doc + 1, text + 2, len - 2);
      doc[len - 1] = '}';
      doc[len] = '\0';
    }
    json_error_t err;
    json_t *root = doc ? json_loads(doc, 0, &err) : NULL;
    CHECK(root != NULL);
    json_t *bw = json_object_get(root, "bandwidth");
    json_t *k0 = json_array_get(json_object_get(bw, "kernels"), 0);
    CHECK_NEAR(json_number_value(json_object_get(k0, "bandwidth")), 4e9);
    CHECK_EQ_STR(json_string_value(json_object_get(k0, "time_source")),
                 "plain");
    CHECK_NEAR(json_number_value(json_object_get(json_object_get(bw, "device"),
                                                 "bandwidth_measured")),
               1e10);
    json_decref(root);
    free(doc);
    free(text);
    fclose(j);
  }

  /* The roofline: well-formed XML, one point per kernel with FLOPs and a
   * time (both), two ceilings (f32 and f64 have peaks). */
  char path[] = "/tmp/pasta_roofline_XXXXXX";
  int fd = mkstemp(path);
  FILE *s = fd >= 0 ? fdopen(fd, "w+") : NULL;
  CHECK(s &&
        pasta__bw_write_roofline_svg(s, rows, n, &a.peaks, "a <test>") == 0);
  if (s) {
    fflush(s);
    char *svg = slurp(s);
    if (CHECK(svg != NULL))
      CHECK_EQ_U64(count(svg, "<circle class=\"kernel\""), 2);
    if (CHECK(svg != NULL))
      CHECK_EQ_U64(count(svg, "class=\"ceiling\""), 2);
    CHECK_HAS_STR(svg, "a &lt;test&gt;");
    free(svg);
    fclose(s);
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import xml.dom.minidom,sys; "
             "xml.dom.minidom.parse(sys.argv[1])' %s",
             path);
    if (system("python3 -c '' 2>/dev/null") == 0)
      CHECK_EQ_INT(system(cmd), 0);
    remove(path);
  }
  free(rows);
  pasta_profile_free(&p);
  return check_summary("bandwidth");
}
