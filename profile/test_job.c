/* The job's identity (env.h, pasta__job_from_env) from each launcher's
 * variables, and the output names it gives (output_file.h,
 * pasta__output_expand: %p, %r, %h and the default name). */
#define _GNU_SOURCE

#include "env.h"
#include "output_file.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/check.h"

static const char *const all_vars[] = {"OMPI_COMM_WORLD_RANK",
                                       "OMPI_COMM_WORLD_SIZE",
                                       "OMPI_COMM_WORLD_LOCAL_RANK",
                                       "PMIX_RANK",
                                       "PMI_RANK",
                                       "PMI_SIZE",
                                       "MPI_LOCALRANKID",
                                       "SLURM_PROCID",
                                       "SLURM_NTASKS",
                                       "SLURM_LOCALID"};

static void clear_job(void) {
  for (size_t i = 0; i < sizeof all_vars / sizeof *all_vars; ++i)
    unsetenv(all_vars[i]);
}

static void check_job(const char *launcher, long long rank, long long size,
                      long long local_rank, int line) {
  pasta_profile_job job;
  char host[256];
  pasta__job_from_env(&job, host, sizeof host);
  check_at(__FILE__, line, job.rank == rank, "rank", "got %lld, want %lld",
           (long long)job.rank, rank);
  check_at(__FILE__, line, job.size == size, "size", "got %lld, want %lld",
           (long long)job.size, size);
  check_at(__FILE__, line, job.local_rank == local_rank, "local rank",
           "got %lld, want %lld", (long long)job.local_rank, local_rank);
  int same = launcher && job.launcher ? strcmp(launcher, job.launcher) == 0
                                      : launcher == job.launcher;
  check_at(__FILE__, line, same, "launcher", "got %s, want %s",
           job.launcher ? job.launcher : "NULL", launcher ? launcher : "NULL");
  char want_host[256];
  gethostname(want_host, sizeof want_host);
  check_at(__FILE__, line, job.host && strcmp(job.host, want_host) == 0, "host",
           "got %s, want %s", job.host ? job.host : "NULL", want_host);
  check_at(__FILE__, line, job.num_gpus == 0, "no GPUs", "got %zu",
           job.num_gpus);
}

static void test_launchers(void) {
  clear_job();
  check_job(NULL, -1, -1, -1, __LINE__);
  /* Open MPI's mpirun. */
  setenv("OMPI_COMM_WORLD_RANK", "5", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("PMIX_RANK", "5", 1);
  check_job("openmpi", 5, 8, 1, __LINE__);
  /* srun with PMIx: the rank from PMIx, size and local rank from Slurm. */
  clear_job();
  setenv("PMIX_RANK", "7", 1);
  setenv("SLURM_PROCID", "7", 1);
  setenv("SLURM_NTASKS", "16", 1);
  setenv("SLURM_LOCALID", "3", 1);
  check_job("pmix", 7, 16, 3, __LINE__);
  /* MPICH's Hydra. */
  clear_job();
  setenv("PMI_RANK", "2", 1);
  setenv("PMI_SIZE", "4", 1);
  setenv("MPI_LOCALRANKID", "0", 1);
  check_job("pmi", 2, 4, 0, __LINE__);
  /* srun of a program that is not MPI. */
  clear_job();
  setenv("SLURM_PROCID", "11", 1);
  setenv("SLURM_NTASKS", "12", 1);
  setenv("SLURM_LOCALID", "3", 1);
  check_job("slurm", 11, 12, 3, __LINE__);
  /* Not numbers: a warning each, then unset; the next launcher's rank. */
  setenv("OMPI_COMM_WORLD_RANK", "two", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "-4", 1);
  check_job("slurm", 11, 12, 3, __LINE__);
  /* No rank: not a job, whatever else is set. */
  setenv("SLURM_PROCID", "99999999999", 1);
  check_job(NULL, -1, -1, -1, __LINE__);
  clear_job();
}

static void check_name(const char *pattern, const char *program, long pid,
                       long long rank, const char *host, const char *want,
                       int line) {
  pasta_output_names names = {pid, rank, host};
  char *got = pasta__output_expand(pattern, program, &names);
  check_at(__FILE__, line, got && strcmp(got, want) == 0, "name",
           "got %s, want %s", got ? got : "NULL", want);
  free(got);
}

static void test_names(void) {
  check_name("prof-%p.json", "./app", 42, -1, "n1", "prof-42.json", __LINE__);
  check_name("out/rank%r.json", "./app", 42, 17, "n1", "out/rank17.json",
             __LINE__);
  /* Outside a job, %r is 0: a job of one process. */
  check_name("rank%r.json", "./app", 42, -1, "n1", "rank0.json", __LINE__);
  check_name("%h/%r-%p.json", "./app", 9, 3, "node12.cluster.example",
             "node12/3-9.json", __LINE__);
  check_name("%h.json", "./app", 9, 3, NULL, "unknown.json", __LINE__);
  check_name("%h.json", "./app", 9, 3, "a/b", "a_b.json", __LINE__);
  /* Other % sequences stay as they are, a % at the end too. */
  check_name("%x%%r%", "./app", 1, 2, "h", "%x%2%", __LINE__);
  /* Default names: the pid alone, or the rank in a job. */
  check_name(NULL, "/usr/bin/app", 42, -1, "n1", "pasta-app-42.json", __LINE__);
  check_name(NULL, "./app", 42, 3, "n1", "pasta-app-rank3.json", __LINE__);
  check_name(NULL, NULL, 42, -1, "n1", "pasta-unknown-42.json", __LINE__);
  /* A host name that is only dots, or starts with one: never "..". */
  check_name("%h/x.json", "./app", 9, 3, "..", "unknown/x.json", __LINE__);
  /* argv[0] is what the parent passed: a trailing slash names no directory
   * here (before: "pasta-../../x/-42.json", a path through directories),
   * and a long one is cut to 200 bytes (one file name). */
  check_name(NULL, "../../x/", 42, -1, "n1", "pasta-x-42.json", __LINE__);
  check_name(NULL, "a//b//", 42, -1, "n1", "pasta-b-42.json", __LINE__);
  check_name(NULL, "///", 42, -1, "n1", "pasta-unknown-42.json", __LINE__);
  char longname[1024], want[300];
  memset(longname, 'a', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  snprintf(want, sizeof want, "pasta-%.200s-7.json", longname);
  check_name(NULL, longname, 7, -1, "n1", want, __LINE__);
}

int main(void) {
  CHECK_RUN(test_launchers);
  CHECK_RUN(test_names);
  return check_summary("job");
}
