/*===- test_ws_stats_hotness.c - Tests of ws_stats and hotness ------------===*
 *
 * Working-set statistics against values computed by hand, the hotness CSV
 * against its exact expected text, and the hotness SVG: well-formed (a tag
 * balance checker here, and python3's XML parser when there is one), one
 * cell per non-zero (binned) cell, escaped names, tooltips and binning.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* mkstemp */

#include "hotness_files.h"
#include "profile/ws_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/check.h"

static int quiet; /* no diagnostics from the XML checkers (self-test) */

/*===-- ws_stats ----------------------------------------------------------===*/

static void test_ws_stats(void) {
  pasta_ws_stats s;

  /* n = 0: everything zero. */
  memset(&s, 0xff, sizeof s);
  CHECK_EQ_INT(pasta__ws_stats_compute(NULL, 0, &s), 0);
  CHECK_EQ_U64(s.count, 0);
  CHECK_EQ_U64(s.min, 0);
  CHECK_EQ_U64(s.max, 0);
  CHECK_EQ_DBL(s.mean, 0.0, 0);
  CHECK_EQ_U64(s.median, 0);
  CHECK_EQ_U64(s.p90, 0);

  /* n = 1. */
  const uint64_t one[] = {42};
  CHECK_EQ_INT(pasta__ws_stats_compute(one, 1, &s), 0);
  CHECK_EQ_U64(s.count, 1);
  CHECK_EQ_U64(s.min, 42);
  CHECK_EQ_U64(s.max, 42);
  CHECK_EQ_DBL(s.mean, 42.0, 0);
  CHECK_EQ_U64(s.median, 42);
  CHECK_EQ_U64(s.p90, 42);

  /* n = 2: median rank ceil(1) = 1, p90 rank ceil(1.8) = 2. */
  const uint64_t two[] = {9, 5};
  CHECK_EQ_INT(pasta__ws_stats_compute(two, 2, &s), 0);
  CHECK_EQ_U64(s.median, 5);
  CHECK_EQ_U64(s.p90, 9);
  CHECK_EQ_DBL(s.mean, 7.0, 0);

  /* n = 4: median rank 2 -> 20, p90 rank ceil(3.6) = 4 -> 40, mean 25. The
   * input stays as it was (the function sorts a copy). */
  uint64_t four[] = {40, 10, 30, 20};
  CHECK_EQ_INT(pasta__ws_stats_compute(four, 4, &s), 0);
  CHECK_EQ_U64(s.count, 4);
  CHECK_EQ_U64(s.min, 10);
  CHECK_EQ_U64(s.max, 40);
  CHECK_EQ_DBL(s.mean, 25.0, 0);
  CHECK_EQ_U64(s.median, 20);
  CHECK_EQ_U64(s.p90, 40);
  CHECK(four[0] == 40 && four[1] == 10 && four[2] == 30 && four[3] == 20);

  /* n = 10, 1..10 shuffled: median rank 5 -> 5, p90 rank 9 -> 9. */
  const uint64_t ten[] = {7, 3, 10, 1, 9, 5, 2, 8, 6, 4};
  CHECK_EQ_INT(pasta__ws_stats_compute(ten, 10, &s), 0);
  CHECK_EQ_U64(s.count, 10);
  CHECK_EQ_U64(s.min, 1);
  CHECK_EQ_U64(s.max, 10);
  CHECK_EQ_DBL(s.mean, 5.5, 0);
  CHECK_EQ_U64(s.median, 5);
  CHECK_EQ_U64(s.p90, 9);

  /* n = 7, 1..7 reversed: median rank ceil(3.5) = 4, p90 rank ceil(6.3)
   * = 7. */
  const uint64_t seven[] = {7, 6, 5, 4, 3, 2, 1};
  CHECK_EQ_INT(pasta__ws_stats_compute(seven, 7, &s), 0);
  CHECK_EQ_U64(s.median, 4);
  CHECK_EQ_U64(s.p90, 7);
  CHECK_EQ_DBL(s.mean, 4.0, 0);

  /* Sums past 2^64: (2^63 - 1) + (2^63 + 1) twice is 2^65, mean 2^63. */
  const uint64_t half = UINT64_MAX / 2; /* 2^63 - 1 */
  const uint64_t big[] = {half, half + 2, half, half + 2};
  CHECK_EQ_INT(pasta__ws_stats_compute(big, 4, &s), 0);
  CHECK_EQ_DBL(s.mean, 9223372036854775808.0, 0);
  CHECK_EQ_U64(s.min, half);
  CHECK_EQ_U64(s.max, half + 2);
  CHECK_EQ_U64(s.median, half);
  CHECK_EQ_U64(s.p90, half + 2);
  const uint64_t maxes[] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  CHECK_EQ_INT(pasta__ws_stats_compute(maxes, 3, &s), 0);
  CHECK_EQ_DBL(s.mean, 18446744073709551616.0, 0); /* UINT64_MAX as a double */

  /* Nearest rank on 1..100 and 1..20. */
  uint64_t hundred[100];
  for (int i = 0; i < 100; ++i)
    hundred[i] = (uint64_t)i + 1;
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 100, 90), 90);
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 100, 50), 50);
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 100, 1), 1);
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 100, 100), 100);
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 100, 0), 1);
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 20, 90), 18);
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 20, 50), 10);
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 3, 50), 2);
  CHECK_EQ_U64(pasta__ws_percentile_sorted(hundred, 3, 90), 3);
}

