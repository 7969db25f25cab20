/*===- readback.c - Reading the registered modules -------------------------===*
 *
 * A host module's counters are summed over banks in place; a device
 * module is copied from each GPU it ran on (descriptor, tables, counters)
 * through the vendor calls its host half handed over, summed over banks
 * and GPUs, plus what was carried over a reset. Every failure is one
 * warning and leaves the module out.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "readback.h"
#include "analyzer_registry.h"
#include "intercept.h"
#include "profile/diag.h"
#include "trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    PASTA_WARN("%s %p was built for PASTA ABI version %" PRIu32
               ", this runtime reads version %u: recompile it with this PASTA; "
               "it is left out of the profile\n",
               what, where, d->version, PASTA_ABI_VERSION);
  else
    PASTA_WARN(
        "%s %p has no PASTA descriptor (magic 0x%08" PRIx32
        "): recompile it with this PASTA; it is left out of the profile\n",
        what, where, d->magic);
}

static void pasta__warn_left_out(const char *name, int status) {
  PASTA_WARN("module '%s' is left out of the profile: %s\n", name ? name : "?",
             pasta_profile_strerror(status));
}

static void pasta__add(pasta_profile *p, const struct pasta_module_desc *d,
                       const uint64_t *counters, const char *name) {
  pasta__analyzers_on_module(d, counters);
  int status = pasta_profile_add_module(p, d, counters);
  if (status != PASTA_PROFILE_OK)
    pasta__warn_left_out(name, status);
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

/* The counters the device derives nothing for: each row adds coeff times a
 * counted counter to a derived one (include/pasta/abi.h). Sums over banks
 * and GPUs derive alike, so this runs once per read. Returns -1 when a row
 * names a counter the module does not have. */
static int pasta__derive_counters(uint64_t *sum, uint32_t num_counters,
                                  const struct pasta_derived *rows,
                                  uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    if (rows[i].counter >= num_counters || rows[i].source >= num_counters)
      return -1;
  for (uint32_t i = 0; i < n; ++i) /* modulo 2^64: exact for the true sum */
    sum[rows[i].counter] +=
        (uint64_t)(int64_t)rows[i].coeff * sum[rows[i].source];
  return 0;
}

void pasta__read_host_module(pasta_profile *p,
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
    PASTA_WARN("out of memory reading module '%s'\n", name ? name : "?");
    return;
  }
  /* Host functions derive block counters too (CounterPlacement.h). */
  if (pasta__derive_counters(
          sum, d->num_counters,
          (const struct pasta_derived *)(uintptr_t)d->derived,
          d->derived ? d->num_derived : 0)) {
    pasta__warn_left_out(name, PASTA_PROFILE_EMALFORMED);
    free(sum);
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
    PASTA_WARN("cannot read device module '%s' (%s): "
               "%s (error %d); it is left out of the profile\n",
               name, what, msg ? msg : "unknown error", err);
  else
    PASTA_WARN("cannot read the device module at host "
               "symbol %p (%s): %s (error %d); it is left out of the "
               "profile\n",
               m->symbol, what, msg ? msg : "unknown error", err);
}

