/*===- env.h - Reading PASTA_* environment variables ----------------------===*
 *
 * The run-time options' one parser: a yes/no flag accepts 1/0, on/off,
 * true/false, yes/no in any case (the compiler plugin accepts the same,
 * passes/Options.cpp); anything else is one warning that names the
 * variable, its value and what is accepted, and the default is used.
 * The job's identity (rank, size, local rank, host) is read here too.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_ENV_H
#define PASTA_PROFILE_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "pasta/profile.h"

/* 1 or 0 for a yes/no value (see above), -1 for anything else. */
int pasta__parse_flag(const char *s);

/* The variable `name` as it is, or NULL when unset or when the program
 * runs set-user-ID or set-group-ID (secure_getenv): for variables that name
 * a file to load or a directory to write into. */
const char *pasta__env_trusted(const char *name);

/* The flag `name`: `fallback` when unset or empty, or (after a warning)
 * when it is not a yes/no value. */
int pasta__env_flag(const char *name, int fallback);

/* The decimal number `name`, from min to max: `fallback` when unset or
 * empty, or (after a warning) when it is not such a number. */
uint64_t pasta__env_u64(const char *name, uint64_t fallback, uint64_t min,
                        uint64_t max);

/* The process's place in a job, from its launcher's environment (no MPI
 * library is involved): Open MPI (OMPI_COMM_WORLD_RANK, _SIZE,
 * _LOCAL_RANK), PMIx (PMIX_RANK), MPICH's and Intel MPI's Hydra (PMI_RANK,
 * PMI_SIZE, MPI_LOCALRANKID) and Slurm (SLURM_PROCID, SLURM_NTASKS,
 * SLURM_LOCALID), the first whose rank is set; a size or local rank it does
 * not give comes from the next that does. Unknown numbers are -1, launcher
 * NULL. The host name (gethostname) goes into `host` (`size` bytes) and
 * job->host points there, or is NULL. No GPUs. A variable that is set but
 * not a number is one warning and counts as unset. */
void pasta__job_from_env(pasta_profile_job *job, char *host, size_t size);

#endif
