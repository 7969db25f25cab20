/*===- regex_cost.h - What a user's regular expression costs to compile ---===*
 *
 * Internal, header-only (C and C++): the one check shared by every place
 * that compiles a regular expression the user gives (PASTA_KERNELS in the
 * compiler plugin, PASTA_INSTRUMENT_KERNELS in the runtime, pasta-report
 * show --kernel). Backtracking-free engines (glibc's, LLVM's) still expand
 * a counted repetition into copies of what it repeats, so nested counts
 * multiply: ((((a{1,100}){1,100}){1,100}){1,100}) compiles for minutes into
 * gigabytes. pasta_regex_cost estimates the size of that expansion (atoms
 * after every count is expanded, alternatives added up); an expression
 * above PASTA_REGEX_MAX_COST is refused before it is compiled.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_REGEX_COST_H
#define PASTA_REGEX_COST_H

#include <stddef.h>

/* ((a{1,20}){1,20}){1,20} costs 8,000 and compiles in a millisecond;
 * ((a{1,100}){1,100}){1,100} costs 1,000,000 (glibc: 1.2 s, 1.1 GB). */
#define PASTA_REGEX_MAX_COST 100000.0

/* Nesting deeper than this is refused too (its cost is not estimated). */
#define PASTA_REGEX_MAX_DEPTH 64

/* The estimated expanded size of POSIX extended regular expression `re`
 * (any value above PASTA_REGEX_MAX_COST means "refuse"). Malformed input
 * gets some estimate: the regex compiler says what is wrong with it. */
static inline double pasta_regex_cost(const char *re) {
  double total[PASTA_REGEX_MAX_DEPTH + 1], last[PASTA_REGEX_MAX_DEPTH + 1];
  int depth = 0;
  total[0] = last[0] = 0;
  for (const char *p = re; *p; ++p) {
    double atom = 1;
    switch (*p) {
    case '\\':
      if (p[1])
        ++p;
      break;
    case '[': /* a bracket expression is one atom */
      ++p;
      if (*p == '^')
        ++p;
      if (*p == ']')
        ++p;
      while (*p && *p != ']') {
        if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
          char end = p[1];
          p += 2;
          while (*p && !(p[0] == end && p[1] == ']'))
            ++p;
          if (*p)
            ++p;
        }
        if (*p)
          ++p;
      }
      if (!*p)
        return total[0] + 1; /* unterminated: regcomp refuses it */
      break;
    case '(':
      if (depth == PASTA_REGEX_MAX_DEPTH)
        return PASTA_REGEX_MAX_COST * 2;
      ++depth;
      total[depth] = last[depth] = 0;
      continue;
    case ')':
      if (depth == 0)
        break; /* a literal ')' in ERE */
      atom = total[depth] > 1 ? total[depth] : 1;
      --depth;
      break;
    case '|':
      last[depth] = 0;
      continue;
    case '*':
    case '+':
    case '?':
      total[depth] += last[depth];
      last[depth] *= 2;
      continue;
    case '{': {
      const char *q = p + 1;
      double m = 0, n = -1;
      while (*q >= '0' && *q <= '9' && m < 1e9)
        m = m * 10 + (*q++ - '0');
      if (q == p + 1)
        break; /* not a count: a literal '{' */
      if (*q == ',') {
        ++q;
        n = 0;
        int digits = 0;
        while (*q >= '0' && *q <= '9' && n < 1e9) {
          n = n * 10 + (*q++ - '0');
          digits = 1;
        }
        if (!digits)
          n = m + 1; /* {m,}: m copies and a star */
      }
      if (*q != '}')
        break;
      double count = n > m ? n : m;
      if (count < 1)
        count = 1;
      double grown = last[depth] * count;
      total[depth] += grown - last[depth];
      last[depth] = grown;
      p = q;
      if (total[depth] > PASTA_REGEX_MAX_COST * 2)
        return total[depth];
      continue;
    }
    default:
      break;
    }
    total[depth] += atom;
    last[depth] = atom;
    if (total[depth] > PASTA_REGEX_MAX_COST * 2)
      return total[depth];
  }
  double cost = 0;
  for (int d = 0; d <= depth; ++d)
    cost += total[d];
  return cost;
}

#endif