/*===-- Helpers -----------------------------------------------------------===*/

/* The whole content of `f`, NUL-terminated (malloc'd). */
static char *slurp(FILE *f) {
  if (fseek(f, 0, SEEK_END) != 0)
    return NULL;
  long size = ftell(f);
  if (size < 0 || fseek(f, 0, SEEK_SET) != 0)
    return NULL;
  char *s = malloc((size_t)size + 1);
  if (!s)
    return NULL;
  size_t got = fread(s, 1, (size_t)size, f);
  s[got] = '\0';
  return s;
}

static char *csv_of(const pasta_hotness *h, int *rc) {
  FILE *f = tmpfile();
  if (!f)
    return NULL;
  *rc = pasta__hotness_write_csv(f, h);
  char *s = slurp(f);
  fclose(f);
  return s;
}

static char *svg_of(const pasta_hotness *h, const char *title, int *rc) {
  FILE *f = tmpfile();
  if (!f)
    return NULL;
  *rc = pasta__hotness_write_svg(f, h, title);
  char *s = slurp(f);
  fclose(f);
  return s;
}

static size_t count_of(const char *s, const char *needle) {
  size_t n = 0, len = strlen(needle);
  if (!s)
    return 0;
  for (const char *p = strstr(s, needle); p; p = strstr(p + len, needle))
    ++n;
  return n;
}

/* Checks that `s` is one balanced XML element tree (after an optional
 * declaration), that attribute values are quoted and hold no '<', and that
 * every '&' starts a predefined or numeric entity. Returns 1 when it is,
 * else 0 with the reason on stderr. */
#define XML_ERR(...) (quiet ? 0 : fprintf(stderr, __VA_ARGS__), 0)

