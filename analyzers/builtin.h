/*===- builtin.h - PASTA's own analyzers, as the runtime drives them ------===*
 *
 * Every analysis PASTA ships is an analyzer behind the public interface
 * (include/pasta/analyzer.h): the host runtime registers these first, in
 * this order (their output comes first), then the JSON profile, then the
 * program's own. Some also derive sections of the profile before any
 * report runs (prepare, release): the JSON profile carries those sections
 * whichever analyzers PASTA_ANALYZERS selects.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_BUILTIN_H
#define PASTA_ANALYZERS_BUILTIN_H

#include <stddef.h>

#include "pasta/analyzer.h"
#include "pasta/profile.h"

typedef struct pasta__builtin_hooks {
  /* Adds the analyzer's sections to p before the reports. Returns 0, or -1
   * when it could not (the sections are then missing). */
  int (*prepare)(pasta_profile *p);
  /* Frees what prepare added, after the reports. */
  void (*release)(pasta_profile *p);
} pasta__builtin_hooks;

typedef struct pasta__builtin_analyzer {
  const pasta_analyzer *analyzer;
  const pasta__builtin_hooks *hooks; /* or NULL */
} pasta__builtin_analyzer;

/* tables, kernels, working-set, bandwidth, trace. */
extern const pasta__builtin_analyzer pasta__builtin_analyzers[];
extern const size_t pasta__num_builtin_analyzers;

/* Each analyzer's own definition (analyzers/<name>/). */
extern const pasta_analyzer pasta__tables_analyzer;
extern const pasta_analyzer pasta__kernels_analyzer;
extern const pasta_analyzer pasta__working_set_analyzer;
extern const pasta_analyzer pasta__bandwidth_analyzer;
extern const pasta_analyzer pasta__trace_analyzer;
extern const pasta__builtin_hooks pasta__trace_hooks;

#endif
