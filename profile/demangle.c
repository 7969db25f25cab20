/*===- demangle.c - C++ names as people read them -------------------------===*
 *
 * pasta_demangle() returns what the plugin recorded for a name (LLVM's
 * demangler, at compile time: pasta__demangle_remember), else calls the C++
 * runtime's __cxa_demangle. The reference is
 * weak, so that a C program linked without a C++ runtime still links and
 * runs; when it is not bound, the runtime is looked up once with dlsym (a
 * C++ library the program loaded) and then by loading libstdc++ or
 * libc++abi, and when none is found names stay mangled.
 *
 * pasta__short_name() works on the demangled text. It scans at the top
 * level, skipping over balanced (), <>, [] and {} groups and over operator
 * names, whose characters (`operator()`, `operator<<`, `operator->`) would
 * otherwise read as brackets.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* RTLD_DEFAULT, RTLD_NOLOAD */

#include "demangle.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*pasta__cxa_demangle_fn)(const char *, char *, size_t *, int *);

/* Weak: 0 in a program that links no C++ runtime. */
extern char *__cxa_demangle(const char *, char *, size_t *, int *)
    __attribute__((weak));

static _Atomic(uintptr_t) demangler; /* 0: not looked up yet */
static const uintptr_t NONE = 1;     /* looked up, none found */
static atomic_int disabled;

