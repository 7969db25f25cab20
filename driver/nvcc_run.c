/*===- nvcc_run.c - The drivers' configuration and running clang ----------===*
 *
 * See nvcc_args.h: the configuration from the environment, the program's
 * own directory, and the run of the clang command (one per architecture
 * for a fatbin of several, then CUDA's fatbinary).
 *===----------------------------------------------------------------------===*/
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp */
#include "nvcc_internal.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void pasta_nvcc_diag(const char *who, const char *kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (msg) {
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  fprintf(stderr, "%s: %s: %s\n", who, kind, msg ? msg : fmt);
  free(msg);
}

int pasta_nvcc_own_dir(char *out, size_t size) {
  ssize_t n = readlink("/proc/self/exe", out, size - 1);
  if (n <= 0)
    return -1;
  out[n] = '\0';
  char *slash = strrchr(out, '/');
  if (!slash)
    return -1;
  *slash = '\0';
  return 0;
}

void pasta_nvcc_config_from_env(pasta_nvcc_config *cfg) {
  static char cccl[PATH_MAX], dir[PATH_MAX], compat[PATH_MAX + 64];
  memset(cfg, 0, sizeof *cfg);
  const char *cuda = getenv("PASTA_CUDA_PATH");
  cfg->cuda_path = cuda && *cuda ? cuda : "/usr/local/cuda";
  const char *arch = getenv("PASTA_CUDA_ARCH");
  cfg->default_arch =
      arch && *arch && pasta_nvcc_arch_supported(arch) ? arch : "90";
  cfg->only_archs = getenv("PASTA_CUDA_ARCHITECTURES");
  const char *lines = getenv("PASTA_LINE_TABLES");
  cfg->line_tables_value = lines;
  cfg->line_tables = lines && *lines ? pasta_yes_no(lines) : 1;
  const char *verbose = getenv("PASTA_WRAPPER_VERBOSE");
  cfg->verbose = verbose && *verbose && strcmp(verbose, "0") != 0;
  cfg->unroll_private_arrays = 1;
  struct stat st;
  snprintf(cccl, sizeof cccl, "%s/include/cccl", cfg->cuda_path);
  cfg->have_cccl = stat(cccl, &st) == 0 && S_ISDIR(st.st_mode);
  if (pasta_nvcc_own_dir(dir, sizeof dir) == 0 &&
      snprintf(compat, sizeof compat, "%s/../include/pasta/nvcc_host_compat.h",
               dir) < (int)sizeof compat &&
      stat(compat, &st) == 0)
    cfg->host_compat = compat;
}

/*===-- Running the command -----------------------------------------------===*/

