/*===- runtime.c - PASTA's host runtime -----------------------------------===*
 *
 * Linked (as libpasta_rt.a) into every instrumented program. Instrumented
 * modules register their descriptors from global constructors; when main
 * returns (__pasta_main_exit, inserted by the pass) or, failing that, at
 * exit(), the runtime reads every module's counters, builds the profile,
 * prints the tables on stderr and writes the JSON profile.
 *
 * Device modules are read through the vendor runtime calls their host half
 * hands over (struct pasta_vendor_ops), so this library never links against
 * CUDA or HIP. It depends on libc only: no JSON library, no pthread (a
 * spinlock guards registration). It never aborts the program: every problem
 * is one "pasta: warning: " or "pasta: error: " line on stderr.
 *
 * Names: __pasta_* are the ABI entry points the compiler calls, pasta__*
 * are internal, pasta_* (analyzers/) the profile model and writers.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* program_invocation_name, getpid */

#include "analyzers/builtin.h"
#include "intercept.h"
#include "pasta/abi.h"
#include "pasta/analyzer.h"
#include "pasta/profile.h"
#include "profile/activity.h"
#include "profile/env.h"
#include "profile/output_file.h"
#include "profile/profile_json.h"
#include "profile/vec.h"
#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define PASTA_ABI __attribute__((visibility("default")))

PASTA_ABI void __pasta_register_host_module(const struct pasta_module_desc *);
PASTA_ABI void __pasta_host_flush(uint64_t *counters, uint32_t first,
                                  const uint64_t *values, uint32_t n);
PASTA_ABI void __pasta_register_device_module(const void *desc_symbol,
                                              const struct pasta_vendor_ops *);
PASTA_ABI void __pasta_module_dso(const void *desc_symbol, void *dso);
PASTA_ABI void __pasta_main_exit(void);
PASTA_ABI void __pasta_before_device_reset(void);
PASTA_ABI void __pasta_reset_begin(void);
PASTA_ABI void __pasta_reset_end(void);
static void pasta__carry_all(void);

/* glibc: run f(arg) when the object `dso` is unloaded (dlclose) or at exit,
 * in reverse order of registration with atexit handlers. */
int __cxa_atexit(void (*f)(void *), void *arg, void *dso);

enum { PASTA__DEFAULT_TOP_LINES = 20 };

/*===-- Options -----------------------------------------------------------===*/

struct pasta__options {
  const char *output;    /* PASTA_OUTPUT, or NULL for the default name */
  int quiet;             /* PASTA_QUIET: no tables, no notes on stderr */
  unsigned top_lines;    /* PASTA_TOP_LINES */
  const char *analyzers; /* PASTA_ANALYZERS, or NULL for all */
};

/* The one place that reads the environment. */
static void pasta__read_options(struct pasta__options *o) {
  const char *v = getenv("PASTA_OUTPUT");
  o->output = v && *v ? v : NULL;
  o->quiet = pasta_env_flag("PASTA_QUIET", 0);
  v = getenv("PASTA_ANALYZERS");
  o->analyzers = v && *v ? v : NULL;
  o->top_lines = PASTA__DEFAULT_TOP_LINES;
  v = getenv("PASTA_TOP_LINES");
  if (v && *v) {
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno || *end || *v == '-' || n > 1000000)
      fprintf(stderr,
              "pasta: warning: ignoring PASTA_TOP_LINES='%s' (not a count "
              "up to 1000000); using %u\n",
              v, o->top_lines);
    else
      o->top_lines = (unsigned)n;
  }
}

/*===-- Registration ------------------------------------------------------===*/

struct pasta__snapshot;

struct pasta__device_module {
  const void *symbol; /* host shadow of the device descriptor */
  struct pasta_vendor_ops ops;
  const struct pasta_vendor_ops *ops_ptr; /* the program's copy */
  void *dso;      /* __dso_handle of the object holding it, or NULL */
  int exit_armed; /* an unload handler runs after its vendor runtime's */
  int gone;       /* its object was unloaded (or the report ran) */
  /* Per GPU: whether one of its kernels ran there (only those GPUs are
   * read: no context on a GPU the program never used). */
  unsigned char used[PASTA_MAX_DEVICES];
  /* Per GPU: counts read before a device reset (which frees that GPU's
   * copy of the counters), summed over banks: added to the final read. */
  uint64_t *carried[PASTA_MAX_DEVICES];
  uint32_t carried_n[PASTA_MAX_DEVICES];
  /* Read when its object was unloaded: the report uses it as is. */
  struct pasta__snapshot *final;
};

static struct {
  const struct pasta_module_desc **host;
  size_t num_host, cap_host;
  struct pasta__device_module *device;
  size_t num_device, cap_device;
  int atexit_done;
  int oom_warned;
  size_t unread; /* device modules that could not be read */
} pasta__registry;

static char pasta__lock_flag;
static int pasta__reported;

static void pasta__lock(void) {
  while (__atomic_test_and_set(&pasta__lock_flag, __ATOMIC_ACQUIRE))
    ;
}

static void pasta__unlock(void) {
  __atomic_clear(&pasta__lock_flag, __ATOMIC_RELEASE);
}

static void pasta__report(void);
static struct pasta__device_module *pasta__find_module(const void *symbol);
static void pasta__arm_module(struct pasta__device_module *m);