static int xml_ok(const char *s) {
  enum { DEPTH = 64, NAME = 64 };
  char stack[DEPTH][NAME];
  int depth = 0, roots = 0;
  const char *p = s;
  while (*p) {
    if (*p == '&') {
      static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;",
                                         "&apos;"};
      int ok = 0;
      for (size_t i = 0; i < 5; ++i)
        ok |= strncmp(p, ents[i], strlen(ents[i])) == 0;
      if (!ok && p[1] == '#') {
        const char *q = p + 2;
        while (*q >= '0' && *q <= '9')
          ++q;
        ok = q > p + 2 && *q == ';';
      }
      if (!ok) {
        return XML_ERR("xml: bare '&' at offset %zu\n", (size_t)(p - s));
      }
      ++p;
      continue;
    }
    if (*p == '>') {
      return XML_ERR("xml: bare '>' at offset %zu\n", (size_t)(p - s));
    }
    if (*p != '<') {
      if (depth == 0 && *p != '\n' && *p != ' ') {
        return XML_ERR("xml: text outside the root at %zu\n", (size_t)(p - s));
      }
      ++p;
      continue;
    }
    if (strncmp(p, "<?", 2) == 0) {
      const char *e = strstr(p, "?>");
      if (!e || p != s)
        return XML_ERR("xml: bad declaration\n");
      p = e + 2;
      continue;
    }
    if (strncmp(p, "<!--", 4) == 0) {
      const char *e = strstr(p, "-->");
      if (!e)
        return XML_ERR("xml: unterminated comment\n");
      p = e + 3;
      continue;
    }
    int closing = p[1] == '/';
    const char *q = p + 1 + closing;
    size_t len = 0;
    char name[NAME];
    while (*q && !strchr(" \t\n/>", *q) && len + 1 < NAME)
      name[len++] = *q++;
    name[len] = '\0';
    if (len == 0)
      return XML_ERR("xml: empty tag name at %zu\n", (size_t)(p - s));
    /* Attributes: name="value" pairs up to '>' or "/>". */
    int self = 0;
    for (;;) {
      while (*q == ' ' || *q == '\t' || *q == '\n')
        ++q;
      if (*q == '>') {
        ++q;
        break;
      }
      if (q[0] == '/' && q[1] == '>' && !closing) {
        self = 1;
        q += 2;
        break;
      }
      if (closing || !*q)
        return XML_ERR("xml: bad tag <%s>\n", name);
      while (*q && *q != '=' && *q != '>' && *q != ' ')
        ++q;
      if (q[0] != '=' || (q[1] != '"' && q[1] != '\''))
        return XML_ERR("xml: unquoted attribute in <%s>\n", name);
      char quote = q[1];
      q += 2;
      while (*q && *q != quote) {
        if (*q == '<')
          return XML_ERR("xml: '<' in an attribute\n");
        ++q;
      }
      if (!*q)
        return XML_ERR("xml: unterminated attribute\n");
      ++q;
    }
    if (closing) {
      if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
        return XML_ERR("xml: </%s> closes <%s>\n", name,
                       depth ? stack[depth - 1] : "(nothing)");
      --depth;
    } else if (!self) {
      if (depth == 0 && roots++)
        return XML_ERR("xml: second root <%s>\n", name);
      if (depth == DEPTH)
        return XML_ERR("xml: too deep\n");
      strcpy(stack[depth++], name);
    } else if (depth == 0 && roots++) {
      return XML_ERR("xml: second root <%s/>\n", name);
    }
    p = q;
  }
  if (depth != 0)
    return XML_ERR("xml: <%s> not closed\n", stack[depth - 1]);
  if (roots != 1)
    return XML_ERR("xml: no root element\n");
  return 1;
}

static int have_python = -1;

/* python3's verdict on `s` as XML: 1 well-formed, 0 not, -1 no python3. */
static int python_xml_ok(const char *s) {
  if (have_python < 0)
    have_python = system("command -v python3 >/dev/null 2>&1") == 0;
  if (!have_python)
    return -1;
  char path[] = "/tmp/pasta_hotness_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return 0;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    unlink(path);
    return 0;
  }
  fputs(s, f);
  fclose(f);
  char cmd[256];
  snprintf(cmd, sizeof cmd,
           "python3 -c 'import xml.dom.minidom,sys; "
           "xml.dom.minidom.parse(sys.argv[1])' %s%s",
           path, quiet ? " 2>/dev/null" : "");
  int rc = system(cmd);
  unlink(path);
  return rc == 0;
}

static void check_well_formed(const char *svg) {
  CHECK(svg != NULL);
  if (!svg)
    return;
  CHECK(xml_ok(svg));
  int py = python_xml_ok(svg);
  if (py >= 0)
    CHECK_EQ_INT(py, 1);
}

