/*===- analyzer_registry.h - The registered analyzers ----------------------===*
 *
 * Private to host_rt: the analyzers registered (built-ins first, then
 * pasta_register_analyzer's), which of them PASTA_ANALYZERS selects, and
 * the calls that hand them events, modules and the report.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_ANALYZER_REGISTRY_H
#define PASTA_HOST_RT_ANALYZER_REGISTRY_H

#include "pasta/abi.h"
#include "pasta/analyzer.h"
#include "pasta/profile.h"

/* Hand a live event to the selected analyzers. */
void pasta__notify_launch(const pasta_launch_event *e);
void pasta__notify_allocation(const pasta_allocation_event *e);

#pragma GCC visibility push(hidden)

/* Registers the built-in analyzers once (they come first, so their output
 * does), then selects those the list names (runtime.h). */
void pasta__register_builtins(void);
void pasta__select_analyzers(const char *list, int warn);
/* Whether the analyzer called `name` runs in this report. */
int pasta__analyzer_active(const char *name);
/* The selected analyzers' on_module hooks, for module d. */
void pasta__analyzers_on_module(const struct pasta_module_desc *d,
                                const uint64_t *counters);
/* The selected analyzers' on_report, in registration order. */
void pasta__analyzers_report(const pasta_profile *p,
                             const pasta_analyzer_context *ctx);

#pragma GCC visibility pop

#endif
