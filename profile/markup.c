/*===- markup.c - Text in HTML and SVG (XML) ------------------------------===*
 *
 * See markup.h.
 *===----------------------------------------------------------------------===*/
#include "markup.h"

#include <stddef.h>

/* Length of the valid UTF-8 sequence at `p` (a byte >= 0x80) that XML 1.0
 * allows, or 0. */
static size_t utf8_len(const unsigned char *p) {
  unsigned char c = p[0];
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF; /* range of the second byte */
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0)
      lo = 0xA0;
    else if (c == 0xED)
      hi = 0x9F; /* no surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0)
      lo = 0x90;
    else if (c == 0xF4)
      hi = 0x8F;
  } else {
    return 0;
  }
  if (p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < len; ++i)
    if (p[i] < 0x80 || p[i] > 0xBF)
      return 0;
  if (c == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF))
    return 0; /* U+FFFE, U+FFFF */
  return len;
}

/* The entity of a character that markup reserves, or NULL. */
static const char *entity(unsigned char c) {
  static const struct {
    char c;
    const char *entity;
  } entities[] = {{'&', "&amp;"},
                  {'<', "&lt;"},
                  {'>', "&gt;"},
                  {'"', "&quot;"},
                  {'\'', "&#39;"}};
  for (size_t i = 0; i < sizeof entities / sizeof *entities; ++i)
    if (entities[i].c == (char)c)
      return entities[i].entity;
  return NULL;
}

void pasta__markup_text(FILE *out, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  while (p && *p) {
    unsigned char c = *p;
    const char *e = entity(c);
    if (e) {
      fputs(e, out);
    } else if ((c < 0x20 && c != '\t') || c == 0x7f) {
      fputc('?', out);
    } else if (c < 0x80) {
      fputc(c, out);
    } else {
      size_t len = utf8_len(p);
      if (len) {
        fwrite(p, 1, len, out);
        p += len;
        continue;
      }
      fputc('?', out);
    }
    ++p;
  }
}
