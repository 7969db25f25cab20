/* A small command-line tool started many times, as a build or a test suite
 * starts its tools (docs/performance.md, "Host-code counting"): counts the
 * lines, words and bytes of its input files like wc, or prints its version
 * (-V). Each process does little work: what it costs is the process's
 * start and exit.
 * usage: cli [-l] [-w] [-c] [-V] FILE... */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

struct counts {
  unsigned long lines, words, bytes;
};

/* Not inlined: a real tool's functions live in several files. */
__attribute__((noinline)) static void count(FILE *f, struct counts *c) {
  int in_word = 0, ch;
  while ((ch = getc(f)) != EOF) {
    ++c->bytes;
    if (ch == '\n')
      ++c->lines;
    if (isspace(ch)) {
      in_word = 0;
    } else if (!in_word) {
      in_word = 1;
      ++c->words;
    }
  }
}

__attribute__((noinline)) static void print(const struct counts *c, int l,
                                            int w, int b, const char *name) {
  if (l)
    printf(" %7lu", c->lines);
  if (w)
    printf(" %7lu", c->words);
  if (b)
    printf(" %7lu", c->bytes);
  printf(" %s\n", name);
}

int main(int argc, char **argv) {
  int l = 0, w = 0, b = 0, files = 0, status = 0;
  struct counts total = {0, 0, 0};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "-V") == 0) {
      printf("cli 1.0\n");
      return 0;
    }
    if (a[0] == '-' && a[1]) {
      for (const char *o = a + 1; *o; ++o) {
        if (*o == 'l')
          l = 1;
        else if (*o == 'w')
          w = 1;
        else if (*o == 'c')
          b = 1;
        else {
          fprintf(stderr, "cli: unknown option -%c\n", *o);
          return 2;
        }
      }
      continue;
    }
    FILE *f = fopen(a, "r");
    if (!f) {
      fprintf(stderr, "cli: cannot open %s\n", a);
      status = 1;
      continue;
    }
    struct counts c = {0, 0, 0};
    count(f, &c);
    fclose(f);
    if (!l && !w && !b)
      l = w = b = 1;
    print(&c, l, w, b, a);
    total.lines += c.lines;
    total.words += c.words;
    total.bytes += c.bytes;
    ++files;
  }
  if (files > 1)
    print(&total, l, w, b, "total");
  return status;
}
