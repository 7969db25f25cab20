/*===- analyzer_registry.c - The registered analyzers ----------------------===*
 *
 * pasta_register_analyzer (public), the built-ins registered first, the
 * selection PASTA_ANALYZERS makes (per report, and once for live events),
 * and the calls that hand analyzers live events, modules and the report.
 * Launch and memory wrappers call down into it; nothing here calls them.
 *===----------------------------------------------------------------------===*/
#include "analyzer_registry.h"
#include "analyzers/builtin.h"
#include "options.h"
#include "output.h"
#include "profile/diag.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static pasta_analyzer pasta__analyzers[PASTA_MAX_ANALYZERS];
static size_t pasta__num_analyzers;
static int pasta__builtins_registered;

int pasta_register_analyzer(const pasta_analyzer *a) {
  pasta__register_builtins();
  if (!a || !a->name || !*a->name ||
      pasta__num_analyzers == PASTA_MAX_ANALYZERS)
    return -1;
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    if (strcmp(pasta__analyzers[i].name, a->name) == 0)
      return -1;
  pasta__analyzers[pasta__num_analyzers++] = *a;
  return 0;
}

/* Which registered analyzers run in this report. */
static unsigned char pasta__active[PASTA_MAX_ANALYZERS];

/* Marks the analyzers a list selects (all when NULL): names separated by
 * commas or semicolons, blanks around them ignored, letter case too. Each
 * name no analyzer has gets one warning; a list that names no analyzer at
 * all selects every one, with one line saying so (better the full report
 * than none after the whole run). */
void pasta__select_analyzers(const char *list, int warn) {
  int any = 0;
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    pasta__active[i] = list == NULL;
  size_t len;
  for (const char *p = list ? list : "", *s;
       (s = pasta__analyzer_list_next(&p, &len));) {
    int known = 0;
    for (size_t i = 0; i < pasta__num_analyzers; ++i)
      if (strlen(pasta__analyzers[i].name) == len &&
          strncasecmp(pasta__analyzers[i].name, s, len) == 0)
        known = pasta__active[i] = 1;
    any |= known;
    if (!known && len && warn)
      PASTA_WARN("PASTA_ANALYZERS names '%.*s', which is no "
                 "analyzer of this program; ignored\n",
                 (int)(len < 80 ? len : 80), s);
  }
  if (!list || any)
    return;
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    pasta__active[i] = 1;
  if (!warn)
    return;
  PASTA_WARN("PASTA_ANALYZERS='%.200s' selects none of "
             "this program's analyzers (",
             list);
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    fprintf(stderr, "%s%s", i ? ", " : "", pasta__analyzers[i].name);
  fprintf(stderr, "); all of them run\n");
}

/* Whether the analyzer called `name` runs in this report. */
int pasta__analyzer_active(const char *name) {
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    if (pasta__active[i] && strcmp(pasta__analyzers[i].name, name) == 0)
      return 1;
  return 0;
}

/* Live events go to the analyzers PASTA_ANALYZERS selects, chosen on the
 * first event (analyzers register from constructors, before any launch). */
static pthread_once_t pasta__live_once = PTHREAD_ONCE_INIT;
static unsigned char pasta__live[PASTA_MAX_ANALYZERS];

static void pasta__select_live(void) {
  struct pasta__options o;
  pasta__read_options(&o);
  pasta__register_builtins();
  pasta__select_analyzers(o.analyzers, 0); /* the report warns */
  memcpy(pasta__live, pasta__active, sizeof pasta__live);
}

void pasta__notify_launch(const pasta_launch_event *e) {
  pthread_once(&pasta__live_once, pasta__select_live);
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    if (pasta__live[i] && pasta__analyzers[i].on_launch)
      pasta__analyzers[i].on_launch(pasta__analyzers[i].state, e);
}

void pasta__notify_allocation(const pasta_allocation_event *e) {
  pthread_once(&pasta__live_once, pasta__select_live);
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    if (pasta__live[i] && pasta__analyzers[i].on_allocation)
      pasta__analyzers[i].on_allocation(pasta__analyzers[i].state, e);
}

void pasta__analyzers_on_module(const struct pasta_module_desc *d,
                                const uint64_t *counters) {
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    if (pasta__active[i] && pasta__analyzers[i].on_module)
      pasta__analyzers[i].on_module(pasta__analyzers[i].state, d, counters);
}

void pasta__analyzers_report(const pasta_profile *p,
                             const pasta_analyzer_context *ctx) {
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    if (pasta__active[i])
      pasta__analyzers[i].on_report(pasta__analyzers[i].state, p, ctx);
}

/* The built-ins come first, so their output comes first. */
void pasta__register_builtins(void) {
  if (pasta__builtins_registered)
    return;
  pasta__builtins_registered = 1;
  for (size_t i = 0; i < pasta__num_builtin_analyzers; ++i)
    pasta_register_analyzer(pasta__builtin_analyzers[i].analyzer);
  pasta_register_analyzer(&pasta__json_analyzer);
  pasta_register_analyzer(&pasta__html_analyzer);
}
