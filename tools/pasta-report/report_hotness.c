/*===- report_hotness.c - The hotness map read back from its CSV ----------===*
 *
 * The JSON profile has no hotness cells: a PASTA_HOTNESS=1 run writes them
 * beside it, as <profile>.hotness.csv (analyzers/working_set/
 * hotness_files.h has the format). `html` reads that file back into the
 * model so that its page shows the same heat map as the runtime's. Launches
 * without any access have no row, so they are not columns of this map.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report_hotness.h"

#include "profile/output_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char header[] =
    "launch,kernel,allocation,block,block_address,accesses";

/* A field of `line` from *pos: quoted ("" is a quote) or plain, up to the
 * next comma. Written in place into the line; NULL when malformed. */
static char *field(char **pos) {
  char *s = *pos, *out = s, *start = s;
  if (*s == '"') {
    for (++s;; ++s) {
      if (!*s)
        return NULL;
      if (*s == '"' && s[1] == '"') {
        *out++ = '"';
        ++s;
      } else if (*s == '"') {
        ++s;
        break;
      } else {
        *out++ = *s;
      }
    }
  } else {
    while (*s && *s != ',')
      *out++ = *s++;
  }
  if (*s && *s != ',')
    return NULL;
  *pos = *s ? s + 1 : s;
  *out = '\0';
  return start;
}

static int number(const char *s, int base, uint64_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, base);
  if (!*s || *end || errno || *s == '-')
    return -1;
  *v = x;
  return 0;
}

/* Room for one more element of an array of `size` bytes each. */
static int grow(void **array, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return 0;
  size_t c = *cap ? 2 * *cap : 64;
  void *a = realloc(*array, c * size);
  if (!a)
    return -1;
  *array = a;
  *cap = c;
  return 0;
}

struct builder {
  struct pasta__hotness_csv *h;
  size_t cap_launches, cap_blocks, cap_cells;
};

/* Index of (allocation, block) among the blocks seen, added when new. */
static long block_index(struct builder *b, uint32_t alloc, uint64_t block,
                        uint64_t address) {
  struct pasta__hotness_csv *h = b->h;
  for (size_t i = 0; i < h->num_blocks; ++i)
    if (h->blocks[i].allocation == alloc && h->blocks[i].block == block)
      return (long)i;
  if (grow((void **)&h->blocks, &b->cap_blocks, h->num_blocks,
           sizeof *h->blocks))
    return -1;
  h->blocks[h->num_blocks] = (pasta_hotness_block){
      alloc, address - block * PASTA_HOTNESS_BLOCK_SIZE, block};
  return (long)h->num_blocks++;
}

/* Index of launch `id` (rows come launch by launch), added when new. */
static long launch_index(struct builder *b, uint64_t id, const char *kernel) {
  struct pasta__hotness_csv *h = b->h;
  if (h->num_launches && h->launches[h->num_launches - 1].id == id)
    return (long)h->num_launches - 1;
  char *name = strdup(kernel);
  if (!name || grow((void **)&h->launches, &b->cap_launches, h->num_launches,
                    sizeof *h->launches)) {
    free(name);
    return -1;
  }
  h->launches[h->num_launches] = (pasta_hotness_launch){id, name};
  return (long)h->num_launches++;
}

/* One data row. Returns 0, -1 when malformed, -2 without memory. */
static int add_row(struct builder *b, char *line) {
  char *pos = line;
  char *f[6];
  for (int i = 0; i < 6; ++i)
    if (!(f[i] = field(&pos)))
      return -1;
  uint64_t launch, alloc, block, address, accesses;
  if (*pos || number(f[0], 10, &launch) || number(f[2], 10, &alloc) ||
      alloc > UINT32_MAX || number(f[3], 10, &block) ||
      strncmp(f[4], "0x", 2) != 0 || number(f[4] + 2, 16, &address) ||
      number(f[5], 10, &accesses))
    return -1;
  long li = launch_index(b, launch, f[1]);
  long bi = li < 0 ? -1 : block_index(b, (uint32_t)alloc, block, address);
  struct pasta__hotness_csv *h = b->h;
  if (bi < 0 ||
      grow((void **)&h->cells, &b->cap_cells, h->num_cells, sizeof *h->cells))
    return -2;
  h->cells[h->num_cells++] =
      (pasta_hotness_cell){(uint32_t)li, (uint32_t)bi, accesses};
  return 0;
}

static void fill_model(struct pasta__hotness_csv *h) {
  h->model = (pasta_hotness){
      PASTA_HOTNESS_BLOCK_SIZE, h->blocks, h->num_blocks, h->launches,
      h->num_launches,          h->cells,  h->num_cells};
}

int pasta__hotness_read_csv(const char *path, struct pasta__hotness_csv *h,
                            char *err, size_t size) {
  memset(h, 0, sizeof *h);
  struct stat st;
  if (stat(path, &st) != 0)
    return 1; /* not there: a page without the map, silently */
  /* Found beside the profile, not named by the user: a fifo or a socket
   * there (in a shared directory, anyone's) would block the page for ever. */
  if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
    snprintf(err, size, "a %s, not a file (only a regular file is read)",
             S_ISFIFO(st.st_mode) ? "named pipe" : "socket");
    return -1;
  }
  /* Read whole, never from a device, never more than the limit. */
  size_t len = 0;
  char *text = pasta__read_capped(path, PASTA_MAX_INPUT_BYTES, &len, err, size);
  if (!text)
    return -1;
  FILE *f = fmemopen(text, len ? len : 1, "r");
  if (!f) {
    free(text);
    snprintf(err, size, "%s", strerror(errno));
    return -1;
  }
  if (!len)
    fgetc(f); /* fmemopen needs a size: an empty file reads as empty */
  struct builder b = {h, 0, 0, 0};
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  size_t number_of_line = 0;
  int rc = 0;
  while (!rc && (n = getline(&line, &cap, f)) >= 0) {
    ++number_of_line;
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = '\0';
    if (number_of_line == 1) {
      if (strcmp(line, header) != 0)
        rc = -1;
      continue;
    }
    rc = add_row(&b, line);
  }
  free(line);
  fclose(f);
  free(text);
  if (rc) {
    snprintf(err, size,
             rc == -2 ? "out of memory" : "line %zu is not a hotness row",
             number_of_line);
    pasta__hotness_csv_free(h);
    return -1;
  }
  fill_model(h);
  return 0;
}

void pasta__hotness_csv_free(struct pasta__hotness_csv *h) {
  for (size_t i = 0; i < h->num_launches; ++i)
    free((char *)h->launches[i].kernel);
  free(h->launches);
  free(h->blocks);
  free(h->cells);
  memset(h, 0, sizeof *h);
}
