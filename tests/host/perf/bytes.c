/* A zlib-like byte-crunching workload (docs/performance.md, "Host-code
 * counting"): an LZ77 compressor with hash chains and a bit writer, its
 * decompressor, a CRC-32 and an Adler-32, over generated text. Small hot
 * helpers inlined as zlib's macros are, and, as in zlib, a call per input
 * position to longest_match and a call per buffer to the checksums.
 * usage: bytes [MiB] [rounds]; prints the checksums and exits 1 if a round
 * trip differs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HASH_BITS = 15, WINDOW = 1 << 15, MIN_MATCH = 4, MAX_MATCH = 258 };
enum { MAX_CHAIN = 32 };

struct bits {
  uint8_t *out;
  size_t pos;
  uint64_t acc;
  unsigned n;
};

static void put_bits(struct bits *b, uint32_t v, unsigned n) {
  b->acc |= (uint64_t)v << b->n;
  b->n += n;
  while (b->n >= 8) {
    b->out[b->pos++] = (uint8_t)b->acc;
    b->acc >>= 8;
    b->n -= 8;
  }
}

static void flush_bits(struct bits *b) {
  if (b->n)
    b->out[b->pos++] = (uint8_t)b->acc;
  b->acc = 0;
  b->n = 0;
}

static uint32_t hash4(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return (v * 2654435761u) >> (32 - HASH_BITS);
}

static unsigned match_length(const uint8_t *a, const uint8_t *b, unsigned max) {
  unsigned n = 0;
  while (n < max && a[n] == b[n])
    ++n;
  return n;
}

__attribute__((noinline)) static unsigned
longest_match(const uint8_t *in, size_t pos, size_t end, const int32_t *head,
              const int32_t *prev, unsigned *dist) {
  unsigned best = 0, chain = MAX_CHAIN;
  unsigned max = end - pos < MAX_MATCH ? (unsigned)(end - pos) : MAX_MATCH;
  int32_t cand = head[hash4(in + pos)];
  while (cand >= 0 && pos - (size_t)cand <= WINDOW && chain--) {
    unsigned len = match_length(in + cand, in + pos, max);
    if (len > best) {
      best = len;
      *dist = (unsigned)(pos - (size_t)cand);
      if (len == max)
        break;
    }
    cand = prev[cand & (WINDOW - 1)];
  }
  return best;
}

static void insert(const uint8_t *in, size_t pos, int32_t *head,
                   int32_t *prev) {
  uint32_t h = hash4(in + pos);
  prev[pos & (WINDOW - 1)] = head[h];
  head[h] = (int32_t)pos;
}

/* Literal: 0 + 8 bits; match: 1 + 8 bits of length - MIN_MATCH + 15 bits of
 * distance - 1. */
static size_t compress(const uint8_t *in, size_t n, uint8_t *out, int32_t *head,
                       int32_t *prev) {
  struct bits b = {out, 0, 0, 0};
  for (size_t i = 0; i < (1u << HASH_BITS); ++i)
    head[i] = -1;
  size_t pos = 0;
  while (pos < n) {
    unsigned dist = 0, len = 0;
    if (n - pos >= MIN_MATCH)
      len = longest_match(in, pos, n, head, prev, &dist);
    if (len >= MIN_MATCH) {
      put_bits(&b, 1, 1);
      put_bits(&b, len - MIN_MATCH, 8);
      put_bits(&b, dist - 1, 15);
      for (unsigned k = 0; k < len; ++k, ++pos)
        if (n - pos >= MIN_MATCH)
          insert(in, pos, head, prev);
    } else {
      put_bits(&b, (uint32_t)in[pos] << 1, 9);
      if (n - pos >= MIN_MATCH)
        insert(in, pos, head, prev);
      ++pos;
    }
  }
  flush_bits(&b);
  return b.pos;
}

static uint32_t get_bits(const uint8_t *in, size_t *bitpos, unsigned n) {
  uint32_t v = 0;
  for (unsigned i = 0; i < n; ++i, ++*bitpos)
    v |= (uint32_t)((in[*bitpos >> 3] >> (*bitpos & 7)) & 1) << i;
  return v;
}

static size_t decompress(const uint8_t *in, uint8_t *out, size_t n) {
  size_t bitpos = 0, pos = 0;
  while (pos < n) {
    if (get_bits(in, &bitpos, 1)) {
      unsigned len = get_bits(in, &bitpos, 8) + MIN_MATCH;
      unsigned dist = get_bits(in, &bitpos, 15) + 1;
      for (unsigned k = 0; k < len; ++k, ++pos)
        out[pos] = out[pos - dist];
    } else {
      out[pos++] = (uint8_t)get_bits(in, &bitpos, 8);
    }
  }
  return pos;
}

static uint32_t crc_table[256];

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k)
      c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}

__attribute__((noinline)) static uint32_t crc32(uint32_t crc, const uint8_t *p,
                                                size_t n) {
  crc = ~crc;
  while (n--)
    crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}

__attribute__((noinline)) static uint32_t adler32(const uint8_t *p, size_t n) {
  uint32_t a = 1, b = 0;
  while (n) {
    size_t k = n < 5552 ? n : 5552;
    n -= k;
    while (k--) {
      a += *p++;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return b << 16 | a;
}

/* Text-like input: words from a small vocabulary, a pseudo-random order. */
static void generate(uint8_t *buf, size_t n) {
  static const char *const words[] = {
      "the ",  "quick ", "brown ",  "fox ",  "jumps ", "over ",
      "lazy ", "dog ",   "pack ",   "my ",   "box ",   "with ",
      "five ", "dozen ", "liquor ", "jugs ", "\n",     "and "};
  uint64_t x = 88172645463325252ull;
  size_t pos = 0;
  while (pos < n) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const char *w = words[x % (sizeof words / sizeof *words)];
    for (; *w && pos < n; ++w)
      buf[pos++] = (uint8_t)*w;
  }
}

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 4;
  int rounds = argc > 2 ? atoi(argv[2]) : 2;
  size_t n = mib << 20;
  uint8_t *in = malloc(n), *packed = malloc(n + n / 4 + 16), *back = malloc(n);
  int32_t *head = malloc(sizeof *head << HASH_BITS),
          *prev = malloc(sizeof *prev * WINDOW);
  if (!in || !packed || !back || !head || !prev)
    return 2;
  generate(in, n);
  crc_init();
  uint32_t crc = 0, adler = 0;
  size_t packed_size = 0;
  for (int r = 0; r < rounds; ++r) {
    packed_size = compress(in, n, packed, head, prev);
    memset(back, 0, n);
    if (decompress(packed, back, n) != n || memcmp(in, back, n) != 0) {
      fprintf(stderr, "bytes: round trip %d differs\n", r);
      return 1;
    }
    crc = crc32(crc, back, n);
    adler += adler32(packed, packed_size);
  }
  printf("bytes: %zu -> %zu, crc %08x adler %08x\n", n, packed_size,
         (unsigned)crc, (unsigned)adler);
  free(in);
  free(packed);
  free(back);
  free(head);
  free(prev);
  return 0;
}