/* Runs argv and waits for it: in the directory dir unless NULL. */
static int run_in(const char *dir, char **argv, const char *who) {
  pid_t pid = fork();
  if (pid < 0) {
    pasta_nvcc_diag(who, "error", "cannot fork: %s", strerror(errno));
    return 2;
  }
  if (pid == 0) {
    if (dir && chdir(dir) != 0)
      _exit(127);
    execvp(argv[0], argv);
    pasta_nvcc_diag(who, "error", "cannot run %s: %s", argv[0],
                    strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

static int run_and_wait(char **argv, const char *who) {
  return run_in(NULL, argv, who);
}

/* One clang run per architecture (the others' arguments left out, the
 * output a cubin beside the fatbin), then fatbinary, as clang itself
 * bundles a CUDA object's device code. */
static int fatbin_of_several(char **args, size_t n, size_t out_at,
                             const char *cuda, const char *who) {
  pasta_strlist cubins = {0}, bundle = {0};
  char **one = calloc(n + 1, sizeof *one);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/bin/fatbinary", cuda);
  int rc = !one || nv_push(&bundle, path) || nv_push(&bundle, "-64") ||
                   nv_push(&bundle, "--create") ||
                   nv_push(&bundle, args[out_at])
               ? 2
               : 0;
  for (size_t k = 0; k < n && !rc; ++k) {
    const char *arch = nv_arch_of(args[k]);
    if (!arch)
      continue;
    char cubin[PATH_MAX], image[PATH_MAX + 64];
    snprintf(cubin, sizeof cubin, "%s.sm_%s.cubin", args[out_at], arch);
    size_t m = 0;
    for (size_t i = 0; i < n; ++i)
      if (i == out_at)
        one[m++] = cubin;
      else if (i == k || !nv_arch_of(args[i]))
        one[m++] = args[i];
    one[m] = NULL;
    snprintf(image, sizeof image, "--image3=kind=elf,sm=%s,file=%s", arch,
             cubin);
    if (nv_push(&cubins, cubin) || nv_push(&bundle, image))
      rc = 2;
    else
      rc = run_and_wait(one, who);
  }
  char **argv = rc ? NULL : calloc(bundle.num + 1, sizeof *argv);
  if (argv) {
    memcpy(argv, bundle.at, bundle.num * sizeof *argv);
    rc = run_and_wait(argv, who);
    free(argv);
  } else if (!rc)
    rc = 2;
  for (size_t i = 0; i < cubins.num; ++i)
    unlink(cubins.at[i]);
  nv_strlist_free(&cubins);
  nv_strlist_free(&bundle);
  free(one);
  return rc;
}

/* Removes the scratch directory of a device link and the files in it. */
static void remove_scratch(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    char path[PATH_MAX];
    for (struct dirent *e; (e = readdir(d));)
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
          snprintf(path, sizeof path, "%s/%s", dir, e->d_name) <
              (int)sizeof path)
        unlink(path);
    closedir(d);
  }
  rmdir(dir);
}

/* -dlink (nvcc_command.c): the link runs in a scratch directory beside the
 * output, where clang's linker wrapper leaves "dlink.cuda.image.wrapper.o",
 * the object that registers the linked device image; it becomes the
 * output. Inputs are made absolute (the link runs elsewhere). Objects
 * without device code give no such object: then an empty one, as before. */
static int device_link_object(char **args, size_t n, size_t out_at,
                              const char *who) {
  char out[PATH_MAX], dir[PATH_MAX + 32], made[PATH_MAX + 64];
  if (snprintf(out, sizeof out, "%s", args[out_at]) >= (int)sizeof out ||
      snprintf(dir, sizeof dir, "%s.pasta-dlink.XXXXXX", out) >=
          (int)sizeof dir ||
      !mkdtemp(dir)) {
    pasta_nvcc_diag(who, "error", "-dlink: no scratch directory for %s: %s",
                    out, strerror(errno));
    return 2;
  }
  char **abs = calloc(n + 1, sizeof *abs);
  int rc = abs ? 0 : 2;
  for (size_t i = 0; i < n && !rc; ++i) {
    char *full = NULL;
    if (i == out_at)
      abs[i] = "dlink";
    else if (args[i][0] != '-' && i > 0 && strcmp(args[i - 1], "-o") &&
             (full = realpath(args[i], NULL)))
      abs[i] = full; /* an input; freed below */
    else
      abs[i] = args[i];
  }
  if (!rc)
    rc = run_in(dir, abs, who);
  snprintf(made, sizeof made, "%s/dlink.cuda.image.wrapper.o", dir);
  if (!rc && rename(made, out) != 0) {
    char *empty[] = {args[0], "-c", "-x", "c", "/dev/null", "-o", out, NULL};
    rc = run_and_wait(empty, who);
  }
  for (size_t i = 0; abs && i < n; ++i)
    if (abs[i] != args[i] && i != out_at)
      free(abs[i]);
  free(abs);
  remove_scratch(dir);
  return rc;
}

/* The host sources' own compiles (args[0] the compiler), then the command
 * itself, waited for; the host objects removed after it. */
static int after_host_compiles(const pasta_nvcc_result *r, char **args,
                               const char *who) {
  int rc = 0;
  for (size_t c = 0; rc == 0 && c < r->num_host_compiles; ++c) {
    const pasta_strlist *h = &r->host_compiles[c];
    char **one = calloc(h->num + 2, sizeof *one);
    if (!one)
      return 2;
    one[0] = args[0];
    memcpy(one + 1, h->at, h->num * sizeof *one);
    rc = run_and_wait(one, who);
    free(one);
  }
  if (rc == 0)
    rc = run_and_wait(args, who);
  for (size_t i = 0; i < r->host_objects.num; ++i)
    unlink(r->host_objects.at[i]);
  return rc;
}

int pasta_nvcc_run(const pasta_nvcc_result *r, char **args, const char *cuda,
                   const char *who) {
  if (r->num_host_compiles)
    return after_host_compiles(r, args, who);
  size_t n = 0, archs = 0, out_at = 0;
  for (; args[n]; ++n) {
    archs += nv_arch_of(args[n]) != NULL;
    if (strcmp(args[n], "-o") == 0 && args[n + 1])
      out_at = n + 1;
  }
  if (r->device_link && out_at)
    return device_link_object(args, n, out_at, who);
  if (r->device_output == 'f' && archs > 1 && out_at)
    return fatbin_of_several(args, n, out_at, cuda, who);
  execvp(args[0], args);
  pasta_nvcc_diag(who, "error", "cannot run %s: %s", args[0], strerror(errno));
  return 2;
}