/* The fill of the cell whose tooltip is `tooltip` (static buffer), or "". */
static const char *fill_of(const char *svg, const char *tooltip) {
  static char fill[16];
  fill[0] = '\0';
  char key[512];
  snprintf(key, sizeof key, "<title>%s</title>", tooltip);
  const char *t = svg ? strstr(svg, key) : NULL;
  if (!t)
    return fill;
  /* The last fill=" before the tooltip belongs to its <rect>. */
  const char *f = NULL;
  for (const char *p = strstr(svg, "fill=\""); p && p < t;
       p = strstr(p + 1, "fill=\""))
    f = p;
  if (f)
    sscanf(f, "fill=\"%15[^\"]", fill);
  return fill;
}

static int luminance(const char *hex) {
  unsigned r = 0, g = 0, b = 0;
  if (sscanf(hex, "#%2x%2x%2x", &r, &g, &b) != 3)
    return -1;
  return (int)(r + g + b);
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* Distinct values of the attribute `attr` (e.g. "x") of the cell rects. */
static size_t distinct_cells(const char *svg, const char *attr, long *lo,
                             long *hi) {
  size_t n = count_of(svg, "class=\"cell\""), k = 0;
  long *v = malloc((n ? n : 1) * sizeof *v);
  char key[16];
  snprintf(key, sizeof key, " %s=\"", attr);
  for (const char *p = strstr(svg, "class=\"cell\""); p && k < n;
       p = strstr(p + 1, "class=\"cell\"")) {
    const char *a = strstr(p, key);
    if (a)
      v[k++] = strtol(a + strlen(key), NULL, 10);
  }
  qsort(v, k, sizeof *v, cmp_long);
  size_t d = 0;
  for (size_t i = 0; i < k; ++i)
    d += i == 0 || v[i] != v[i - 1];
  *lo = k ? v[0] : 0;
  *hi = k ? v[k - 1] : 0;
  free(v);
  return d;
}

/*===-- Checker self-test -------------------------------------------------===*/

static void test_checker(void) {
  quiet = 1;
  CHECK(xml_ok("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>t&amp;<c></c></a>\n"));
  CHECK(!xml_ok("<a><b></a></b>"));
  CHECK(!xml_ok("<a>&</a>"));
  CHECK(!xml_ok("<a>x > y</a>"));
  CHECK(!xml_ok("<a x=\"<\"></a>"));
  CHECK(!xml_ok("<a></a><b></b>"));
  CHECK(!xml_ok("<a><b></b>"));
  if (python_xml_ok("<a></a>") >= 0) {
    CHECK_EQ_INT(python_xml_ok("<a>&amp;</a>"), 1);
    CHECK_EQ_INT(python_xml_ok("<a><b></a>"), 0);
  }
  quiet = 0;
}

/*===-- Hotness -----------------------------------------------------------===*/

#define BASE1 UINT64_C(0x7f0000000000)
#define BASE2 UINT64_C(0x7f0001000000)

static const pasta_hotness_block tiny_blocks[] = {
    {1, BASE1, 0}, {1, BASE1, 3}, {2, BASE2, 0}};
static const pasta_hotness_launch tiny_launches[] = {{7, "k1"},
                                                     {8, "say \"hi\", world"}};
/* Out of order on purpose. */
static const pasta_hotness_cell tiny_cells[] = {
    {1, 2, 7}, {0, 2, 1}, {1, 1, 100}, {0, 0, 5}};

static pasta_hotness tiny(void) {
  pasta_hotness h = {PASTA_HOTNESS_BLOCK_SIZE,
                     tiny_blocks,
                     3,
                     tiny_launches,
                     2,
                     tiny_cells,
                     4};
  return h;
}

static void test_csv(void) {
  int rc = -2;
  pasta_hotness h = tiny();
  char *csv = csv_of(&h, &rc);
  CHECK_EQ_INT(rc, 0);
  /* Block 3 of allocation 1: 0x7f0000000000 + 3 * 0x200000. */
  CHECK_EQ_STR(csv, "launch,kernel,allocation,block,block_address,accesses\n"
                    "7,k1,1,0,0x7f0000000000,5\n"
                    "7,k1,2,0,0x7f0001000000,1\n"
                    "8,\"say \"\"hi\"\", world\",1,3,0x7f0000600000,100\n"
                    "8,\"say \"\"hi\"\", world\",2,0,0x7f0001000000,7\n");
  free(csv);

  /* Duplicates summed (saturating), zeros dropped, NULL and multi-line
   * names, a 64 KiB block size. */
  const pasta_hotness_launch launches[] = {{0, NULL}, {1, "a\nb"}};
  const pasta_hotness_block blocks[] = {{0, 0x1000, 0}, {0, 0x1000, 5}};
  const pasta_hotness_cell cells[] = {{0, 1, 3}, {1, 0, 0}, {0, 0, UINT64_MAX},
                                      {0, 1, 4}, {0, 0, 1}, {1, 1, 2}};
  pasta_hotness d = {64 << 10, blocks, 2, launches, 2, cells, 6};
  csv = csv_of(&d, &rc);
  CHECK_EQ_INT(rc, 0);
  CHECK_EQ_STR(csv, "launch,kernel,allocation,block,block_address,accesses\n"
                    "0,,0,0,0x1000,18446744073709551615\n"
                    "0,,0,5,0x51000,7\n"
                    "1,\"a\nb\",0,5,0x51000,2\n");
  free(csv);

  /* No cells: the header only. */
  pasta_hotness e = {PASTA_HOTNESS_BLOCK_SIZE, NULL, 0, NULL, 0, NULL, 0};
  csv = csv_of(&e, &rc);
  CHECK_EQ_INT(rc, 0);
  CHECK_EQ_STR(csv, "launch,kernel,allocation,block,block_address,accesses\n");
  free(csv);

  /* Invalid models: -1 and nothing written. */
  const pasta_hotness_cell bad_cells[] = {{0, 3, 1}};
  pasta_hotness bad = tiny();
  bad.cells = bad_cells;
  bad.num_cells = 1;
  csv = csv_of(&bad, &rc);
  CHECK_EQ_INT(rc, -1);
  CHECK_EQ_STR(csv, "");
  free(csv);
  bad = tiny();
  bad.block_size = 0;
  csv = csv_of(&bad, &rc);
  CHECK_EQ_INT(rc, -1);
  CHECK_EQ_STR(csv, "");
  free(csv);
  bad = tiny();
  bad.launches = NULL;
  csv = csv_of(&bad, &rc);
  CHECK_EQ_INT(rc, -1);
  free(csv);
}

static void test_svg_tiny(void) {
  int rc = -2;
  pasta_hotness h = tiny();
  char *svg = svg_of(&h, "Tiny & <small> \"map\"", &rc);
  CHECK_EQ_INT(rc, 0);
  check_well_formed(svg);
  CHECK_EQ_U64(count_of(svg, "class=\"cell\""), 4);
  CHECK_EQ_U64(count_of(svg, "<rect class=\"cell\""), 4);
  CHECK_HAS_STR(svg, "Tiny &amp; &lt;small&gt; &quot;map&quot;");
  CHECK_HAS_STR(svg, "say &quot;hi&quot;, world");
  CHECK(!strstr(svg, "say \"hi\""));
  CHECK_HAS_STR(svg,
                "<title>launch 7 (k1): alloc 1 block 0: 5 accesses</title>");
  CHECK_HAS_STR(svg,
                "<title>launch 7 (k1): alloc 2 block 0: 1 accesses</title>");
  CHECK_HAS_STR(svg,
                "<title>launch 8 (say &quot;hi&quot;, world): alloc 1 block "
                "3: 100 accesses</title>");
  CHECK_HAS_STR(svg,
                "<title>launch 8 (say &quot;hi&quot;, world): alloc 2 block "
                "0: 7 accesses</title>");
  CHECK_HAS_STR(svg, ">launch</text>");
  CHECK_HAS_STR(svg, ">2 MiB block</text>");
  CHECK_HAS_STR(svg, ">alloc 1 +0 MiB</text>");
  CHECK_HAS_STR(svg, ">alloc 1 +6 MiB</text>");
  CHECK_HAS_STR(svg, ">alloc 2 +0 MiB</text>");
  CHECK_HAS_STR(svg, ">7</text>");
  CHECK_HAS_STR(svg, ">8</text>");
  CHECK_HAS_STR(svg, "min 1<");
  CHECK_HAS_STR(svg, "max 100<");
  CHECK_HAS_STR(svg, "2 launches x 3 blocks of 2 MiB, 4 non-zero cells");
  CHECK(!strstr(svg, "binned"));
  /* Log scale: the least count gets the lightest colour of the ramp, the
   * largest the darkest, 5 and 7 in between in order. */
  const char *c1 = fill_of(svg, "launch 7 (k1): alloc 2 block 0: 1 accesses");
  CHECK_EQ_STR(c1, "#ffeda0");
  CHECK_EQ_STR(fill_of(svg,
                       "launch 8 (say &quot;hi&quot;, world): alloc 1 block "
                       "3: 100 accesses"),
               "#800026");
  int l5 =
      luminance(fill_of(svg, "launch 7 (k1): alloc 1 block 0: 5 accesses"));
  int l7 = luminance(fill_of(svg, "launch 8 (say &quot;hi&quot;, world): "
                                  "alloc 2 block 0: 7 accesses"));
  CHECK(l5 > 0 && l7 > 0);
  CHECK(luminance("#ffeda0") > l5 && l5 > l7 && l7 > luminance("#800026"));
  /* The rows follow blocks[]: block 2 (alloc 2) below block 0 (alloc 1). */
  const char *r0 = strstr(svg, ">alloc 1 +0 MiB<");
  const char *r2 = strstr(svg, ">alloc 2 +0 MiB<");
  CHECK(r0 && r2 && r0 < r2);
  free(svg);

  /* NULL title: the default one. */
  svg = svg_of(&h, NULL, &rc);
  CHECK_EQ_INT(rc, 0);
  check_well_formed(svg);
  CHECK_HAS_STR(svg, ">PASTA time-series hotness</text>");
  free(svg);
}

static void test_svg_names(void) {
  /* XML specials, a control character, invalid UTF-8 and valid UTF-8. */
  const pasta_hotness_launch launches[] = {{3, "k<&>'\x01\xff\xc3\xa9"},
                                           {4, NULL}};
  const pasta_hotness_block blocks[] = {{9, 0, 2}};
  const pasta_hotness_cell cells[] = {{0, 0, 2}, {1, 0, 3}, {0, 0, 0}};
  pasta_hotness h = {
      PASTA_HOTNESS_BLOCK_SIZE, blocks, 1, launches, 2, cells, 3};
  int rc = -2;
  char *svg = svg_of(&h, "t\x02", &rc);
  CHECK_EQ_INT(rc, 0);
  check_well_formed(svg);
  CHECK_EQ_U64(count_of(svg, "class=\"cell\""), 2);
  CHECK_HAS_STR(svg, "<title>launch 3 (k&lt;&amp;&gt;&#39;??\xc3\xa9): alloc 9 "
                     "block 2: 2 accesses</title>");
  CHECK_HAS_STR(svg, "<title>launch 4 (unknown): alloc 9 block 2: 3 "
                     "accesses</title>");
  CHECK_HAS_STR(svg, ">alloc 9 +4 MiB</text>");
  CHECK_HAS_STR(svg, ">t?</text>");
  free(svg);
}

static void test_svg_empty(void) {
  const pasta_hotness_cell zero[] = {{0, 0, 0}};
  pasta_hotness h = tiny();
  h.cells = zero;
  h.num_cells = 1;
  int rc = -2;
  char *svg = svg_of(&h, NULL, &rc);
  CHECK_EQ_INT(rc, 0);
  check_well_formed(svg);
  CHECK_HAS_STR(svg, "no accesses recorded");
  CHECK_EQ_U64(count_of(svg, "class=\"cell\""), 0);
  free(svg);

  pasta_hotness e = {PASTA_HOTNESS_BLOCK_SIZE, NULL, 0, NULL, 0, NULL, 0};
  svg = svg_of(&e, "empty", &rc);
  CHECK_EQ_INT(rc, 0);
  check_well_formed(svg);
  CHECK_HAS_STR(svg, "no accesses recorded");
  CHECK_HAS_STR(svg, "0 launches x 0 blocks");
  CHECK_EQ_U64(count_of(svg, "class=\"cell\""), 0);
  free(svg);

  /* Invalid model: -1, nothing written. */
  const pasta_hotness_cell bad_cells[] = {{2, 0, 1}};
  h.cells = bad_cells;
  svg = svg_of(&h, NULL, &rc);
  CHECK_EQ_INT(rc, -1);
  CHECK_EQ_STR(svg, "");
  free(svg);
}

/* 5000 launches x 3 blocks: every launch reads block 0 once, even launches
 * block 2 ten times. Bins of ceil(5000 / 2000) = 3 launches make 1667
 * columns; every bin holds an even launch, so 2 cells per column. */
static void test_svg_binned_launches(void) {
  enum { L = 5000 };
  static pasta_hotness_launch launches[L];
  static pasta_hotness_cell cells[L + L / 2];
  const pasta_hotness_block blocks[] = {{0, 0, 0}, {0, 0, 1}, {0, 0, 2}};
  size_t n = 0;
  for (uint32_t i = 0; i < L; ++i) {
    launches[i].id = i;
    launches[i].kernel = i % 2 ? "odd" : "even";
    cells[n++] = (pasta_hotness_cell){i, 0, 1};
    if (i % 2 == 0)
      cells[n++] = (pasta_hotness_cell){i, 2, 10};
  }
  pasta_hotness h = {
      PASTA_HOTNESS_BLOCK_SIZE, blocks, 3, launches, L, cells, n};
  int rc = -2;
  char *svg = svg_of(&h, "binned", &rc);
  CHECK_EQ_INT(rc, 0);
  check_well_formed(svg);
  CHECK_EQ_U64(count_of(svg, "class=\"cell\""), 2 * 1667);
  long lo, hi;
  size_t cols = distinct_cells(svg, "x", &lo, &hi);
  CHECK(cols <= PASTA_HOTNESS_MAX_AXIS);
  CHECK_EQ_U64(cols, 1667);
  CHECK_EQ_U64((uint64_t)(hi - lo), 1666); /* one pixel per column */
  CHECK_EQ_U64(distinct_cells(svg, "y", &lo, &hi), 2);
  CHECK_HAS_STR(svg, "binned (sums): 3 launches per column");
  CHECK_HAS_STR(svg,
                "<title>launches 0..2: alloc 0 block 0: 3 accesses</title>");
  CHECK_HAS_STR(svg,
                "<title>launches 0..2: alloc 0 block 2: 20 accesses</title>");
  CHECK_HAS_STR(svg, "<title>launches 4998..4999: alloc 0 block 0: 2 "
                     "accesses</title>");
  CHECK_HAS_STR(svg, "<title>launches 4998..4999: alloc 0 block 2: 10 "
                     "accesses</title>");
  CHECK_HAS_STR(svg, "min 2<");
  CHECK_HAS_STR(svg, "max 20<"); /* at most two even launches in a bin */
  CHECK(strlen(svg) < (size_t)2 << 20);
  free(svg);
}

/* 2 launches x 4500 blocks, block b read once by launch b % 2: bins of 3
 * blocks, 1500 rows, both launches in every row. */
static void test_svg_binned_blocks(void) {
  enum { B = 4500 };
  static pasta_hotness_block blocks[B];
  static pasta_hotness_cell cells[B];
  const pasta_hotness_launch launches[] = {{10, "k"}, {11, "k"}};
  for (uint32_t b = 0; b < B; ++b) {
    blocks[b] = (pasta_hotness_block){b / 1000, 0, b % 1000};
    cells[b] = (pasta_hotness_cell){b % 2, b, 1};
  }
  pasta_hotness h = {
      PASTA_HOTNESS_BLOCK_SIZE, blocks, B, launches, 2, cells, B};
  int rc = -2;
  char *svg = svg_of(&h, NULL, &rc);
  CHECK_EQ_INT(rc, 0);
  check_well_formed(svg);
  CHECK_EQ_U64(count_of(svg, "class=\"cell\""), 3000);
  long lo, hi;
  size_t rows = distinct_cells(svg, "y", &lo, &hi);
  CHECK(rows <= PASTA_HOTNESS_MAX_AXIS);
  CHECK_EQ_U64(rows, 1500);
  CHECK_EQ_U64(distinct_cells(svg, "x", &lo, &hi), 2);
  CHECK_HAS_STR(svg, "binned (sums): 3 blocks per row");
  CHECK_HAS_STR(svg,
                "<title>launch 10 (k): alloc 0 block 0 .. alloc 0 block 2: "
                "2 accesses</title>");
  CHECK_HAS_STR(svg,
                "<title>launch 11 (k): alloc 0 block 0 .. alloc 0 block 2: "
                "1 accesses</title>");
  /* Blocks 999..1001 straddle allocations 0 and 1. */
  CHECK_HAS_STR(svg, "<title>launch 11 (k): alloc 0 block 999 .. alloc 1 block "
                     "1: 2 accesses</title>");
  /* Thinned row labels: fewer than rows, more than none. */
  size_t labels = count_of(svg, "text-anchor=\"end\"");
  CHECK(labels > 10 && labels < 1500);
  free(svg);
}

/* Both axes binned: 3000 x 3000 on the diagonal, bins of 2 x 2. */
static void test_svg_binned_both(void) {
  enum { N = 3000 };
  static pasta_hotness_block blocks[N];
  static pasta_hotness_launch launches[N];
  static pasta_hotness_cell cells[N];
  for (uint32_t i = 0; i < N; ++i) {
    blocks[i] = (pasta_hotness_block){0, 0, i};
    launches[i] = (pasta_hotness_launch){i, "k"};
    cells[i] = (pasta_hotness_cell){i, i, 1};
  }
  pasta_hotness h = {
      PASTA_HOTNESS_BLOCK_SIZE, blocks, N, launches, N, cells, N};
  int rc = -2;
  char *svg = svg_of(&h, NULL, &rc);
  CHECK_EQ_INT(rc, 0);
  check_well_formed(svg);
  CHECK_EQ_U64(count_of(svg, "class=\"cell\""), 1500);
  CHECK_HAS_STR(svg, "binned (sums): 2 launches per column, 2 blocks per row");
  CHECK_HAS_STR(svg,
                "<title>launches 0..1: alloc 0 block 0 .. alloc 0 block 1: "
                "2 accesses</title>");
  free(svg);
}

static void test_write_errors(void) {
  FILE *f = fopen("/dev/full", "w");
  if (!f)
    return;
  pasta_hotness h = tiny();
  CHECK_EQ_INT(pasta__hotness_write_csv(f, &h), -1);
  fclose(f);
  f = fopen("/dev/full", "w");
  if (!f)
    return;
  CHECK_EQ_INT(pasta__hotness_write_svg(f, &h, NULL), -1);
  fclose(f);
}

int main(void) {
  test_ws_stats();
  test_checker();
  test_csv();
  test_svg_tiny();
  test_svg_names();
  test_svg_empty();
  test_svg_binned_launches();
  test_svg_binned_blocks();
  test_svg_binned_both();
  test_write_errors();
  return check_summary("ws_stats_hotness");
}