static void pasta__atexit(void) { pasta__report(); }

/* Makes room for one more element; called with the lock held. */
static int pasta__grow(void **array, size_t *cap, size_t num, size_t elem) {
  if (pasta__grow_array(array, cap, num, elem) == 0)
    return 0;
  if (!pasta__registry.oom_warned)
    fprintf(stderr, "pasta: warning: out of memory registering a module; "
                    "it will be missing from the profile\n");
  pasta__registry.oom_warned = 1;
  return -1;
}

#ifdef PASTA_RT_SHARED
#include <dlfcn.h>

/* libpasta_rt.so stays loaded until the process ends, even when the only
 * library that needed it is closed with dlclose: the registry, the counts
 * read from unloaded modules and the exit handlers live here. */
__attribute__((constructor)) static void pasta__pin(void) {
  Dl_info info;
  if (dladdr((void *)&pasta__pin, &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}
#endif

/* Called with the lock held. The handler registered here runs when the
 * program uses no vendor runtime (host code only); programs that do get a
 * second one from pasta__arm_exit. */
static void pasta__first_registration(void) {
  if (pasta__registry.atexit_done)
    return;
  pasta__registry.atexit_done = 1;
  if (atexit(pasta__atexit))
    fprintf(stderr, "pasta: warning: cannot register an exit handler; the "
                    "profile is only written when main returns\n");
}

/* 0 until the report's exit handlers were registered after the vendor
 * runtime initialised; back to 0 after a device reset (the vendor runtime
 * may initialise, and register its teardown, again). */
static int pasta__exit_armed;

/* Called by the wrappers after a vendor call returned. The CUDA and HIP
 * runtimes register their teardown (which makes every later call fail with
 * "driver shutting down") with atexit when they initialise, that is at the
 * program's first call into them; exit handlers run in reverse order of
 * registration, so a handler registered now runs before that teardown,
 * however the program ends: return from a main compiled by anyone, exit()
 * from any thread, quick_exit. Registering again is harmless: the report
 * runs once. */
void pasta__arm_exit(void) {
  if (__atomic_load_n(&pasta__exit_armed, __ATOMIC_ACQUIRE) ||
      __atomic_exchange_n(&pasta__exit_armed, 1, __ATOMIC_ACQ_REL))
    return;
  if (atexit(pasta__atexit) || at_quick_exit(pasta__atexit))
    fprintf(stderr, "pasta: warning: cannot register an exit handler; device "
                    "counts may be lost if the program does not return from "
                    "an instrumented main\n");
}

/* Called by the wrappers after a launch of a kernel of module `symbol` on
 * GPU `device` (the first on that GPU since the last reset). */
void pasta__module_launched(const void *symbol, int device) {
  if (!symbol)
    return;
  int armed = 0;
  pasta__lock();
  struct pasta__device_module *m = pasta__find_module(symbol);
  if (m) {
    if (!m->exit_armed) {
      m->exit_armed = armed = 1;
      pasta__arm_module(m);
    }
    if (device >= 0 && device < (int)PASTA_MAX_DEVICES)
      m->used[device] = 1;
  }
  pasta__unlock();
  /* At exit the report runs before the module handlers (which then have
   * nothing to do), while every vendor call is still there. */
  if (armed) {
    __atomic_store_n(&pasta__exit_armed, 0, __ATOMIC_RELEASE);
    pasta__arm_exit();
  }
}

void __pasta_register_host_module(const struct pasta_module_desc *desc) {
  if (!desc)
    return;
  pasta__lock();
  pasta__first_registration();
  if (!pasta__grow((void **)&pasta__registry.host, &pasta__registry.cap_host,
                   pasta__registry.num_host, sizeof *pasta__registry.host))
    pasta__registry.host[pasta__registry.num_host++] = desc;
  pasta__unlock();
}

void __pasta_register_device_module(const void *desc_symbol,
                                    const struct pasta_vendor_ops *ops) {
  if (!desc_symbol || !ops || !ops->memcpy_from_symbol || !ops->memcpy ||
      !ops->device_synchronize) {
    fprintf(stderr, "pasta: warning: ignoring a device module registered "
                    "without its descriptor or vendor calls\n");
    return;
  }
  pasta__lock();
  pasta__first_registration();
  if (!pasta__grow((void **)&pasta__registry.device,
                   &pasta__registry.cap_device, pasta__registry.num_device,
                   sizeof *pasta__registry.device)) {
    struct pasta__device_module *m =
        &pasta__registry.device[pasta__registry.num_device++];
    memset(m, 0, sizeof *m);
    m->symbol = desc_symbol;
    m->ops = *ops;
    m->ops_ptr = ops;
  }
  pasta__unlock();
}

/* The registered module whose host shadow is `symbol`, or NULL. Lock held. */
static struct pasta__device_module *pasta__find_module(const void *symbol) {
  for (size_t i = pasta__registry.num_device; i-- > 0;)
    if (pasta__registry.device[i].symbol == symbol &&
        !pasta__registry.device[i].gone)
      return &pasta__registry.device[i];
  return NULL;
}

static void pasta__module_unloading(void *index);

/* Runs pasta__module_unloading(m) when m's object is unloaded or at exit.
 * Registered once at registration (so that a module whose object is
 * dlclose'd is never read afterwards) and once more at its first launch,
 * after its vendor runtime initialised: handlers run in reverse order, so
 * that one runs before the vendor runtime's own teardown. Lock held. */
static void pasta__arm_module(struct pasta__device_module *m) {
  if (!m->dso)
    return;
  uintptr_t index = (uintptr_t)(m - pasta__registry.device) + 1;
  if (__cxa_atexit(pasta__module_unloading, (void *)index, m->dso))
    fprintf(stderr, "pasta: warning: cannot register an unload handler; a "
                    "module in a library closed with dlclose is lost\n");
}

/* Inserted by the pass after __pasta_register_device_module: the object
 * (executable or shared library) that holds the module. */
void __pasta_module_dso(const void *desc_symbol, void *dso) {
  pasta__lock();
  struct pasta__device_module *m = pasta__find_module(desc_symbol);
  if (m && !m->dso) {
    m->dso = dso;
    pasta__arm_module(m);
  }
  pasta__unlock();
}

void __pasta_host_flush(uint64_t *counters, uint32_t first,
                        const uint64_t *values, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    if (values[i])
      __atomic_fetch_add(&counters[first + i], values[i], __ATOMIC_RELAXED);
}

/*===-- Reading modules ---------------------------------------------------===*/

/* The module's source file name, if the tables have a valid one. */
static const char *pasta__module_name(const struct pasta_module_desc *d,
                                      const char *strings) {
  if (!strings || d->module_name >= d->strings_size ||
      !memchr(strings + d->module_name, '\0', d->strings_size - d->module_name))
    return NULL;
  return strings + d->module_name;
}

static void pasta__warn_rejected(const char *what, const void *where,
                                 const struct pasta_module_desc *d,
                                 int status) {
  if (status == PASTA_PROFILE_EVERSION)
    fprintf(stderr,
            "pasta: warning: %s %p was built for PASTA ABI version %" PRIu32
            ", this runtime reads version %u: recompile it with this PASTA; "
            "it is left out of the profile\n",
            what, where, d->version, PASTA_ABI_VERSION);
  else
    fprintf(stderr,
            "pasta: warning: %s %p has no PASTA descriptor (magic 0x%08" PRIx32
            "): recompile it with this PASTA; it is left out of the profile\n",
            what, where, d->magic);
}

/*===-- Analyzers ---------------------------------------------------------===*/

static pasta_analyzer pasta__analyzers[PASTA_MAX_ANALYZERS];
static size_t pasta__num_analyzers;
static int pasta__builtins_registered;
static void pasta__register_builtins(void);
static int pasta__write_sibling(const pasta_analyzer_context *ctx,
                                const char *suffix, const char *what,
                                int (*write)(FILE *, const void *),
                                const void *arg);

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

/* The options of the report in progress, read once by pasta__report. */
static struct pasta__options pasta__report_options;
/* Trace mode's trace, built by pasta__report for the `trace` analyzer. */
/* Which registered analyzers run in this report. */
static unsigned char pasta__active[PASTA_MAX_ANALYZERS];

/* Marks the analyzers a list selects (all when NULL): names separated by
 * commas or semicolons, blanks around them ignored, letter case too. Each
 * name no analyzer has gets one warning; a list that names no analyzer at
 * all selects every one, with one line saying so (better the full report
 * than none after the whole run). */
static void pasta__select_analyzers(const char *list, int warn) {
  int any = 0;
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    pasta__active[i] = list == NULL;
  for (const char *p = list ? list : ""; *p;) {
    size_t len = strcspn(p, ",;");
    const char *next = p + len + (p[len] != '\0');
    while (len && (*p == ' ' || *p == '\t')) {
      ++p;
      --len;
    }
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
      --len;
    int known = 0;
    for (size_t i = 0; i < pasta__num_analyzers; ++i)
      if (strlen(pasta__analyzers[i].name) == len &&
          strncasecmp(pasta__analyzers[i].name, p, len) == 0)
        known = pasta__active[i] = 1;
    any |= known;
    if (!known && len && warn)
      fprintf(stderr,
              "pasta: warning: PASTA_ANALYZERS names '%.*s', which is no "
              "analyzer of this program; ignored\n",
              (int)(len < 80 ? len : 80), p);
    p = next;
  }
  if (!list || any)
    return;
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    pasta__active[i] = 1;
  if (!warn)
    return;
  fprintf(stderr,
          "pasta: warning: PASTA_ANALYZERS='%.200s' selects none of "
          "this program's analyzers (",
          list);
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    fprintf(stderr, "%s%s", i ? ", " : "", pasta__analyzers[i].name);
  fprintf(stderr, "); all of them run\n");
}

/* Whether the analyzer called `name` runs in this report. */
static int pasta__analyzer_active(const char *name) {
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

static void pasta__add(pasta_profile *p, const struct pasta_module_desc *d,
                       const uint64_t *counters, const char *name) {
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    if (pasta__active[i] && pasta__analyzers[i].on_module)
      pasta__analyzers[i].on_module(pasta__analyzers[i].state, d, counters);
  int status = pasta_profile_add_module(p, d, counters);
  if (status != PASTA_PROFILE_OK)
    fprintf(stderr,
            "pasta: warning: module '%s' is left out of the profile: "
            "%s\n",
            name ? name : "?", pasta_profile_strerror(status));
}

/* counters[bank][c] summed over banks into a new array. */
static uint64_t *pasta__sum_banks(const uint64_t *counters, uint32_t banks,
                                  uint32_t num, int atomic) {
  uint64_t *sum = calloc(num ? num : 1, sizeof *sum);
  if (!sum)
    return NULL;
  for (uint32_t b = 0; b < banks; ++b) {
    const uint64_t *row = counters + (size_t)b * num;
    for (uint32_t c = 0; c < num; ++c)
      sum[c] += atomic ? __atomic_load_n(&row[c], __ATOMIC_RELAXED) : row[c];
  }
  return sum;
}

static void pasta__read_host_module(pasta_profile *p,
                                    const struct pasta_module_desc *d) {
  int status = pasta_profile_check_desc(d);
  if (status != PASTA_PROFILE_OK) {
    pasta__warn_rejected("host module at", d, d, status);
    return;
  }
  const char *name = pasta__module_name(d, (const char *)(uintptr_t)d->strings);
  if (!d->num_banks || (d->num_counters && !d->counters)) {
    pasta__add(p, d, NULL, name); /* reports the malformed tables */
    return;
  }
  uint64_t *sum = pasta__sum_banks((const uint64_t *)(uintptr_t)d->counters,
                                   d->num_banks, d->num_counters, 1);
  if (!sum) {
    fprintf(stderr, "pasta: warning: out of memory reading module '%s'\n",
            name ? name : "?");
    return;
  }
  pasta__add(p, d, sum, name);
  pasta__trace_add_module(d, d, sum);
  free(sum);
}

/* One warning for a failed vendor call on a device module. */
static void pasta__warn_vendor(const struct pasta__device_module *m,
                               const char *name, const char *what, int err) {
  const char *msg =
      m->ops.get_error_string ? m->ops.get_error_string(err) : NULL;
  if (name)
    fprintf(stderr,
            "pasta: warning: cannot read device module '%s' (%s): "
            "%s (error %d); it is left out of the profile\n",
            name, what, msg ? msg : "unknown error", err);
  else
    fprintf(stderr,
            "pasta: warning: cannot read the device module at host "
            "symbol %p (%s): %s (error %d); it is left out of the "
            "profile\n",
            m->symbol, what, msg ? msg : "unknown error", err);
}

/* Set once the report (or a reset) said why device modules cannot be
 * read. */
static int pasta__sync_warned;

/* One line, once, when the GPU cannot be synchronised before reading the
 * counters: a fault of the program's (the context is lost, and the
 * counters with it), or a vendor runtime already shut down. */
static void pasta__warn_sync_failed(const struct pasta__device_module *m,
                                    int err) {
  if (pasta__sync_warned++)
    return;
  const char *msg =
      m->ops.get_error_string ? m->ops.get_error_string(err) : NULL;
  const char *vendor = m->ops.vendor == PASTA_VENDOR_HIP ? "HIP" : "CUDA";
  char fault[768];
  if (err == PASTA_VENDOR_ERROR_DEINITIALIZED)
    fprintf(stderr,
            "pasta: error: device counts are missing: the %s runtime had "
            "already shut down when PASTA read them (%s, error %d); "
            "launches and memory recorded on the host are in the profile\n",
            vendor, msg ? msg : "unknown error", err);
  else if (pasta__activity_fault(fault, sizeof fault))
    fprintf(stderr,
            "pasta: error: device counts are missing: %s; the GPU context "
            "was lost with the fault, and the counters with it. The fault "
            "is the program's own (PASTA's counting code writes only its "
            "own counters; the uninstrumented build faults too: "
            "compute-sanitizer shows the access). Launches and memory "
            "recorded on the host are in the profile\n",
            fault);
  else
    fprintf(stderr,
            "pasta: error: device counts are missing: synchronizing the GPU "
            "failed (%s, error %d); launches and memory recorded on the "
            "host are in the profile\n",
            msg ? msg : "unknown error", err);
}

/* Copies `size` bytes of device memory at `addr` into a new host buffer
 * (with one extra zero byte). Returns 0, -1 when out of memory, or 1 with
 * the vendor's error in *err. */
static int pasta__copy_array(const struct pasta__device_module *m,
                             uint64_t addr, size_t size, void **out, int *err) {
  char *host = size < SIZE_MAX ? malloc(size + 1) : NULL;
  *out = host;
  if (!host)
    return -1;
  host[size] = '\0';
  if (!size)
    return 0;
  *err = m->ops.memcpy(host, (const void *)(uintptr_t)addr, size,
                       PASTA_MEMCPY_DEVICE_TO_HOST);
  return *err ? 1 : 0;
}

/* n * elem, or SIZE_MAX on overflow. */
static size_t pasta__bytes(uint64_t n, size_t elem) {
  return n > (SIZE_MAX - 1) / elem ? SIZE_MAX : (size_t)n * elem;
}

/* One device module as read from the current GPU: its descriptor and
 * tables (host copies) and its counters summed over banks, plus what was
 * carried over a reset of that GPU. */
struct pasta__snapshot {
  struct pasta_module_desc desc;
  void *funcs, *sites, *scopes, *accesses;
  char *strings;
  uint64_t *sum;
  const char *name;
};

static void pasta__snapshot_free(struct pasta__snapshot *s) {
  free(s->funcs);
  free(s->sites);
  free(s->scopes);
  free(s->accesses);
  free(s->strings);
  free(s->sum);
}

/* Reads module m on the current GPU (`device`) into *s. Returns 0, or -1
 * after a warning. */
static int pasta__snapshot_device(struct pasta__device_module *m, int device,
                                  struct pasta__snapshot *s) {
  memset(s, 0, sizeof *s);
  int err = m->ops.device_synchronize();
  if (err) {
    pasta__warn_sync_failed(m, err);
    return -1;
  }
  /* The magic and version first: another ABI may have another size. */
  struct pasta_module_desc d;
  memset(&d, 0, sizeof d);
  err = m->ops.memcpy_from_symbol(&d, m->symbol, 2 * sizeof(uint32_t), 0,
                                  PASTA_MEMCPY_DEVICE_TO_HOST);
  if (err) {
    pasta__warn_vendor(m, NULL, "reading its descriptor", err);
    return -1;
  }
  int status = pasta_profile_check_desc(&d);
  if (status != PASTA_PROFILE_OK) {
    pasta__warn_rejected("device module with host symbol", m->symbol, &d,
                         status);
    return -1;
  }
  err = m->ops.memcpy_from_symbol(&d, m->symbol, sizeof d, 0,
                                  PASTA_MEMCPY_DEVICE_TO_HOST);
  if (err) {
    pasta__warn_vendor(m, NULL, "reading its descriptor", err);
    return -1;
  }

  void *funcs = NULL, *sites = NULL, *counters = NULL, *scopes = NULL,
       *accesses = NULL;
  char *strings = NULL;
  const char *name = NULL;
  size_t counter_bytes =
      pasta__bytes((uint64_t)d.num_banks * d.num_counters, sizeof(uint64_t));
  size_t sizes[6] = {
      pasta__bytes(d.strings_size, 1),
      pasta__bytes(d.num_funcs, sizeof(struct pasta_func)),
      pasta__bytes(d.num_sites, sizeof(struct pasta_site)),
      counter_bytes,
      pasta__bytes(d.num_scopes, sizeof(struct pasta_scope)),
      pasta__bytes(d.num_accesses, sizeof(struct pasta_access)),
  };
  void **dst[6] = {(void **)&strings, &funcs,  &sites,
                   &counters,         &scopes, &accesses};
  uint64_t src[6] = {d.strings,  d.funcs,  d.sites,
                     d.counters, d.scopes, d.accesses};
  static const char *const what[6] = {
      "copying its strings",  "copying its functions", "copying its sites",
      "copying its counters", "copying its scopes",    "copying its accesses"};
  for (int i = 0; i < 6; ++i) {
    int rc = pasta__copy_array(m, src[i], sizes[i], dst[i], &err);
    if (i == 0 && rc == 0)
      name = pasta__module_name(&d, strings);
    if (rc < 0) {
      fprintf(stderr,
              "pasta: warning: out of memory reading device module "
              "'%s'; it is left out of the profile\n",
              name ? name : "?");
      goto out;
    }
    if (rc > 0) {
      pasta__warn_vendor(m, name, what[i], err);
      goto out;
    }
  }

  if (!d.num_banks && d.num_counters) {
    fprintf(
        stderr, "pasta: warning: module '%s' is left out of the profile: %s\n",
        name ? name : "?", pasta_profile_strerror(PASTA_PROFILE_EMALFORMED));
    goto out;
  }
  uint64_t *sum = pasta__sum_banks(counters, d.num_banks, d.num_counters, 0);
  if (!sum) {
    fprintf(stderr,
            "pasta: warning: out of memory reading device module "
            "'%s'\n",
            name ? name : "?");
    goto out;
  }
  const uint64_t *carried = m->carried[device];
  if (carried && m->carried_n[device] == d.num_counters)
    for (uint32_t c = 0; c < d.num_counters; ++c)
      sum[c] += carried[c];
  free(counters);
  *s = (struct pasta__snapshot){d,        funcs,   sites, scopes,
                                accesses, strings, sum,   name};
  return 0;
out:
  free(funcs);
  free(sites);
  free(scopes);
  free(accesses);
  free(strings);
  free(counters);
  return -1;
}

/* The GPUs there are, when the program handed over the device calls (each
 * GPU has its own copy of a module's counters); else 1. */
static int pasta__device_count(const struct pasta__device_module *m) {
  int n = 1;
  if (!m->ops.get_device_count || !m->ops.set_device ||
      m->ops.get_device_count(&n) || n < 1)
    return 1;
  return n < (int)PASTA_MAX_DEVICES ? n : (int)PASTA_MAX_DEVICES;
}

static int pasta__current_device(const struct pasta__device_module *m) {
  int d = 0;
  if (!m->ops.get_device || m->ops.get_device(&d) || d < 0 ||
      d >= (int)PASTA_MAX_DEVICES)
    return 0;
  return d;
}

/* Whether module m ran (or had counts carried over a reset) on some GPU. */
static int pasta__ran_anywhere(const struct pasta__device_module *m) {
  for (int d = 0; d < (int)PASTA_MAX_DEVICES; ++d)
    if (m->used[d] || m->carried[d])
      return 1;
  return 0;
}

/* Reads module m and sums the counts of every GPU into *total: the GPUs its
 * kernels ran on (never a GPU the program did not use), or for a module
 * that never ran, the current one (for its tables). When the program's
 * calls were not intercepted (PASTA_INTERCEPT=0), every GPU. Returns 0,
 * or -1 after a warning. Lock held. */
static int pasta__collect_device_module(struct pasta__device_module *m,
                                        struct pasta__snapshot *total) {
  int current = pasta__current_device(m);
  int ran = pasta__ran_anywhere(m);
  int every = !pasta__activity_seen();
  int devices = 1;
  for (int d = 0; d < (int)PASTA_MAX_DEVICES; ++d)
    if (every || ((m->used[d] || m->carried[d]) && d != current))
      devices = pasta__device_count(m); /* GPUs other than the current */
  struct pasta__snapshot s;
  int have = 0;
  for (int dev = 0; dev < devices; ++dev) {
    int on = devices > 1 ? dev : current;
    int wanted = every || (ran ? m->used[on] || m->carried[on] : on == current);
    if (!wanted)
      continue;
    if (devices > 1) {
      int err = m->ops.set_device(dev);
      if (err) {
        pasta__warn_vendor(m, NULL, "selecting a GPU", err);
        continue;
      }
    }
    if (pasta__snapshot_device(m, on, &s))
      continue;
    if (!have) {
      *total = s;
      have = 1;
      continue;
    }
    if (s.desc.num_counters == total->desc.num_counters)
      for (uint32_t c = 0; c < s.desc.num_counters; ++c)
        total->sum[c] += s.sum[c];
    pasta__snapshot_free(&s);
  }
  if (devices > 1)
    m->ops.set_device(current);
  return have ? 0 : -1;
}

/* Adds a module's snapshot to the profile (and to the trace). */
static void pasta__add_snapshot(pasta_profile *p, const void *key,
                                const struct pasta__snapshot *total) {
  /* The same descriptor, now pointing at the host copies. */
  struct pasta_module_desc h = total->desc;
  h.funcs = (uint64_t)(uintptr_t)total->funcs;
  h.sites = (uint64_t)(uintptr_t)total->sites;
  h.strings = (uint64_t)(uintptr_t)total->strings;
  h.counters = (uint64_t)(uintptr_t)total->sum;
  h.scopes = (uint64_t)(uintptr_t)total->scopes;
  h.accesses = (uint64_t)(uintptr_t)total->accesses;
  h.num_banks = 1;
  pasta__add(p, &h, total->sum, total->name);
  pasta__trace_add_module(key, &h, total->sum);
}

/* Reads module m (or takes what was read when its object was unloaded) and
 * adds it to p once. Lock held. */
static void pasta__read_device_module(pasta_profile *p,
                                      struct pasta__device_module *m) {
  if (m->final) {
    pasta__add_snapshot(p, m->symbol, m->final);
    return;
  }
  if (m->gone)
    return; /* unloaded before any of its kernels ran */
  struct pasta__snapshot total;
  if (pasta__collect_device_module(m, &total)) {
    ++pasta__registry.unread;
    return;
  }
  pasta__add_snapshot(p, m->symbol, &total);
  pasta__snapshot_free(&total);
}

/* When m's object is unloaded (dlclose), or at exit before the vendor
 * runtime's teardown: its counts and tables are read now, while its code,
 * its vendor runtime and its device image are still there. */
static void pasta__module_unloading(void *index) {
  size_t i = (size_t)(uintptr_t)index - 1;
  const struct pasta_vendor_ops *ops = NULL;
  pasta__lock();
  struct pasta__device_module *m =
      i < pasta__registry.num_device ? &pasta__registry.device[i] : NULL;
  if (m && !m->gone) {
    if (m->exit_armed && !__atomic_load_n(&pasta__reported, __ATOMIC_ACQUIRE)) {
      struct pasta__snapshot total;
      struct pasta__snapshot *keep = malloc(sizeof *keep);
      if (keep && pasta__collect_device_module(m, &total) == 0) {
        *keep = total;
        m->final = keep;
      } else {
        free(keep);
        ++pasta__registry.unread;
      }
    }
    m->gone = 1;
    ops = m->ops_ptr;
  }
  pasta__unlock();
  if (ops)
    pasta__activity_module_gone(ops);
}

/* Before a device reset: the current GPU's counts are read and carried, for
 * the modules whose kernels ran there since the last reset. */
static void pasta__carry_device_module(struct pasta__device_module *m) {
  int dev = pasta__current_device(m);
  if (m->gone)
    return;
  struct pasta__snapshot s;
  if (pasta__snapshot_device(m, dev, &s))
    return;
  free(m->carried[dev]);
  m->carried[dev] = s.sum; /* already includes what was carried before */
  m->carried_n[dev] = s.desc.num_counters;
  s.sum = NULL;
  pasta__snapshot_free(&s);
}

/*===-- Output ------------------------------------------------------------===*/

static const char *pasta__program(void) {
  const char *name = program_invocation_name;
  return name && *name ? name : "unknown";
}

static const char *pasta__basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash && slash[1] ? slash + 1 : path;
}

/* The profile's path: PASTA_OUTPUT with every "%p" replaced by the pid, or
 * pasta-<program>-<pid>.json. */
static char *pasta__output_path(const struct pasta__options *o, long pid) {
  char pidbuf[24];
  snprintf(pidbuf, sizeof pidbuf, "%ld", pid);
  if (!o->output) {
    const char *base = pasta__basename(pasta__program());
    size_t size = strlen(base) + strlen(pidbuf) + sizeof "pasta--.json";
    char *path = malloc(size);
    if (path)
      snprintf(path, size, "pasta-%s-%s.json", base, pidbuf);
    return path;
  }
  size_t size = 1;
  for (const char *s = o->output; *s; ++s) {
    if (s[0] == '%' && s[1] == 'p') {
      size += strlen(pidbuf);
      ++s;
    } else {
      ++size;
    }
  }
  char *path = malloc(size), *d = path;
  if (!path)
    return NULL;
  for (const char *s = o->output; *s; ++s) {
    if (s[0] == '%' && s[1] == 'p') {
      memcpy(d, pidbuf, strlen(pidbuf));
      d += strlen(pidbuf);
      ++s;
    } else {
      *d++ = *s;
    }
  }
  *d = '\0';
  return path;
}

/* When this process started (the file system's clock): an output file
 * modified since was written by another process of the same job (a forked
 * child, another rank) and is kept (output_file.h, PASTA_OUTPUT_UNIQUE). */
static struct timespec pasta__start;

/* A forked child starts counting from zero: its profile holds what it did
 * after fork() returned, the parent's holds the rest, and a merge of both
 * counts everything once. Instrumented frames flush before calling fork()
 * (CountingPass), so no count of the parent's is left in the child's
 * registers; the host counters the parent flushed are zeroed here. */
static void pasta__fork_child(void) {
  for (size_t i = 0; i < pasta__registry.num_host; ++i) {
    const struct pasta_module_desc *d = pasta__registry.host[i];
    if (pasta_profile_check_desc(d) == PASTA_PROFILE_OK && d->counters)
      memset((void *)(uintptr_t)d->counters, 0,
             (size_t)d->num_banks * d->num_counters * sizeof(uint64_t));
  }
  pasta__reported = 0;
  pasta__unlock();
}

__attribute__((constructor)) static void pasta__process_start(void) {
  clock_gettime(CLOCK_REALTIME_COARSE, &pasta__start);
  if (pthread_atfork(pasta__lock, pasta__unlock, pasta__fork_child))
    fprintf(stderr, "pasta: warning: cannot register a fork handler; a "
                    "forked child's profile repeats its parent's counts\n");
}

/* Writes one output file without clobbering anything (output_file.h); says
 * why not, or where it went when another process's file was at `path`.
 * On success *written is the path written (freed by the caller). */
static int pasta__write_output(const char *path, const char *what,
                               pasta_output_writer write, const void *arg,
                               char **written) {
  char err[1024];
  if (pasta_output_write(path, PASTA_OUTPUT_UNIQUE, &pasta__start, write, arg,
                         written, err, sizeof err)) {
    fprintf(stderr,
            "pasta: error: cannot write the %s: %s (PASTA_OUTPUT sets the "
            "profile's path)\n",
            what, err);
    return -1;
  }
  if (strcmp(*written, path) != 0)
    fprintf(stderr,
            "pasta: warning: %s was written by another process since this "
            "one started; the %s is written to %s instead\n",
            path, what, *written);
  return 0;
}

static int pasta__profile_file(FILE *f, const void *p) {
  return pasta_profile_write_json(f, p);
}

/* Collects every registered module and reports, once per process. */
static void pasta__report(void) {
  if (__atomic_exchange_n(&pasta__reported, 1, __ATOMIC_ACQ_REL))
    return;
  int saved_errno = errno;
  struct pasta__options o;
  pasta__read_options(&o);
  pasta__report_options = o;
  long pid = (long)getpid();

  pasta__register_builtins();
  pasta__select_analyzers(o.analyzers, 1);
  pasta__sync_warned = 0; /* said again in the report, if said before */
  pasta_profile p;
  pasta_profile_init(&p);
  if (pasta_profile_set_info(&p, pasta__program(), (uint64_t)pid,
                             (int64_t)time(NULL))) {
    fprintf(stderr, "pasta: error: out of memory; no profile written\n");
    errno = saved_errno;
    return;
  }
  /* Launches still in flight finish (and are timed) before the counters
   * are read. */
  pasta_activity activity;
  int have_activity = pasta__activity_seen() &&
                      pasta__activity_build(
                          &activity, pasta__analyzer_active("bandwidth")) == 0;
  if (pasta__activity_seen() && !have_activity)
    fprintf(stderr, "pasta: warning: out of memory; launches and memory are "
                    "missing from the profile\n");
  p.activity = have_activity ? &activity : NULL;
  pasta__lock();
  for (size_t i = 0; i < pasta__registry.num_host; ++i)
    pasta__read_host_module(&p, pasta__registry.host[i]);
  for (size_t i = 0; i < pasta__registry.num_device; ++i)
    pasta__read_device_module(&p, &pasta__registry.device[i]);
  p.num_unread_modules = (uint32_t)pasta__registry.unread;
  pasta__unlock();
  if (pasta_profile_finalize(&p) != PASTA_PROFILE_OK)
    fprintf(stderr, "pasta: warning: out of memory; the profile has no "
                    "lines\n");

  /* Trace mode: the trace, for the `trace` analyzer (which adds its
   * analyses to the profile's "trace" section). */
  struct pasta_trace trace;
  int have_trace = pasta__trace_build(&trace, pasta__program()) == 0;
  if (have_trace)
    p.trace_events = &trace;
  for (size_t i = 0; i < pasta__num_builtin_analyzers; ++i) {
    const pasta__builtin_hooks *h = pasta__builtin_analyzers[i].hooks;
    if (h && h->prepare)
      h->prepare(&p);
  }
  pasta_analyzer_context ctx = {stderr, o.quiet, o.top_lines, pasta__program(),
                                pid, pasta__write_sibling};
  for (size_t i = 0; i < pasta__num_analyzers; ++i)
    if (pasta__active[i])
      pasta__analyzers[i].on_report(pasta__analyzers[i].state, &p, &ctx);
  for (size_t i = 0; i < pasta__num_builtin_analyzers; ++i) {
    const pasta__builtin_hooks *h = pasta__builtin_analyzers[i].hooks;
    if (h && h->release)
      h->release(&p);
  }
  pasta_profile_free(&p);
  if (have_trace)
    pasta__trace_release(&trace);
  if (have_activity)
    pasta__activity_free(&activity);
  fflush(stderr);
  errno = saved_errno;
}

void __pasta_main_exit(void) { pasta__report(); }

/* Before each call to cudaDeviceReset / hipDeviceReset: inserted by the pass
 * in instrumented code, and called by the link-time wrapper (link_glue.c)
 * for calls from any code. The reset frees the current GPU's counters, so
 * read them now and carry them over; a second call before the next launch
 * finds nothing new to carry. */
/* Set by __pasta_before_device_reset until the reset it precedes is done:
 * an instrumented call to cudaDeviceReset in a program linked with the
 * wrapper (link_glue.c) goes through both, and must carry once. */
static __thread int pasta__reset_carried;

void __pasta_before_device_reset(void) {
  pasta__reset_carried = 1;
  pasta__carry_all();
}

/* link_glue.c's wrapper of cudaDeviceReset / hipDeviceReset, around the
 * real call: carries unless the pass's hook just did. */
void __pasta_reset_begin(void) {
  if (!pasta__reset_carried)
    pasta__carry_all();
}

void __pasta_reset_end(void) { pasta__reset_carried = 0; }

static void pasta__carry_all(void) {
  pasta__lock();
  for (size_t i = 0; i < pasta__registry.num_device; ++i)
    pasta__carry_device_module(&pasta__registry.device[i]);
  pasta__unlock();
  pasta__activity_before_reset();
  __atomic_store_n(&pasta__exit_armed, 0, __ATOMIC_RELEASE);
}

/*===-- The JSON profile, and the built-in analyzers ---------------------===*/

static int pasta__json_report(void *state, const pasta_profile *p,
                              const pasta_analyzer_context *ctx) {
  (void)state;
  char *path = pasta__output_path(&pasta__report_options, ctx->pid);
  if (!path) {
    fprintf(stderr, "pasta: error: out of memory; no profile written\n");
    return -1;
  }
  char *written = NULL;
  int rc =
      pasta__write_output(path, "profile", pasta__profile_file, p, &written);
  if (rc == 0 && !ctx->quiet)
    fprintf(ctx->log, "pasta: profile written to %s\n", written);
  free(written);
  free(path);
  return rc == 0 ? 0 : -1;
}

/* <profile path without .json><suffix>. */
static char *pasta__sibling_path(long pid, const char *suffix) {
  char *json = pasta__output_path(&pasta__report_options, pid);
  if (!json)
    return NULL;
  size_t n = strlen(json);
  if (n >= 5 && strcmp(json + n - 5, ".json") == 0)
    n -= 5;
  char *path = malloc(n + strlen(suffix) + 1);
  if (path) {
    memcpy(path, json, n);
    strcpy(path + n, suffix);
  }
  free(json);
  return path;
}

/* Writes <profile path without .json><suffix> with `write`, then says so
 * (unless quiet) or says why not. `what` names the file in those lines. */
static int pasta__write_sibling(const pasta_analyzer_context *ctx,
                                const char *suffix, const char *what,
                                int (*write)(FILE *, const void *),
                                const void *arg) {
  char *path = pasta__sibling_path(ctx->pid, suffix);
  if (!path) {
    fprintf(stderr, "pasta: error: out of memory; no %s written\n", what);
    return -1;
  }
  char *written = NULL;
  int rc = pasta__write_output(path, what, write, arg, &written);
  if (rc == 0 && !ctx->quiet)
    fprintf(ctx->log, "pasta: %s written to %s\n", what, written);
  free(written);
  free(path);
  return rc;
}

/* The built-ins come first, so their output comes first. */
static void pasta__register_builtins(void) {
  if (pasta__builtins_registered)
    return;
  pasta__builtins_registered = 1;
  for (size_t i = 0; i < pasta__num_builtin_analyzers; ++i)
    pasta_register_analyzer(pasta__builtin_analyzers[i].analyzer);
  static const pasta_analyzer json = {.name = "json",
                                      .on_report = pasta__json_report};
  pasta_register_analyzer(&json);
}