int pasta__sync_warned;

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
    PASTA_ERROR("device counts are missing: the %s runtime had "
                "already shut down when PASTA read them (%s, error %d); "
                "launches and memory recorded on the host are in the profile\n",
                vendor, msg ? msg : "unknown error", err);
  else if (pasta__activity_fault(fault, sizeof fault))
    PASTA_ERROR("device counts are missing: %s; the GPU context "
                "was lost with the fault, and the counters with it. The fault "
                "is the program's own (PASTA's counting code writes only its "
                "own counters; the uninstrumented build faults too: "
                "compute-sanitizer shows the access). Launches and memory "
                "recorded on the host are in the profile\n",
                fault);
  else
    PASTA_ERROR("device counts are missing: synchronizing the GPU "
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

void pasta__snapshot_free(struct pasta__snapshot *s) {
  free(s->funcs);
  free(s->sites);
  free(s->scopes);
  free(s->accesses);
  free(s->div_rows);
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
       *accesses = NULL, *derived = NULL, *div_rows = NULL;
  char *strings = NULL;
  const char *name = NULL;
  size_t counter_bytes =
      pasta__bytes((uint64_t)d.num_banks * d.num_counters, sizeof(uint64_t));
  size_t sizes[8] = {
      pasta__bytes(d.strings_size, 1),
      pasta__bytes(d.num_funcs, sizeof(struct pasta_func)),
      pasta__bytes(d.num_sites, sizeof(struct pasta_site)),
      counter_bytes,
      pasta__bytes(d.num_scopes, sizeof(struct pasta_scope)),
      pasta__bytes(d.num_accesses, sizeof(struct pasta_access)),
      pasta__bytes(d.num_derived, sizeof(struct pasta_derived)),
      pasta__bytes(d.num_div_rows, sizeof(struct pasta_div_row)),
  };
  void **dst[8] = {(void **)&strings, &funcs,    &sites,   &counters,
                   &scopes,           &accesses, &derived, &div_rows};
  uint64_t src[8] = {d.strings, d.funcs,    d.sites,   d.counters,
                     d.scopes,  d.accesses, d.derived, d.div_rows};
  static const char *const what[8] = {"copying its strings",
                                      "copying its functions",
                                      "copying its sites",
                                      "copying its counters",
                                      "copying its scopes",
                                      "copying its accesses",
                                      "copying its derived counters",
                                      "copying its divergence rows"};
  for (int i = 0; i < 8; ++i) {
    int rc = pasta__copy_array(m, src[i], sizes[i], dst[i], &err);
    if (i == 0 && rc == 0)
      name = pasta__module_name(&d, strings);
    if (rc < 0) {
      PASTA_WARN("out of memory reading device module "
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
    pasta__warn_left_out(name, PASTA_PROFILE_EMALFORMED);
    goto out;
  }
  uint64_t *sum = pasta__sum_banks(counters, d.num_banks, d.num_counters, 0);
  if (!sum) {
    PASTA_WARN("out of memory reading device module "
               "'%s'\n",
               name ? name : "?");
    goto out;
  }
  if (pasta__derive_counters(sum, d.num_counters, derived, d.num_derived)) {
    pasta__warn_left_out(name, PASTA_PROFILE_EMALFORMED);
    free(sum);
    goto out;
  }
  free(derived);
  d.num_derived = 0; /* the sums hold the derived counts now */
  d.derived = 0;
  const uint64_t *carried = m->carried[device];
  if (carried && m->carried_n[device] == d.num_counters)
    for (uint32_t c = 0; c < d.num_counters; ++c)
      sum[c] += carried[c];
  free(counters);
  *s = (struct pasta__snapshot){d,        funcs,   sites, scopes, accesses,
                                div_rows, strings, sum,   name};
  return 0;
out:
  free(funcs);
  free(sites);
  free(scopes);
  free(accesses);
  free(strings);
  free(counters);
  free(derived);
  free(div_rows);
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
int pasta__collect_device_module(struct pasta__device_module *m,
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

/* A kernel whose divergence copy never ran (PASTA_DIVERGENCE unset at run
 * time, or launched only into graphs or through the driver API, which run
 * its counting copy) measured no divergence figures. Its rows would still
 * hold what read-back derives from the counting counters (requests, bytes,
 * executions) beside zeros for everything measured, which reads as a
 * measurement: they are cleared, with those of the device functions only it
 * reaches. A kernel the program never registered is left as it is. */
void pasta__clear_unmeasured_divergence(const struct pasta__snapshot *s) {
  const struct pasta_module_desc *d = &s->desc;
  const struct pasta_func *funcs = s->funcs;
  const struct pasta_div_row *rows = s->div_rows;
  /* A function's rows come one after another: ask once per run of them. */
  uint32_t asked = PASTA_NONE;
  int unmeasured = 0;
  for (uint32_t i = 0; i < d->num_div_rows && rows && funcs; ++i) {
    const struct pasta_div_row *r = &rows[i];
    if (r->func >= d->num_funcs || d->num_counters < PASTA_DIV_NUM ||
        r->counter > d->num_counters - PASTA_DIV_NUM)
      continue; /* malformed: the profile rejects the module */
    uint32_t k = funcs[r->func].kind == PASTA_FUNC_KERNEL
                     ? r->func
                     : funcs[r->func].owner;
    if (k >= d->num_funcs || funcs[k].name >= d->strings_size ||
        !memchr(s->strings + funcs[k].name, 0, d->strings_size - funcs[k].name))
      continue; /* shared by kernels, or malformed */
    if (k != asked) {
      asked = k;
      unmeasured =
          pasta__activity_divergence_unmeasured(s->strings + funcs[k].name);
    }
    if (unmeasured)
      memset(&s->sum[r->counter], 0, PASTA_DIV_NUM * sizeof *s->sum);
  }
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
  h.div_rows = (uint64_t)(uintptr_t)total->div_rows;
  h.num_banks = 1;
  pasta__clear_unmeasured_divergence(total);
  pasta__add(p, &h, total->sum, total->name);
  pasta__trace_add_module(key, &h, total->sum);
}

/* Reads module m (or takes what was read when its object was unloaded) and
 * adds it to p once. Lock held. */
void pasta__read_device_module(pasta_profile *p,
                               struct pasta__device_module *m) {
  if (m->final) {
    pasta__add_snapshot(p, m->symbol, m->final);
    return;
  }
  if (m->gone || m->kept)
    return; /* unloaded before any of its kernels ran, or unreadable */
  struct pasta__snapshot total;
  if (pasta__collect_device_module(m, &total)) {
    ++pasta__registry.unread;
    return;
  }
  pasta__add_snapshot(p, m->symbol, &total);
  pasta__snapshot_free(&total);
}

/* The device stage at exit: module m read now, while its vendor runtime is
 * alive, and kept for the report. Lock held. */
void pasta__keep_device_module(struct pasta__device_module *m) {
  if (m->final || m->gone || m->kept)
    return;
  m->kept = 1;
  struct pasta__snapshot *keep = malloc(sizeof *keep);
  if (keep && pasta__collect_device_module(m, keep) == 0) {
    m->final = keep;
  } else {
    free(keep);
    ++pasta__registry.unread;
  }
}

/* Before a device reset: the current GPU's counts are read and carried, for
 * the modules whose kernels ran there since the last reset. */
void pasta__carry_device_module(struct pasta__device_module *m) {
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
