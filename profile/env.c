/*===- env.c - Reading PASTA_* environment variables ---------------------===*/
#include "env.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int pasta__parse_flag(const char *s) {
  static const char *const yes[] = {"1", "on", "true", "yes"};
  static const char *const no[] = {"0", "off", "false", "no"};
  for (size_t i = 0; s && i < sizeof yes / sizeof *yes; ++i) {
    if (strcasecmp(s, yes[i]) == 0)
      return 1;
    if (strcasecmp(s, no[i]) == 0)
      return 0;
  }
  return -1;
}

int pasta__env_flag(const char *name, int fallback) {
  const char *v = getenv(name);
  if (!v || !*v)
    return fallback;
  int f = pasta__parse_flag(v);
  if (f >= 0)
    return f;
  fprintf(stderr,
          "pasta: warning: ignoring %s='%.80s' (not 1/0, on/off, true/false "
          "or yes/no); using %s\n",
          name, v, fallback ? "1" : "0");
  return fallback;
}

uint64_t pasta__env_u64(const char *name, uint64_t fallback, uint64_t min,
                        uint64_t max) {
  const char *v = getenv(name);
  if (!v || !*v)
    return fallback;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || *end || *v < '0' || *v > '9' || n < min || n > max) {
    fprintf(stderr,
            "pasta: warning: ignoring %s='%.80s' (not a number from %" PRIu64
            " to %" PRIu64 "); using %" PRIu64 "\n",
            name, v, min, max, fallback);
    return fallback;
  }
  return n;
}
