/*===- hotness_files.c - Time-series hotness of device memory -------------===*
 *
 * Both writers first merge the sparse cells into a sorted array without
 * zeros or duplicates (for the SVG, after mapping launches and blocks to
 * their bins), so the output never depends on the order of the input. The
 * log scale uses a small log2 of our own: libpasta_rt links libc only.
 *===----------------------------------------------------------------------===*/
#include "hotness_files.h"
#include "profile/markup.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MIB (UINT64_C(1) << 20)

/* A merged cell: column (launch bin) x, row (block bin) y. */
struct mcell {
  uint32_t x, y;
  uint64_t accesses;
};

static int cmp_mcell(const void *a, const void *b) {
  const struct mcell *p = a, *q = b;
  if (p->x != q->x)
    return p->x < q->x ? -1 : 1;
  if (p->y != q->y)
    return p->y < q->y ? -1 : 1;
  return 0;
}

static int valid(const pasta_hotness *h) {
  if (!h || h->block_size == 0)
    return 0;
  if ((h->num_blocks && !h->blocks) || (h->num_launches && !h->launches) ||
      (h->num_cells && !h->cells))
    return 0;
  for (size_t i = 0; i < h->num_cells; ++i)
    if (h->cells[i].launch >= h->num_launches ||
        h->cells[i].block >= h->num_blocks)
      return 0;
  return 1;
}

/* The non-zero cells of `h` with launches binned by `bx` and blocks by
 * `by`, sorted by (launch bin, block bin), duplicates summed. Returns the
 * count, or (size_t)-1 when out of memory. */
static size_t merge_cells(const pasta_hotness *h, uint64_t bx, uint64_t by,
                          struct mcell **out) {
  *out = NULL;
  size_t n = 0;
  for (size_t i = 0; i < h->num_cells; ++i)
    n += h->cells[i].accesses != 0;
  if (n == 0)
    return 0;
  if (n > SIZE_MAX / sizeof(struct mcell))
    return (size_t)-1;
  struct mcell *m = malloc(n * sizeof *m);
  if (!m)
    return (size_t)-1;
  size_t k = 0;
  for (size_t i = 0; i < h->num_cells; ++i) {
    const pasta_hotness_cell *c = &h->cells[i];
    if (c->accesses == 0)
      continue;
    m[k].x = (uint32_t)(c->launch / bx);
    m[k].y = (uint32_t)(c->block / by);
    m[k].accesses = c->accesses;
    ++k;
  }
  qsort(m, n, sizeof *m, cmp_mcell);
  size_t j = 0;
  for (size_t i = 1; i < n; ++i) {
    if (m[i].x == m[j].x && m[i].y == m[j].y) {
      uint64_t s = m[j].accesses + m[i].accesses;
      m[j].accesses = s < m[i].accesses ? UINT64_MAX : s;
    } else {
      m[++j] = m[i];
    }
  }
  *out = m;
  return j + 1;
}

/*===-- CSV ---------------------------------------------------------------===*/