static uintptr_t look_up(void) {
  pasta__cxa_demangle_fn fn = __cxa_demangle;
  if (!fn)
    fn = (pasta__cxa_demangle_fn)(uintptr_t)dlsym(RTLD_DEFAULT,
                                                  "__cxa_demangle");
  static const char *const libs[] = {"libstdc++.so.6", "libc++abi.so.1"};
  for (size_t i = 0; !fn && i < sizeof libs / sizeof libs[0]; ++i) {
    /* Kept open: the pointer must stay valid for the process's life. */
    void *h = dlopen(libs[i], RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (!h)
      h = dlopen(libs[i], RTLD_LAZY | RTLD_LOCAL);
    if (h)
      fn = (pasta__cxa_demangle_fn)(uintptr_t)dlsym(h, "__cxa_demangle");
  }
  return fn ? (uintptr_t)fn : NONE;
}

void pasta__demangle_disable(int disable) { atomic_store(&disabled, disable); }

/*===-- Names the plugin demangled ----------------------------------------===*/

/* An open-addressing table of (mangled, shown) copies, under one lock. */
struct known_name {
  char *mangled, *shown;
};
static pthread_mutex_t known_mu = PTHREAD_MUTEX_INITIALIZER;
static struct known_name *known;
static size_t known_cap, known_num; /* cap: 0 or a power of two */

static size_t name_hash(const char *s) {
  uint64_t h = 14695981039346656037ull; /* FNV-1a */
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (size_t)h;
}

/* The slot of `mangled`, or the empty slot where it goes. */
static struct known_name *known_slot(struct known_name *table, size_t cap,
                                     const char *mangled) {
  for (size_t i = name_hash(mangled) & (cap - 1);; i = (i + 1) & (cap - 1))
    if (!table[i].mangled || strcmp(table[i].mangled, mangled) == 0)
      return &table[i];
}

static char *copy_of(const char *s) {
  size_t len = strlen(s) + 1;
  char *c = malloc(len);
  return c ? memcpy(c, s, len) : NULL;
}

int pasta__demangle_remember(const char *mangled, const char *shown) {
  if (!mangled || !shown)
    return 0;
  int rc = 0;
  pthread_mutex_lock(&known_mu);
  if (2 * (known_num + 1) > known_cap) {
    size_t cap = known_cap ? 2 * known_cap : 64;
    struct known_name *table = calloc(cap, sizeof *table);
    if (!table) {
      rc = -1;
      goto out;
    }
    for (size_t i = 0; i < known_cap; ++i)
      if (known[i].mangled)
        *known_slot(table, cap, known[i].mangled) = known[i];
    free(known);
    known = table;
    known_cap = cap;
  }
  struct known_name *k = known_slot(known, known_cap, mangled);
  if (!k->mangled) {
    char *m = copy_of(mangled), *d = copy_of(shown);
    if (!m || !d) {
      free(m);
      free(d);
      rc = -1;
      goto out;
    }
    *k = (struct known_name){m, d};
    ++known_num;
  }
out:
  pthread_mutex_unlock(&known_mu);
  return rc;
}

/* A copy of what the plugin recorded for `mangled`; NULL when nothing (or
 * out of memory). */
static char *recorded(const char *mangled) {
  char *shown = NULL;
  pthread_mutex_lock(&known_mu);
  if (known_num) {
    struct known_name *k = known_slot(known, known_cap, mangled);
    if (k->mangled)
      shown = copy_of(k->shown);
  }
  pthread_mutex_unlock(&known_mu);
  return shown;
}

char *pasta_demangle(const char *mangled) {
  if (!mangled)
    return NULL;
  char *shown = recorded(mangled);
  if (shown)
    return shown;
  if (mangled[0] != '_' || mangled[1] != 'Z' || atomic_load(&disabled))
    return NULL;
  uintptr_t fn = atomic_load(&demangler);
  if (!fn) {
    fn = look_up(); /* racing threads find the same function */
    atomic_store(&demangler, fn);
  }
  if (fn == NONE)
    return NULL;
  int status = -1;
  char *out = ((pasta__cxa_demangle_fn)fn)(mangled, NULL, NULL, &status);
  if (status == 0)
    return out;
  free(out);
  /* Under -fgpu-rdc, clang makes kernels of internal linkage (a lambda's,
   * a static one) unique across the program: "<mangled>__intern__<hex>".
   * The name is the part before. */
  const char *intern = strstr(mangled, "__intern__");
  if (!intern || !intern[10] ||
      strspn(intern + 10, "0123456789abcdef") != strlen(intern + 10))
    return NULL;
  char *base = strndup(mangled, (size_t)(intern - mangled));
  if (!base)
    return NULL;
  out = ((pasta__cxa_demangle_fn)fn)(base, NULL, NULL, &status);
  free(base);
  if (status != 0) {
    free(out);
    return NULL;
  }
  return out;
}

char *pasta__display_name_dup(const char *name) {
  if (!name)
    return NULL;
  char *d = pasta_demangle(name);
  if (d)
    return d;
  size_t len = strlen(name) + 1;
  d = malloc(len);
  return d ? memcpy(d, name, len) : NULL;
}

/*===-- Shortening --------------------------------------------------------===*/

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* Length of the operator name that starts at s[i] ("operator()",
 * "operator<<", "operator new[]", "operator unsigned int"), or 0. */
static size_t operator_len(const char *s, size_t i) {
  static const char kw[] = "operator";
  if (strncmp(s + i, kw, sizeof kw - 1) != 0 || (i && ident_char(s[i - 1])))
    return 0;
  size_t j = i + sizeof kw - 1;
  if (ident_char(s[j]))
    return 0; /* operatorX is an identifier */
  if ((s[j] == '(' && s[j + 1] == ')') || (s[j] == '[' && s[j + 1] == ']'))
    return j + 2 - i;
  if (s[j] == ' ') { /* new, delete, a conversion, a literal suffix */
    size_t k = j + 1;
    while (ident_char(s[k]) || (s[k] == ' ' && ident_char(s[k + 1])))
      ++k;
    if (s[k] == '[' && s[k + 1] == ']')
      k += 2;
    return k > j + 1 ? k - i : j - i;
  }
  size_t k = j;
  while (k < j + 3 && s[k] && strchr("+-*/%^&|~!=<>,", s[k]))
    ++k;
  return k - i;
}

/* Index just past the group that opens at s[i], or strlen(s) when it is not
 * closed. */
static size_t group_end(const char *s, size_t i) {
  char stack[64];
  size_t depth = 0;
  while (s[i]) {
    size_t op = operator_len(s, i);
    if (op) {
      i += op;
      continue;
    }
    char c = s[i];
    char close = c == '('   ? ')'
                 : c == '<' ? '>'
                 : c == '[' ? ']'
                 : c == '{' ? '}'
                            : 0;
    if (close) {
      if (depth < sizeof stack)
        stack[depth] = close;
      ++depth;
    } else if (depth && (c == ')' || c == ']' || c == '}' ||
                         (c == '>' && (i == 0 || s[i - 1] != '-')))) {
      /* A mismatched closer (a '>' of an expression) is taken as ours. */
      --depth;
      if (!depth)
        return i + 1;
    }
    ++i;
  }
  return i;
}

struct parts {
  size_t name, params, params_end, len; /* [name, params) is the name */
};

/* Splits "ret ns::f<T>(args) const" into its name and parameter list. The
 * parameter list is the last top-level (...) that is not
 * "(anonymous namespace)"; without one, all of `s` is the name. */
static void split(const char *s, struct parts *p) {
  p->len = strlen(s);
  p->name = 0;
  p->params = p->params_end = p->len;
  size_t last_space = SIZE_MAX;
  for (size_t i = 0; i < p->len;) {
    size_t op = operator_len(s, i);
    if (op) {
      i += op;
      if (s[i] == ' ') /* "operator< <int>": not the return type's end */
        ++i;
      continue;
    }
    char c = s[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') {
      size_t end = group_end(s, i);
      if (c == '(' && strncmp(s + i, "(anonymous namespace)", 21) != 0) {
        p->params = i;
        p->params_end = end;
        p->name = last_space == SIZE_MAX ? 0 : last_space + 1;
      }
      i = end;
      continue;
    }
    if (c == ' ' && p->params == p->len)
      last_space = i;
    ++i;
  }
  if (p->params == p->len)
    p->name = 0;
}

/* Appends s[from, to) to out, with every top-level template argument list
 * as "<...>" when `templates`; returns the new length. */
static size_t put_name(char *out, size_t size, size_t len, const char *s,
                       size_t from, size_t to, int templates) {
  for (size_t i = from; i < to;) {
    size_t op = operator_len(s, i), n = 1;
    const char *text = s + i;
    size_t adv = 1;
    if (op) {
      n = adv = op;
    } else if (strchr("(<[{", s[i])) {
      size_t end = group_end(s, i);
      if (end > to)
        end = to;
      n = adv = end - i;
      if (s[i] == '<' && templates) {
        text = end - i > 2 ? "<...>" : "<>";
        n = strlen(text);
      }
    }
    for (size_t k = 0; k < n && len + 1 < size; ++k)
      out[len++] = text[k];
    i += adv;
  }
  out[len < size ? len : size - 1] = '\0';
  return len;
}

char *pasta__short_name(const char *name, size_t width, char *out,
                        size_t size) {
  if (!size)
    return out;
  out[0] = '\0';
  if (!name)
    return out;
  size_t len = strlen(name);
  if (len <= width) {
    snprintf(out, size, "%s", name);
    return out;
  }
  struct parts p;
  split(name, &p);
  size_t n;
  /* Without the return type. */
  n = put_name(out, size, 0, name, p.name, p.len, 0);
  if (n <= width)
    return out;
  /* Template arguments elided, then the parameters too. */
  for (int params = 0; params < 2; ++params) {
    n = put_name(out, size, 0, name, p.name, p.params, 1);
    if (p.params < p.len) {
      if (params)
        n = put_name(out, size, n, p.params_end - p.params > 2 ? "(...)" : "()",
                     0, p.params_end - p.params > 2 ? 5 : 2, 0);
      else
        n = put_name(out, size, n, name, p.params, p.params_end, 0);
    }
    if (n <= width)
      return out;
  }
  /* Leading scopes elided: keep the most trailing ones that fit. */
  char *full = malloc(n + 1);
  if (!full)
    return out;
  memcpy(full, out, n + 1);
  size_t cut = 0; /* start of the scope after the latest "::" */
  for (size_t i = 0; i < n;) {
    if (strchr("(<[{", full[i]) && !operator_len(full, i)) {
      i = group_end(full, i);
      continue;
    }
    size_t op = operator_len(full, i);
    if (op) {
      i += op;
      continue;
    }
    if (full[i] == ':' && full[i + 1] == ':') {
      cut = i + 2;
      if (n - cut + 5 <= width) {
        snprintf(out, size, "...::%s", full + cut);
        free(full);
        return out;
      }
      i += 2;
      continue;
    }
    ++i;
  }
  /* The last scope alone; if even it is too long (or `name` has no
   * structure at all, e.g. it is still mangled), the middle of its
   * identifier gives way, its "<...>(...)" stays: head and tail both tell
   * names apart, a head alone may not. */
  const char *last = full + cut;
  size_t last_len = strlen(last), base = 0;
  while (base < last_len && last[base] != '<' && last[base] != '(')
    ++base;
  size_t suffix = last_len - base;
  if (last_len <= width || width < suffix + 8) {
    snprintf(out, size, "%s", last);
  } else {
    size_t room = width - suffix, tail = (room - 3) / 3;
    size_t head = room - 3 - tail;
    snprintf(out, size, "%.*s...%s", (int)head, last, last + base - tail);
  }
  free(full);
  return out;
}

/*===-- Table columns -----------------------------------------------------===*/

struct short_entry {
  const char *full, *text;
  size_t row;
  unsigned num; /* " #num", 0 for none */
};

static int cmp_short(const void *pa, const void *pb) {
  const struct short_entry *a = pa, *b = pb;
  int c = strcmp(a->text, b->text);
  return c ? c : (a->row > b->row) - (a->row < b->row);
}

char **pasta__short_names(const char *const *names, size_t n, size_t width) {
  enum { CELL = 512, MARK = 24 };
  size_t slot = (width < CELL - MARK ? width : CELL - MARK) * 4 + MARK;
  if (slot > CELL)
    slot = CELL;
  char **cells = malloc((n ? n : 1) * (sizeof *cells + slot));
  struct short_entry *e = malloc((n ? n : 1) * sizeof *e);
  if (!cells || !e) {
    free(cells);
    free(e);
    return NULL;
  }
  char *text = (char *)(cells + n);
  for (size_t i = 0; i < n; ++i) {
    cells[i] = text + i * slot;
    const char *full = names[i] ? names[i] : "?";
    pasta__short_name(full, width, cells[i], slot - MARK);
    e[i] = (struct short_entry){full, cells[i], i, 0};
  }
  if (n > 1)
    qsort(e, n, sizeof *e, cmp_short);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1, distinct = 1;
    for (; j < n && strcmp(e[j].text, e[i].text) == 0; ++j)
      distinct += strcmp(e[j].full, e[i].full) != 0;
    /* Number the distinct full names of a shared short form in row order;
     * rows with the same full name share a number. */
    unsigned next = 0;
    for (size_t k = i; distinct > 1 && k < j; ++k) {
      for (size_t m = i; m < k && !e[k].num; ++m)
        if (strcmp(e[m].full, e[k].full) == 0)
          e[k].num = e[m].num;
      if (!e[k].num)
        e[k].num = ++next;
    }
    i = j;
  }
  for (size_t i = 0; i < n; ++i)
    if (e[i].num) {
      size_t len = strlen(cells[e[i].row]);
      snprintf(cells[e[i].row] + len, slot - len, " #%u", e[i].num);
    }
  free(e);
  return cells;
}
