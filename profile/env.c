/*===- env.c - Reading PASTA_* environment variables ----------------------===*
 *
 * And the job's identity: what MPI and Slurm launchers tell a process
 * about its place in the job, through its environment.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* gethostname under C11, secure_getenv */

#include "env.h"
#include "diag.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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

const char *pasta__env_trusted(const char *name) { return secure_getenv(name); }

int pasta__env_flag(const char *name, int fallback) {
  const char *v = getenv(name);
  if (!v || !*v)
    return fallback;
  int f = pasta__parse_flag(v);
  if (f >= 0)
    return f;
  PASTA_WARN("ignoring %s='%.80s' (not 1/0, on/off, true/false "
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
    PASTA_WARN("ignoring %s='%.80s' (not a number from %" PRIu64 " to %" PRIu64
               "); using %" PRIu64 "\n",
               name, v, min, max, fallback);
    return fallback;
  }
  return n;
}

/* A launcher's variables: rank, size, local rank (NULL: it has none). */
struct launcher_vars {
  const char *name, *rank, *size, *local_rank;
};

static const struct launcher_vars launchers[] = {
    {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
     "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"pmix", "PMIX_RANK", NULL, NULL},
    {"pmi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    {"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};
enum { NUM_LAUNCHERS = sizeof launchers / sizeof *launchers };

/* Variable `name` as a number from 0 to 2^31 - 1, or -1 when unset; a value
 * that is not one is said once and counts as unset. */
static int64_t job_number(const char *name) {
  const char *v = name ? getenv(name) : NULL;
  if (!v || !*v)
    return -1;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || *end || *v < '0' || *v > '9' || n > INT32_MAX) {
    PASTA_WARN("ignoring %s='%.80s' (not a rank or a number of "
               "ranks); the profile does not use it\n",
               name, v);
    return -1;
  }
  return (int64_t)n;
}

void pasta__job_from_env(pasta_profile_job *job, char *host, size_t size) {
  memset(job, 0, sizeof *job);
  job->rank = job->size = job->local_rank = -1;
  for (unsigned i = 0; i < NUM_LAUNCHERS; ++i) {
    const struct launcher_vars *l = &launchers[i];
    if (job->rank < 0) {
      job->rank = job_number(l->rank);
      if (job->rank < 0)
        continue;
      job->launcher = l->name;
    }
    if (job->size < 0)
      job->size = job_number(l->size);
    if (job->local_rank < 0)
      job->local_rank = job_number(l->local_rank);
  }
  if (job->rank < 0) /* not a job: sizes of no rank mean nothing */
    job->size = job->local_rank = -1;
  if (host && size && gethostname(host, size) == 0) {
    host[size - 1] = '\0';
    job->host = host[0] ? host : NULL;
  }
}