static void csv_field(FILE *f, const char *s) {
  if (!s)
    return;
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int pasta__hotness_write_csv(FILE *f, const pasta_hotness *h) {
  if (!valid(h))
    return -1;
  struct mcell *m;
  size_t n = merge_cells(h, 1, 1, &m);
  if (n == (size_t)-1)
    return -1;
  fputs("launch,kernel,allocation,block,block_address,accesses\n", f);
  for (size_t i = 0; i < n; ++i) {
    const pasta_hotness_launch *l = &h->launches[m[i].x];
    const pasta_hotness_block *b = &h->blocks[m[i].y];
    fprintf(f, "%" PRIu64 ",", l->id);
    csv_field(f, l->kernel);
    fprintf(f, ",%" PRIu32 ",%" PRIu64 ",0x%" PRIx64 ",%" PRIu64 "\n",
            b->allocation, b->block, b->base + b->block * h->block_size,
            m[i].accesses);
  }
  free(m);
  return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/*===-- SVG ---------------------------------------------------------------===*/

/* log2(v) for v >= 1, to about 1e-7. */
static double log2_u64(uint64_t v) {
  int e = 0;
  while (e < 63 && v >> (e + 1))
    ++e;
  double m = (double)v / (double)(UINT64_C(1) << e);
  if (m >= 2.0) { /* (double)v rounded up to the next power of two */
    m /= 2.0;
    ++e;
  }
  double r = e, bit = 0.5;
  for (int i = 0; i < 24; ++i, bit /= 2) {
    m *= m;
    if (m >= 2.0) {
      m /= 2.0;
      r += bit;
    }
  }
  return r;
}

/* Colour ramp (light yellow to dark red), t in [0, 1]. */
static const unsigned char ramp[4][3] = {
    {255, 237, 160}, {254, 178, 76}, {240, 59, 32}, {128, 0, 38}};
static const char *const ramp_offsets[4] = {"0%", "33.3%", "66.7%", "100%"};

static void colour(double t, char out[8]) {
  if (!(t > 0))
    t = 0;
  if (t > 1)
    t = 1;
  double s = t * 3;
  int i = (int)s;
  if (i > 2)
    i = 2;
  double u = s - i;
  int rgb[3];
  for (int k = 0; k < 3; ++k)
    rgb[k] = (int)(ramp[i][k] + (ramp[i + 1][k] - ramp[i][k]) * u + 0.5);
  snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* A size in bytes as "2 MiB", "64 KiB" or "100 B". */
static void fmt_size(char *out, size_t n, uint64_t bytes) {
  if (bytes % MIB == 0)
    snprintf(out, n, "%" PRIu64 " MiB", bytes / MIB);
  else if (bytes % 1024 == 0)
    snprintf(out, n, "%" PRIu64 " KiB", bytes / 1024);
  else
    snprintf(out, n, "%" PRIu64 " B", bytes);
}

/* "alloc <id> +<offset> MiB" of a block. */
static int row_label(char *out, size_t n, const pasta_hotness *h,
                     const pasta_hotness_block *b) {
  uint64_t off = b->block * h->block_size;
  if (off % MIB == 0)
    return snprintf(out, n, "alloc %" PRIu32 " +%" PRIu64 " MiB", b->allocation,
                    off / MIB);
  return snprintf(out, n, "alloc %" PRIu32 " +%.3f MiB", b->allocation,
                  (double)off / (double)MIB);
}

static uint64_t ceil_div(uint64_t a, uint64_t b) {
  return a / b + (a % b != 0);
}

/* Launches (blocks) per bin so that `n` of them fit in MAX_AXIS bins. */
static uint64_t bin_size(size_t n) {
  return n > PASTA_HOTNESS_MAX_AXIS ? ceil_div(n, PASTA_HOTNESS_MAX_AXIS) : 1;
}

static int clampi(uint64_t v, int lo, int hi) {
  return (v < (uint64_t)lo) ? lo : (v > (uint64_t)hi) ? hi : (int)v;
}

enum {
  TOP = 64,        /* title, subtitle */
  BOTTOM = 56,     /* column ticks, "launch" */
  LEGEND_GAP = 30, /* plot to legend */
  LEGEND_W = 14,   /* colour bar */
  RIGHT = 180,     /* legend and its labels */
  MIN_WIDTH = 640, /* room for the titles */
  FONT = 10,       /* labels */
  CHAR_W = 6,      /* estimated label character width */
  MAX_CELL_W = 24, /* column width of small maps */
  MAX_CELL_H = 16, /* row height of small maps */
  PLOT_W = 1200,   /* target plot width */
  PLOT_H = 800     /* target plot height */
};

/* The tooltip of merged cell `c`. */
static void cell_title(FILE *f, const pasta_hotness *h, const struct mcell *c,
                       uint64_t bx, uint64_t by) {
  size_t l0 = (size_t)(c->x * bx), l1 = l0 + (size_t)bx - 1;
  size_t b0 = (size_t)(c->y * by), b1 = b0 + (size_t)by - 1;
  if (l1 >= h->num_launches)
    l1 = h->num_launches - 1;
  if (b1 >= h->num_blocks)
    b1 = h->num_blocks - 1;
  const pasta_hotness_launch *la = &h->launches[l0], *lb = &h->launches[l1];
  const pasta_hotness_block *ba = &h->blocks[b0], *bb = &h->blocks[b1];
  if (l0 == l1) {
    fprintf(f, "launch %" PRIu64 " (", la->id);
    pasta__markup_text(f, la->kernel ? la->kernel : "unknown");
    fputs(")", f);
  } else {
    fprintf(f, "launches %" PRIu64 "..%" PRIu64, la->id, lb->id);
  }
  fprintf(f, ": alloc %" PRIu32 " block %" PRIu64, ba->allocation, ba->block);
  if (b0 != b1)
    fprintf(f, " .. alloc %" PRIu32 " block %" PRIu64, bb->allocation,
            bb->block);
  fprintf(f, ": %" PRIu64 " accesses", c->accesses);
}

int pasta__hotness_write_svg(FILE *f, const pasta_hotness *h,
                             const char *title) {
  if (!valid(h))
    return -1;
  uint64_t bx = bin_size(h->num_launches), by = bin_size(h->num_blocks);
  struct mcell *m;
  size_t n = merge_cells(h, bx, by, &m);
  if (n == (size_t)-1)
    return -1;
  uint64_t cols = ceil_div(h->num_launches, bx);
  uint64_t rows = ceil_div(h->num_blocks, by);

  uint64_t amin = UINT64_MAX, amax = 0;
  for (size_t i = 0; i < n; ++i) {
    if (m[i].accesses < amin)
      amin = m[i].accesses;
    if (m[i].accesses > amax)
      amax = m[i].accesses;
  }

  char bsize[32], buf[128];
  fmt_size(bsize, sizeof bsize, h->block_size);

  /* Geometry. */
  int cw = cols ? clampi(PLOT_W / cols, 1, MAX_CELL_W) : 1;
  int rh = rows ? clampi(PLOT_H / rows, 1, MAX_CELL_H) : 1;
  int label_chars = 0;
  for (uint64_t r = 0; r < rows; ++r) {
    int len = row_label(buf, sizeof buf, h, &h->blocks[r * by]);
    if (len > label_chars)
      label_chars = len;
  }
  int left = 40 + CHAR_W * label_chars;
  int plot_w = (int)cols * cw, plot_h = (int)rows * rh;
  int legend_h = plot_h < 100 ? 100 : plot_h > 240 ? 240 : plot_h;
  int width = left + plot_w + RIGHT;
  if (width < MIN_WIDTH)
    width = MIN_WIDTH;
  int body = plot_h > legend_h + 30 ? plot_h : legend_h + 30;
  int height = n ? TOP + body + BOTTOM : TOP + 40;
  if (n == 0)
    width = MIN_WIDTH;

  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
          "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
          "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
          width, height, width, height, width, height);

  /* Titles. */
  fputs("<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">", f);
  pasta__markup_text(f, title ? title : "PASTA time-series hotness");
  fprintf(f,
          "</text>\n<text x=\"10\" y=\"42\" font-size=\"12\" fill=\"#444\">"
          "%zu launches x %zu blocks of %s",
          h->num_launches, h->num_blocks, bsize);
  if (bx > 1 || by > 1) {
    fputs("; binned (sums):", f);
    if (bx > 1)
      fprintf(f, " %" PRIu64 " launches per column", bx);
    if (bx > 1 && by > 1)
      fputs(",", f);
    if (by > 1)
      fprintf(f, " %" PRIu64 " blocks per row", by);
    fprintf(f, "; %zu non-zero binned cells", n);
  } else {
    fprintf(f, ", %zu non-zero cells", n);
  }
  fputs("</text>\n", f);

  if (n == 0) {
    fprintf(f,
            "<text x=\"10\" y=\"%d\" font-size=\"14\" fill=\"#888\">"
            "no accesses recorded</text>\n</svg>\n",
            TOP + 20);
    free(m); /* NULL */
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
  }

  /* Plot frame, then the cells. */
  fprintf(f,
          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" "
          "stroke=\"#bbb\"/>\n",
          left, TOP, plot_w, plot_h);
  double lmin = log2_u64(amin), span = log2_u64(amax) - lmin;
  for (size_t i = 0; i < n; ++i) {
    char fill[8];
    double t = span > 0 ? (log2_u64(m[i].accesses) - lmin) / span : 1.0;
    colour(t, fill);
    fprintf(f,
            "<rect class=\"cell\" x=\"%" PRIu64 "\" y=\"%" PRIu64
            "\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
            (uint64_t)left + m[i].x * (uint64_t)cw,
            (uint64_t)TOP + m[i].y * (uint64_t)rh, cw, rh, fill);
    cell_title(f, h, &m[i], bx, by);
    fputs("</title></rect>\n", f);
  }

  /* Row labels: one every `rstep` rows, so that they do not overlap. */
  int rstep = (FONT + 2 + rh - 1) / rh;
  for (uint64_t r = 0; r < rows; r += (uint64_t)rstep) {
    row_label(buf, sizeof buf, h, &h->blocks[r * by]);
    fprintf(f,
            "<text x=\"%d\" y=\"%" PRIu64 "\" font-size=\"%d\" "
            "text-anchor=\"end\" dominant-baseline=\"middle\">",
            left - 4, (uint64_t)TOP + r * (uint64_t)rh + (uint64_t)rh / 2,
            FONT);
    pasta__markup_text(f, buf);
    fputs("</text>\n", f);
  }

  /* Column ticks: launch ids, thinned to the widest id. */
  int id_chars = 1;
  for (size_t i = 0; i < h->num_launches; ++i) {
    int len = snprintf(buf, sizeof buf, "%" PRIu64, h->launches[i].id);
    if (len > id_chars)
      id_chars = len;
  }
  int cstep = (CHAR_W * id_chars + 8 + cw - 1) / cw;
  int ybot = TOP + plot_h;
  for (uint64_t c = 0; c < cols; c += (uint64_t)cstep) {
    uint64_t x = (uint64_t)left + c * (uint64_t)cw + (uint64_t)cw / 2;
    fprintf(f,
            "<line x1=\"%" PRIu64 "\" y1=\"%d\" x2=\"%" PRIu64 "\" y2=\"%d\" "
            "stroke=\"#000\"/>\n"
            "<text x=\"%" PRIu64 "\" y=\"%d\" font-size=\"%d\" "
            "text-anchor=\"middle\">%" PRIu64 "</text>\n",
            x, ybot, x, ybot + 4, x, ybot + 15, FONT, h->launches[c * bx].id);
  }

  /* Axis labels. */
  fprintf(f,
          "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">"
          "launch</text>\n"
          "<text transform=\"translate(14,%d) rotate(-90)\" font-size=\"12\" "
          "text-anchor=\"middle\">",
          left + plot_w / 2, ybot + 36, TOP + plot_h / 2);
  pasta__markup_text(f, bsize);
  fputs(" block</text>\n", f);

  /* Legend: the ramp from the least (bottom) to the largest count (top). */
  int lx = left + plot_w + LEGEND_GAP;
  fputs("<defs><linearGradient id=\"ramp\" x1=\"0\" y1=\"1\" x2=\"0\" "
        "y2=\"0\">",
        f);
  for (int i = 0; i < 4; ++i)
    fprintf(f, "<stop offset=\"%s\" stop-color=\"#%02x%02x%02x\"/>",
            ramp_offsets[i], ramp[i][0], ramp[i][1], ramp[i][2]);
  fprintf(f,
          "</linearGradient></defs>\n"
          "<text x=\"%d\" y=\"%d\" font-size=\"%d\">accesses (log)</text>\n"
          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
          "fill=\"url(#ramp)\" stroke=\"#bbb\"/>\n"
          "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
          "dominant-baseline=\"middle\">max %" PRIu64 "</text>\n"
          "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
          "dominant-baseline=\"middle\">min %" PRIu64 "</text>\n",
          lx, TOP + 6, FONT, lx, TOP + 20, LEGEND_W, legend_h,
          lx + LEGEND_W + 6, TOP + 20, FONT, amax, lx + LEGEND_W + 6,
          TOP + 20 + legend_h, FONT, amin);
  fputs("</svg>\n", f);
  free(m);
  return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
