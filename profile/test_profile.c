/*===- test_profile.c - Unit tests of the PASTA profile model -------------===*
 *
 * Builds fake modules in memory (a device module with two counter banks and
 * a host module), adds them to a profile and checks the totals against
 * values computed here from the inputs, then checks the JSON (parsed back
 * with jansson, which only this test links) and the tables.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream */
#include "activity.h"
#include "activity_read.h"
#include "activity_text.h"
#include "analyzers/tables/tables.h"
#include "demangle.h"
#include "json_write.h"
#include "pasta/profile.h"
#include "profile_json.h"
#include "profile_read.h"
#include "text_table.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

/*===-- Fake modules ------------------------------------------------------===*/

enum { MAX_FUNCS = 8, MAX_SITES = 16, NUM_COUNTERS = 64, NUM_BANKS = 2 };

struct fake_module {
  char strings[512];
  uint32_t strings_size;
  struct pasta_func funcs[MAX_FUNCS];
  uint32_t num_funcs;
  struct pasta_site sites[MAX_SITES];
  uint32_t num_sites;
  uint64_t banks[NUM_BANKS][NUM_COUNTERS];
  uint64_t summed[NUM_COUNTERS];
  struct pasta_module_desc desc;
};

static uint32_t add_string(struct fake_module *m, const char *s) {
  uint32_t off = m->strings_size;
  size_t len = strlen(s) + 1;
  memcpy(m->strings + off, s, len);
  m->strings_size += (uint32_t)len;
  return off;
}

static uint32_t add_func(struct fake_module *m, const char *name, uint32_t kind,
                         const char *file, uint32_t line,
                         uint32_t calls_counter, uint32_t owner) {
  struct pasta_func *f = &m->funcs[m->num_funcs];
  f->name = add_string(m, name);
  f->kind = kind;
  f->file = file ? add_string(m, file) : PASTA_NONE;
  f->line = line;
  f->calls_counter = calls_counter;
  f->owner = owner;
  f->display = PASTA_NONE;
  return m->num_funcs++;
}

static struct pasta_site *add_site(struct fake_module *m, uint32_t func,
                                   const char *file, uint32_t line,
                                   uint32_t counter, uint32_t dyn_counter) {
  struct pasta_site *s = &m->sites[m->num_sites++];
  memset(s, 0, sizeof *s);
  s->func = func;
  s->file = file ? add_string(m, file) : PASTA_NONE;
  s->line = line;
  s->counter = counter;
  s->dyn_counter = dyn_counter;
  s->bytes_counter = PASTA_NONE;
  return s;
}

/* Splits `value` of counter c over the banks, as flushes from several
 * thread blocks would. */
static void set_counter(struct fake_module *m, uint32_t c, uint64_t value) {
  m->banks[0][c] = value - value / 3;
  if (m->desc.num_banks > 1)
    m->banks[1][c] = value / 3;
  else
    m->banks[0][c] = value;
}

/* What the runtime does before pasta_profile_add_module. */
static void finish_module(struct fake_module *m, uint32_t target,
                          const char *module_name) {
  m->desc.magic = PASTA_ABI_MAGIC;
  m->desc.version = PASTA_ABI_VERSION;
  m->desc.target = target;
  m->desc.num_funcs = m->num_funcs;
  m->desc.num_sites = m->num_sites;
  m->desc.num_counters = NUM_COUNTERS;
  m->desc.module_name = add_string(m, module_name);
  m->desc.strings_size = m->strings_size;
  m->desc.funcs = (uint64_t)(uintptr_t)m->funcs;
  m->desc.sites = (uint64_t)(uintptr_t)m->sites;
  m->desc.strings = (uint64_t)(uintptr_t)m->strings;
  m->desc.counters = (uint64_t)(uintptr_t)m->banks;
  for (uint32_t c = 0; c < NUM_COUNTERS; ++c) {
    m->summed[c] = 0;
    for (uint32_t b = 0; b < m->desc.num_banks; ++b)
      m->summed[c] += m->banks[b][c];
  }
}

/* Inputs of the device module. Block execution counts: */
enum {
  AXPY_LAUNCHES = 3,
  OTHER_LAUNCHES = 10,
  SHARED_CALLS = 128,
  N_A = 1024, /* axpy block A (lines 12, 13, 14) */
  N_B = 512,  /* axpy block B (line 12) */
  N_H = 512,  /* helper's block (owned by axpy) */
  N_S = 128,  /* shared_fn's block */
  N_O = 10,   /* other's block */
  /* Run-time classification of generic accesses (thread totals). */
  A_LD_SHARED = 300,
  A_LD_SHARED_BYTES = 1200,
  A_LD_LOCAL = 24,
  A_LD_LOCAL_BYTES = 96,
  H_ST_SHARED = 100,
  H_ST_SHARED_BYTES = 800,
  S_LD_LOCAL = 128,
  S_LD_LOCAL_BYTES = 1024,
};

/* Counter indices. */
enum {
  C_AXPY = 0,
  C_HELPER,
  C_SHARED,
  C_OTHER,
  C_BLOCK_A,
  C_BLOCK_B,
  C_BLOCK_H,
  C_BLOCK_S,
  C_BLOCK_O,
  C_DYN_A = 10,
  C_DYN_H = 20,
  C_DYN_S = 30
};

static struct fake_module device;

static void build_device_module(void) {
  struct fake_module *m = &device;
  memset(m, 0, sizeof *m);
  m->desc.num_banks = NUM_BANKS;
  uint32_t axpy = add_func(m, "_Z4axpyifPKfPf", PASTA_FUNC_KERNEL, "a.cu", 10,
                           C_AXPY, PASTA_NONE);
  uint32_t helper = add_func(m, "_Z6helperPf", PASTA_FUNC_DEVICE, "h.cuh", 19,
                             C_HELPER, axpy);
  uint32_t shared = add_func(m, "_Z9shared_fnPd", PASTA_FUNC_DEVICE, "h.cuh",
                             29, C_SHARED, PASTA_NONE);
  uint32_t other =
      add_func(m, "_Z5otherv", PASTA_FUNC_KERNEL, NULL, 0, C_OTHER, PASTA_NONE);

  struct pasta_site *s;
  /* axpy, block A, line 12: plain global traffic and f32 FLOPs. */
  s = add_site(m, axpy, "a.cu", 12, C_BLOCK_A, PASTA_NONE);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GLOBAL] = 2;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GLOBAL] = 8;
  s->mix[PASTA_MIX_STORES + PASTA_SPACE_GLOBAL] = 1;
  s->mix[PASTA_MIX_STORE_BYTES + PASTA_SPACE_GLOBAL] = 4;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = 2;
  /* axpy, block A, line 13: one generic load, resolved at run time. */
  s = add_site(m, axpy, "a.cu", 13, C_BLOCK_A, C_DYN_A);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GENERIC] = 1;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GENERIC] = 4;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = 1;
  s->mix[PASTA_MIX_SPECIAL] = 1;
  /* axpy, block B, line 12 again: shared loads, f64. */
  s = add_site(m, axpy, "a.cu", 12, C_BLOCK_B, PASTA_NONE);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_SHARED] = 1;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_SHARED] = 4;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F64] = 1;
  /* Two sites of block A on line 14 (they share the block counter). */
  s = add_site(m, axpy, "a.cu", 14, C_BLOCK_A, PASTA_NONE);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GLOBAL] = 1;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GLOBAL] = 4;
  s = add_site(m, axpy, "a.cu", 14, C_BLOCK_A, PASTA_NONE);
  s->mix[PASTA_MIX_STORES + PASTA_SPACE_GLOBAL] = 1;
  s->mix[PASTA_MIX_STORE_BYTES + PASTA_SPACE_GLOBAL] = 4;
  /* helper (owned by axpy): generic stores and a generic atomic. */
  s = add_site(m, helper, "h.cuh", 20, C_BLOCK_H, C_DYN_H);
  s->mix[PASTA_MIX_STORES + PASTA_SPACE_GENERIC] = 2;
  s->mix[PASTA_MIX_STORE_BYTES + PASTA_SPACE_GENERIC] = 16;
  s->mix[PASTA_MIX_ATOMICS + PASTA_SPACE_GENERIC] = 1;
  s->mix[PASTA_MIX_ATOMIC_BYTES + PASTA_SPACE_GENERIC] = 4;
  s->mix[PASTA_MIX_SPECIAL] = 1;
  /* shared_fn (reached by several kernels): a generic load that always
   * turns out local, a constant load, half-precision FLOPs. */
  s = add_site(m, shared, "h.cuh", 30, C_BLOCK_S, C_DYN_S);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GENERIC] = 1;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GENERIC] = 8;
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_CONSTANT] = 1;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_CONSTANT] = 4;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F16] = 4;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_BF16] = 2;
  /* other: no debug info, FLOPs only. */
  s = add_site(m, other, NULL, 0, C_BLOCK_O, PASTA_NONE);
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = 3;

  set_counter(m, C_AXPY, AXPY_LAUNCHES);
  set_counter(m, C_HELPER, 999); /* thread-level calls, not reported */
  set_counter(m, C_SHARED, SHARED_CALLS);
  set_counter(m, C_OTHER, OTHER_LAUNCHES);
  set_counter(m, C_BLOCK_A, N_A);
  set_counter(m, C_BLOCK_B, N_B);
  set_counter(m, C_BLOCK_H, N_H);
  set_counter(m, C_BLOCK_S, N_S);
  set_counter(m, C_BLOCK_O, N_O);
  set_counter(m, C_DYN_A + PASTA_DYN_LD_SHARED, A_LD_SHARED);
  set_counter(m, C_DYN_A + PASTA_DYN_LD_SHARED_BYTES, A_LD_SHARED_BYTES);
  set_counter(m, C_DYN_A + PASTA_DYN_LD_LOCAL, A_LD_LOCAL);
  set_counter(m, C_DYN_A + PASTA_DYN_LD_LOCAL_BYTES, A_LD_LOCAL_BYTES);
  set_counter(m, C_DYN_H + PASTA_DYN_ST_SHARED, H_ST_SHARED);
  set_counter(m, C_DYN_H + PASTA_DYN_ST_SHARED_BYTES, H_ST_SHARED_BYTES);
  set_counter(m, C_DYN_S + PASTA_DYN_LD_LOCAL, S_LD_LOCAL);
  set_counter(m, C_DYN_S + PASTA_DYN_LD_LOCAL_BYTES, S_LD_LOCAL_BYTES);
  finish_module(m, PASTA_TARGET_NVPTX, "a.cu");
}

/* The host module. */
enum {
  MAIN_CALLS = 1,
  FOOI_CALLS = 7,
  FOOD_CALLS = 3,
  WEIRD_CALLS = 1,
  HOST_AXPY_CALLS = 4,
  N_WEIRD = 2,
};

#define WEIRD_FILE "we\"ird\\dir/\n\t\x01\x1f caf\xc3\xa9 \xff.c"
/* What a JSON reader must get back: the invalid byte 0xff becomes U+FFFD. */
#define WEIRD_FILE_DECODED                                                     \
  "we\"ird\\dir/\n\t\x01\x1f caf\xc3\xa9 \xef\xbf\xbd.c"

static struct fake_module host;

static void build_host_module(void) {
  struct fake_module *m = &host;
  memset(m, 0, sizeof *m);
  m->desc.num_banks = 1;
  uint32_t mainf =
      add_func(m, "main", PASTA_FUNC_HOST, "m.c", 1, 0, PASTA_NONE);
  uint32_t fooi =
      add_func(m, "_Z3fooi", PASTA_FUNC_HOST, "m.c", 5, 1, PASTA_NONE);
  uint32_t food =
      add_func(m, "_Z3food", PASTA_FUNC_HOST, "m.c", 5, 2, PASTA_NONE);
  uint32_t weird =
      add_func(m, "_ZL5weirdv", PASTA_FUNC_HOST, WEIRD_FILE, 8, 3, PASTA_NONE);
  uint32_t haxpy =
      add_func(m, "_Z4axpyifPKfPf", PASTA_FUNC_HOST, "a.cu", 10, 8, PASTA_NONE);
  struct pasta_site *s;
  s = add_site(m, mainf, "m.c", 2, 4, PASTA_NONE);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GENERIC] = 1;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GENERIC] = 8;
  /* foo(int) and foo(double) on the same line: two functions, two lines. */
  s = add_site(m, fooi, "m.c", 6, 5, PASTA_NONE);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GENERIC] = 2;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GENERIC] = 8;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F64] = 1;
  s = add_site(m, food, "m.c", 6, 6, PASTA_NONE);
  s->mix[PASTA_MIX_STORES + PASTA_SPACE_GENERIC] = 1;
  s->mix[PASTA_MIX_STORE_BYTES + PASTA_SPACE_GENERIC] = 8;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F64] = 2;
  s = add_site(m, weird, WEIRD_FILE, 9, 7, PASTA_NONE);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GENERIC] = 1;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GENERIC] = 1;
  /* A host function named like the kernel, on the kernel's line. */
  s = add_site(m, haxpy, "a.cu", 12, 9, PASTA_NONE);
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = 1;
  set_counter(m, 0, MAIN_CALLS);
  set_counter(m, 1, FOOI_CALLS);
  set_counter(m, 2, FOOD_CALLS);
  set_counter(m, 3, WEIRD_CALLS);
  set_counter(m, 4, MAIN_CALLS);
  set_counter(m, 5, FOOI_CALLS);
  set_counter(m, 6, FOOD_CALLS);
  set_counter(m, 7, N_WEIRD);
  set_counter(m, 8, HOST_AXPY_CALLS);
  set_counter(m, 9, HOST_AXPY_CALLS);
  finish_module(m, PASTA_TARGET_HOST, "m.c");
}

static pasta_profile profile;

static void build_profile(void) {
  build_device_module();
  build_host_module();
  pasta_profile_init(&profile);
  CHECK_EQ_INT(pasta_profile_set_info(&profile, "./fake", 4242, 86400 + 3661),
               0);
  CHECK_EQ_INT(pasta_profile_add_module(&profile, &device.desc, device.summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_add_module(&profile, &host.desc, host.summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_finalize(&profile), PASTA_PROFILE_OK);
}

static const pasta_profile_func *find_func(const pasta_profile_func *fs,
                                           size_t n, const char *mangled) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(fs[i].mangled, mangled) == 0)
      return &fs[i];
  return NULL;
}

static const pasta_profile_line *find_line(const char *file, uint32_t line,
                                           const char *function,
                                           uint32_t kind) {
  for (size_t i = 0; i < profile.num_lines; ++i) {
    const pasta_profile_line *l = &profile.lines[i];
    if (((!file && !l->file) || (file && l->file && !strcmp(file, l->file))) &&
        l->line == line && !strcmp(l->function, function) && l->kind == kind)
      return l;
  }
  return NULL;
}

/*===-- Tests -------------------------------------------------------------===*/

/* Display names are the C++ runtime's demangled names (demangle.c; the
 * manglings read by hand: _Z4axpyifPKfPf is axpy(int, float, float const*,
 * float*), _ZL5weirdv a static weird(), _Z3fooi foo(int)). */
#define AXPY "axpy(int, float, float const*, float*)"

static void test_rejection(void) {
  pasta_profile p;
  pasta_profile_init(&p);
  struct pasta_module_desc d = device.desc;
  d.magic = 0x12345678;
  CHECK_EQ_INT(pasta_profile_add_module(&p, &d, device.summed),
               PASTA_PROFILE_EMAGIC);
  d = device.desc;
  d.version = PASTA_ABI_VERSION + 1;
  CHECK_EQ_INT(pasta_profile_add_module(&p, &d, device.summed),
               PASTA_PROFILE_EVERSION);
  CHECK_EQ_INT(pasta_profile_check_desc(&d), PASTA_PROFILE_EVERSION);
  CHECK_HAS_STR(pasta_profile_strerror(PASTA_PROFILE_EVERSION), "version");
  CHECK(p.num_kernels == 0 && p.num_modules == 0 && p.num_raw_lines == 0);

  /* Malformed tables: the profile stays unchanged. */
  struct fake_module *m = malloc(sizeof *m);
  *m = device;
  m->desc.funcs = (uint64_t)(uintptr_t)m->funcs;
  m->desc.sites = (uint64_t)(uintptr_t)m->sites;
  m->desc.strings = (uint64_t)(uintptr_t)m->strings;
  m->sites[1].func = m->num_funcs;
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_EMALFORMED);
  m->sites[1] = device.sites[1];
  m->sites[1].dyn_counter = NUM_COUNTERS - PASTA_DYN_NUM + 1;
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_EMALFORMED);
  m->sites[1] = device.sites[1];
  m->funcs[0].name = m->desc.strings_size;
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_EMALFORMED);
  /* A name that runs off the end of the string table. */
  m->funcs[0].name = (uint32_t)m->desc.module_name;
  m->strings[m->strings_size - 1] = 'x';
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_EMALFORMED);
  CHECK(p.num_kernels == 0 && p.num_modules == 0 && p.num_raw_lines == 0);
  m->strings[m->strings_size - 1] = '\0';
  m->funcs[0] = device.funcs[0];
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(p.num_kernels, 2);
  CHECK_EQ_INT(pasta_profile_finalize(&p), PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_EFINALIZED);
  free(m);
  pasta_profile_free(&p);
}

/* A name the plugin demangled (LLVM's demangler, recorded in the function
 * table) is shown as recorded, also when the C++ runtime could read the
 * mangling otherwise or not at all: here none is at hand. Names without
 * one keep the runtime's demangling. */
static void test_recorded_display_names(void) {
  struct fake_module *m = calloc(1, sizeof *m);
  if (!m)
    return;
  /* clang-22's mangling of a constrained template with a `Tn` parameter. */
  static const char mangled[] = "_Z5clampITnDaLi3EQ8integralIT_EEiS0_",
                    shown[] = "int clamp<3>(int)";
  uint32_t f = add_func(m, mangled, PASTA_FUNC_HOST, "c.cpp", 3, 0, PASTA_NONE);
  m->funcs[f].display = add_string(m, shown);
  add_site(m, f, "c.cpp", 4, 1, PASTA_NONE);
  add_func(m, "_Z3fooi", PASTA_FUNC_HOST, "c.cpp", 9, 2, PASTA_NONE);
  set_counter(m, 0, 5);
  set_counter(m, 1, 5);
  m->desc.num_banks = 1;
  finish_module(m, PASTA_TARGET_HOST, "c.cpp");
  pasta__demangle_disable(1);
  pasta_profile p;
  pasta_profile_init(&p);
  p.list_all = 1; /* foo did not run */
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  const pasta_profile_func *e =
      find_func(p.host_functions, p.num_host_functions, mangled);
  CHECK(e != NULL);
  if (e)
    CHECK_EQ_STR(e->name, shown);
  e = find_func(p.host_functions, p.num_host_functions, "_Z3fooi");
  CHECK(e != NULL);
  if (e)
    CHECK_EQ_STR(e->name, "_Z3fooi"); /* no demangler at hand */
  CHECK(p.num_lines == 1);
  if (p.num_lines == 1)
    CHECK_EQ_STR(p.lines[0].function, shown);
  pasta_profile_free(&p);
  pasta__demangle_disable(0);
  /* 0 reads as none (a table made without the field): the name as it is. */
  m->funcs[f].display = 0;
  pasta__demangle_disable(1);
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  e = find_func(p.host_functions, p.num_host_functions, mangled);
  if (CHECK(e != NULL))
    CHECK_EQ_STR(e->name, shown); /* not offset 0 (the symbol): remembered */
  pasta_profile_free(&p);
  pasta__demangle_disable(0);
  /* An offset outside the strings is malformed. */
  m->funcs[f].display = m->strings_size + 7;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_EMALFORMED);
  pasta_profile_free(&p);
  free(m);
}

static void test_kernel_totals(void) {
  const pasta_profile_func *k =
      find_func(profile.kernels, profile.num_kernels, "_Z4axpyifPKfPf");
  CHECK(k != NULL);
  if (!k)
    return;
  const pasta_counts *c = &k->counts;
  CHECK_EQ_STR(k->name, AXPY);
  CHECK_EQ_STR(k->module, "a.cu");
  CHECK_EQ_STR(k->file, "a.cu");
  CHECK_EQ_U64(k->line, 10);
  CHECK_EQ_U64(k->calls, AXPY_LAUNCHES);
  /* Loads: line 12 (2 global per A, 1 shared per B), line 13 (1 generic per
   * A, resolved), line 14 (1 global per A). */
  CHECK_EQ_U64(c->loads[PASTA_SPACE_GLOBAL],
               2 * N_A + (1 * N_A - A_LD_SHARED - A_LD_LOCAL) + 1 * N_A);
  CHECK_EQ_U64(c->loads[PASTA_SPACE_SHARED], 1 * N_B + A_LD_SHARED);
  CHECK_EQ_U64(c->loads[PASTA_SPACE_LOCAL], A_LD_LOCAL);
  CHECK_EQ_U64(c->load_bytes[PASTA_SPACE_GLOBAL],
               8 * N_A + (4 * N_A - A_LD_SHARED_BYTES - A_LD_LOCAL_BYTES) +
                   4 * N_A);
  CHECK_EQ_U64(c->load_bytes[PASTA_SPACE_SHARED], 4 * N_B + A_LD_SHARED_BYTES);
  CHECK_EQ_U64(c->load_bytes[PASTA_SPACE_LOCAL], A_LD_LOCAL_BYTES);
  /* Stores: line 12 and 14 (global), plus the owned helper (generic). */
  CHECK_EQ_U64(c->stores[PASTA_SPACE_GLOBAL],
               1 * N_A + 1 * N_A + (2 * N_H - H_ST_SHARED));
  CHECK_EQ_U64(c->stores[PASTA_SPACE_SHARED], H_ST_SHARED);
  CHECK_EQ_U64(c->store_bytes[PASTA_SPACE_GLOBAL],
               4 * N_A + 4 * N_A + (16 * N_H - H_ST_SHARED_BYTES));
  CHECK_EQ_U64(c->store_bytes[PASTA_SPACE_SHARED], H_ST_SHARED_BYTES);
  CHECK_EQ_U64(c->atomics[PASTA_SPACE_GLOBAL], 1 * N_H);
  CHECK_EQ_U64(c->atomic_bytes[PASTA_SPACE_GLOBAL], 4 * N_H);
  CHECK_EQ_U64(c->flops[PASTA_PREC_F32], 2 * N_A + 1 * N_A);
  CHECK_EQ_U64(c->flops[PASTA_PREC_F64], 1 * N_B);
  CHECK_EQ_U64(c->flops[PASTA_PREC_F16], 0);
  CHECK_EQ_U64(c->special, 1 * N_A + 1 * N_H);
  double ci = -1;
  CHECK_EQ_INT(pasta_counts_intensity(c, &ci), 1);
  double global_bytes = (double)c->load_bytes[PASTA_SPACE_GLOBAL] +
                        (double)c->store_bytes[PASTA_SPACE_GLOBAL] +
                        (double)c->atomic_bytes[PASTA_SPACE_GLOBAL];
  CHECK(fabs(ci - (3.0 * N_A + N_B) / global_bytes) < 1e-12);

  const pasta_profile_func *o =
      find_func(profile.kernels, profile.num_kernels, "_Z5otherv");
  CHECK(o != NULL);
  if (o) {
    CHECK_EQ_U64(o->calls, OTHER_LAUNCHES);
    CHECK_EQ_PTR(o->file, NULL);
    CHECK_EQ_U64(o->counts.flops[PASTA_PREC_F32], 3 * N_O);
    CHECK_EQ_INT(pasta_counts_intensity(&o->counts, &ci), 0);
  }
}

static void test_generic_resolution(void) {
  /* No device entry keeps anything under "generic". */
  const pasta_profile_func *lists[] = {profile.kernels,
                                       profile.device_functions};
  size_t counts[] = {profile.num_kernels, profile.num_device_functions};
  for (int l = 0; l < 2; ++l)
    for (size_t i = 0; i < counts[l]; ++i) {
      const pasta_counts *c = &lists[l][i].counts;
      CHECK_EQ_U64(c->loads[PASTA_SPACE_GENERIC], 0);
      CHECK_EQ_U64(c->stores[PASTA_SPACE_GENERIC], 0);
      CHECK_EQ_U64(c->load_bytes[PASTA_SPACE_GENERIC], 0);
      CHECK_EQ_U64(c->store_bytes[PASTA_SPACE_GENERIC], 0);
      CHECK_EQ_U64(c->atomics[PASTA_SPACE_GENERIC], 0);
      CHECK_EQ_U64(c->atomic_bytes[PASTA_SPACE_GENERIC], 0);
    }
  /* Line 13 alone: generic load split into shared, local, global. */
  const pasta_profile_line *l = find_line("a.cu", 13, AXPY, PASTA_FUNC_KERNEL);
  CHECK(l != NULL);
  if (l) {
    CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_SHARED], A_LD_SHARED_BYTES);
    CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_LOCAL], A_LD_LOCAL_BYTES);
    CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_GLOBAL],
                 4 * N_A - A_LD_SHARED_BYTES - A_LD_LOCAL_BYTES);
    CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_GENERIC], 0);
    CHECK_EQ_U64(l->counts.loads[PASTA_SPACE_GLOBAL],
                 N_A - A_LD_SHARED - A_LD_LOCAL);
  }
  /* A site whose generic load always turned out local. */
  const pasta_profile_func *s = find_func(
      profile.device_functions, profile.num_device_functions, "_Z9shared_fnPd");
  CHECK(s != NULL);
  if (s) {
    CHECK_EQ_U64(s->counts.loads[PASTA_SPACE_LOCAL], S_LD_LOCAL);
    CHECK_EQ_U64(s->counts.loads[PASTA_SPACE_GLOBAL], 1 * N_S - S_LD_LOCAL);
    CHECK_EQ_U64(s->counts.load_bytes[PASTA_SPACE_GLOBAL],
                 8 * N_S - S_LD_LOCAL_BYTES);
    CHECK_EQ_U64(s->counts.load_bytes[PASTA_SPACE_CONSTANT], 4 * N_S);
  }
  /* Inconsistent dyn counts (more than the generic total) do not wrap. */
  struct fake_module *m = malloc(sizeof *m);
  *m = device;
  m->desc.funcs = (uint64_t)(uintptr_t)m->funcs;
  m->desc.sites = (uint64_t)(uintptr_t)m->sites;
  m->desc.strings = (uint64_t)(uintptr_t)m->strings;
  m->summed[C_DYN_A + PASTA_DYN_LD_SHARED] = 10 * N_A;
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_OK);
  const pasta_profile_func *k =
      find_func(p.kernels, p.num_kernels, "_Z4axpyifPKfPf");
  CHECK(k && k->counts.loads[PASTA_SPACE_GLOBAL] == 2 * N_A + 1 * N_A);
  pasta_profile_free(&p);
  free(m);
}

static void test_device_functions(void) {
  /* Only the shared device function is listed; the owned helper was folded
   * into axpy (test_kernel_totals). */
  CHECK_EQ_U64(profile.num_device_functions, 1);
  CHECK_EQ_U64(find_func(profile.device_functions, profile.num_device_functions,
                         "_Z6helperPf"),
               NULL);
  const pasta_profile_func *s = profile.device_functions;
  if (!profile.num_device_functions)
    return;
  CHECK_EQ_STR(s->name, "shared_fn(double*)");
  CHECK_EQ_U64(s->kind, PASTA_FUNC_DEVICE);
  CHECK_EQ_U64(s->calls, SHARED_CALLS);
  CHECK_EQ_U64(s->counts.flops[PASTA_PREC_F16], 4 * N_S);
  CHECK_EQ_U64(s->counts.flops[PASTA_PREC_BF16], 2 * N_S);
  double ci;
  CHECK_EQ_INT(pasta_counts_intensity(&s->counts, &ci),
               0); /* no global bytes */
}

static void test_host_functions(void) {
  CHECK_EQ_U64(profile.num_host_functions, 5);
  const pasta_profile_func *f =
      find_func(profile.host_functions, profile.num_host_functions, "_Z3fooi");
  CHECK(f != NULL);
  if (!f)
    return;
  CHECK_EQ_STR(f->name, "foo(int)");
  CHECK_EQ_U64(f->calls, FOOI_CALLS);
  /* Host functions keep everything under "generic". */
  CHECK_EQ_U64(f->counts.loads[PASTA_SPACE_GENERIC], 2 * FOOI_CALLS);
  CHECK_EQ_U64(f->counts.load_bytes[PASTA_SPACE_GENERIC], 8 * FOOI_CALLS);
  CHECK_EQ_U64(f->counts.loads[PASTA_SPACE_GLOBAL], 0);
  CHECK_EQ_U64(f->counts.flops[PASTA_PREC_F64], 1 * FOOI_CALLS);
  double ci = 0;
  CHECK_EQ_INT(pasta_counts_intensity(&f->counts, &ci), 1);
  CHECK(fabs(ci - 1.0 / 8.0) < 1e-12);
}

/* Paths shown normalised, lexically (issue 46). */
static void test_path_normal(void) {
  static const char *const cases[][2] = {
      {"programs/../lib/lz4.c", "lib/lz4.c"},
      {"/a/./b//c", "/a/b/c"},
      {"/a/b/../../c", "/c"},
      {"/../x", "/x"},
      {"../a/b/../c", "../a/c"},
      {"a/../..", ".."},
      {"a/..", "."},
      {"./a.c", "a.c"},
      {"/", "/"},
      {"plain.c", "plain.c"},
  };
  char buf[64];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
    CHECK_EQ_STR(pasta__path_normal(cases[i][0], buf, sizeof buf), cases[i][1]);
  CHECK(pasta__path_normal(NULL, buf, sizeof buf) == NULL);
  char small[5];
  CHECK_EQ_STR(pasta__path_normal("abcdef/g", small, sizeof small), "abcd");
}

static void test_sorting(void) {
  CHECK_EQ_U64(profile.num_kernels, 2);
  if (profile.num_kernels == 2) {
    CHECK_EQ_STR(profile.kernels[0].mangled, "_Z5otherv");
    CHECK_EQ_STR(profile.kernels[1].mangled, "_Z4axpyifPKfPf");
  }
  for (size_t i = 1; i < profile.num_host_functions; ++i)
    CHECK(profile.host_functions[i - 1].calls >=
          profile.host_functions[i].calls);
  for (size_t i = 1; i < profile.num_lines; ++i) {
    const pasta_counts *a = &profile.lines[i - 1].counts;
    const pasta_counts *b = &profile.lines[i].counts;
    CHECK(pasta_counts_bytes(a) + pasta_counts_flops(a) >=
          pasta_counts_bytes(b) + pasta_counts_flops(b));
  }
}

static void test_line_merge(void) {
  /* 6 device lines (a.cu:12/13/14, h.cuh:20/30, ?:0) and 5 host lines
   * (m.c:2, m.c:6 twice, weird:9, a.cu:12). */
  CHECK_EQ_U64(profile.num_lines, 11);
  /* a.cu:12 of axpy: blocks A and B. */
  const pasta_profile_line *l = find_line("a.cu", 12, AXPY, PASTA_FUNC_KERNEL);
  CHECK(l != NULL);
  if (l) {
    CHECK_EQ_U64(l->executions, N_A + N_B);
    CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_GLOBAL], 8 * N_A);
    CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_SHARED], 4 * N_B);
    CHECK_EQ_U64(l->counts.store_bytes[PASTA_SPACE_GLOBAL], 4 * N_A);
    CHECK_EQ_U64(l->counts.flops[PASTA_PREC_F32], 2 * N_A);
    CHECK_EQ_U64(l->counts.flops[PASTA_PREC_F64], 1 * N_B);
  }
  /* Two sites of one block on a.cu:14: the block counts once. */
  l = find_line("a.cu", 14, AXPY, PASTA_FUNC_KERNEL);
  CHECK(l != NULL);
  if (l) {
    CHECK_EQ_U64(l->executions, N_A);
    CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_GLOBAL], 4 * N_A);
    CHECK_EQ_U64(l->counts.store_bytes[PASTA_SPACE_GLOBAL], 4 * N_A);
  }
  /* The host function on a.cu:12 is a line of its own. */
  l = find_line("a.cu", 12, AXPY, PASTA_FUNC_HOST);
  CHECK(l != NULL);
  if (l) {
    CHECK_EQ_U64(l->executions, HOST_AXPY_CALLS);
    CHECK_EQ_U64(l->counts.flops[PASTA_PREC_F32], HOST_AXPY_CALLS);
  }
  /* foo(int) and foo(double) on m.c:6: overloads are different functions,
   * so each has a line of its own. */
  l = find_line("m.c", 6, "foo(int)", PASTA_FUNC_HOST);
  CHECK(l != NULL);
  if (l) {
    CHECK_EQ_U64(l->executions, FOOI_CALLS);
    CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_GENERIC], 8 * FOOI_CALLS);
    CHECK_EQ_U64(l->counts.store_bytes[PASTA_SPACE_GENERIC], 0);
    CHECK_EQ_U64(l->counts.flops[PASTA_PREC_F64], 1 * FOOI_CALLS);
  }
  l = find_line("m.c", 6, "foo(double)", PASTA_FUNC_HOST);
  CHECK(l != NULL);
  if (l) {
    CHECK_EQ_U64(l->executions, FOOD_CALLS);
    CHECK_EQ_U64(l->counts.store_bytes[PASTA_SPACE_GENERIC], 8 * FOOD_CALLS);
    CHECK_EQ_U64(l->counts.flops[PASTA_PREC_F64], 2 * FOOD_CALLS);
  }
  /* The owned helper's line is kept, as a device line. */
  l = find_line("h.cuh", 20, "helper(float*)", PASTA_FUNC_DEVICE);
  CHECK(l && l->executions == N_H);
  /* No debug info: file unknown, line 0. */
  l = find_line(NULL, 0, "other()", PASTA_FUNC_KERNEL);
  CHECK(l && l->executions == N_O);

  /* The same module twice: lines merge, but counters of different modules
   * are different counters. */
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &device.desc, device.summed), 0);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &device.desc, device.summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  CHECK_EQ_U64(p.num_kernels, 4);
  CHECK_EQ_U64(p.num_lines, 6);
  for (size_t i = 0; i < p.num_lines; ++i)
    if (p.lines[i].file && !strcmp(p.lines[i].file, "a.cu") &&
        p.lines[i].line == 14)
      CHECK_EQ_U64(p.lines[i].executions, 2 * N_A);
  pasta_profile_free(&p);
}

/* Writes `p` as JSON into a new string. */
static char *json_of(const pasta_profile *p) {
  FILE *f = tmpfile();
  if (!f)
    return NULL;
  CHECK_EQ_INT(pasta__profile_write_json(f, p), 0);
  long size = ftell(f);
  rewind(f);
  char *buf = calloc((size_t)size + 1, 1);
  if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static json_t *parse(const char *text, size_t flags) {
  json_error_t err;
  json_t *root = json_loads(text, flags, &err);
  if (!root)
    fprintf(stderr, "JSON error at line %d column %d: %s\n", err.line,
            err.column, err.text);
  return root;
}

static uint64_t jint(json_t *obj, const char *key) {
  json_t *v = json_object_get(obj, key);
  CHECK(json_is_integer(v));
  return json_is_integer(v) ? (uint64_t)json_integer_value(v) : UINT64_MAX;
}

static json_t *find_json(json_t *array, const char *key, const char *value) {
  size_t i;
  json_t *e;
  json_array_foreach(array, i, e) {
    const char *s = json_string_value(json_object_get(e, key));
    if (s && !strcmp(s, value))
      return e;
  }
  return NULL;
}

static void check_json_entry(json_t *e, const pasta_profile_func *f,
                             const char *calls_key) {
  static const char *const groups[] = {"loads",      "stores",
                                       "load_bytes", "store_bytes",
                                       "atomics",    "atomic_bytes"};
  const uint64_t *arrays[] = {f->counts.loads,      f->counts.stores,
                              f->counts.load_bytes, f->counts.store_bytes,
                              f->counts.atomics,    f->counts.atomic_bytes};
  CHECK_EQ_STR(json_string_value(json_object_get(e, "name")), f->name);
  CHECK_EQ_U64(jint(e, calls_key), f->calls);
  CHECK_EQ_U64(jint(e, "line"), f->line);
  for (int g = 0; g < 6; ++g) {
    json_t *obj = json_object_get(e, groups[g]);
    CHECK(json_is_object(obj) && json_object_size(obj) == PASTA_NUM_SPACES);
    for (unsigned s = 0; s < PASTA_NUM_SPACES; ++s)
      CHECK_EQ_U64(jint(obj, pasta_space_name(s)), arrays[g][s]);
  }
  json_t *flops = json_object_get(e, "flops");
  CHECK(json_is_object(flops) &&
        json_object_size(flops) == PASTA_NUM_PRECISIONS);
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    CHECK_EQ_U64(jint(flops, pasta_precision_name(i)), f->counts.flops[i]);
  CHECK_EQ_U64(jint(e, "special"), f->counts.special);
  double ci;
  json_t *jci = json_object_get(e, "compute_intensity");
  if (pasta_counts_intensity(&f->counts, &ci))
    CHECK(json_is_real(jci) && fabs(json_real_value(jci) - ci) <= 1e-6 * ci);
  else
    CHECK(json_is_null(jci));
}

static void test_json(void) {
  char *text = json_of(&profile);
  CHECK(text != NULL);
  if (!text)
    return;
  json_t *root = parse(text, JSON_REJECT_DUPLICATES);
  CHECK(root != NULL);
  if (!root) {
    free(text);
    return;
  }
  CHECK_EQ_STR(json_string_value(json_object_get(root, "schema")),
               "pasta-profile");
  CHECK_EQ_U64(jint(root, "version"), PASTA_PROFILE_VERSION);
  /* A process outside a job: its job is all nulls (set_job not called). */
  json_t *job = json_object_get(root, "job");
  CHECK(json_is_null(json_object_get(job, "rank")) &&
        json_is_null(json_object_get(job, "launcher")) &&
        json_array_size(json_object_get(job, "gpus")) == 0);
  CHECK_EQ_STR(json_string_value(json_object_get(root, "program")), "./fake");
  CHECK_EQ_U64(jint(root, "pid"), 4242);
  CHECK_EQ_STR(json_string_value(json_object_get(root, "created")),
               "1970-01-02T01:01:01Z");

  json_t *kernels = json_object_get(root, "kernels");
  CHECK(json_array_size(kernels) == profile.num_kernels);
  for (size_t i = 0; i < profile.num_kernels; ++i) {
    json_t *e = json_array_get(kernels, i);
    CHECK_EQ_STR(json_string_value(json_object_get(e, "mangled")),
                 profile.kernels[i].mangled);
    check_json_entry(e, &profile.kernels[i], "launches");
    CHECK_EQ_PTR(json_object_get(e, "calls"), NULL);
  }
  json_t *axpy = find_json(kernels, "name", AXPY);
  CHECK(axpy != NULL);
  CHECK_EQ_STR(json_string_value(json_object_get(axpy, "module")), "a.cu");
  CHECK_EQ_STR(json_string_value(json_object_get(axpy, "file")), "a.cu");
  json_t *other = find_json(kernels, "name", "other()");
  CHECK(json_is_null(json_object_get(other, "file")));
  CHECK(json_is_null(json_object_get(other, "compute_intensity")));

  json_t *devs = json_object_get(root, "device_functions");
  CHECK_EQ_INT(json_array_size(devs), 1);
  if (json_array_size(devs) == 1)
    check_json_entry(json_array_get(devs, 0), &profile.device_functions[0],
                     "calls");
  json_t *hosts = json_object_get(root, "host_functions");
  CHECK(json_array_size(hosts) == profile.num_host_functions);
  for (size_t i = 0; i < profile.num_host_functions; ++i)
    check_json_entry(json_array_get(hosts, i), &profile.host_functions[i],
                     "calls");

  json_t *lines = json_object_get(root, "lines");
  CHECK(json_array_size(lines) == profile.num_lines);
  for (size_t i = 0; i < profile.num_lines && i < json_array_size(lines); ++i) {
    json_t *e = json_array_get(lines, i);
    const pasta_profile_line *l = &profile.lines[i];
    CHECK_EQ_U64(jint(e, "executions"), l->executions);
    CHECK_EQ_U64(jint(e, "line"), l->line);
    CHECK_EQ_STR(json_string_value(json_object_get(e, "kind")),
                 pasta_kind_name(l->kind));
    CHECK_EQ_U64(jint(json_object_get(e, "load_bytes"), "global"),
                 l->counts.load_bytes[PASTA_SPACE_GLOBAL]);
    CHECK_EQ_U64(jint(json_object_get(e, "flops"), "f32"),
                 l->counts.flops[PASTA_PREC_F32]);
    CHECK_EQ_U64(jint(e, "special"), l->counts.special);
    CHECK_EQ_PTR(json_object_get(e, "loads"), NULL);
  }
  json_decref(root);
  free(text);
}

static void test_json_escaping(void) {
  /* The weird file name, through the whole profile. */
  char *text = json_of(&profile);
  CHECK(text != NULL);
  if (!text)
    return;
  for (const char *c = text; *c; ++c)
    CHECK((unsigned char)*c >= 0x20 || *c == '\n');
  CHECK_HAS_STR(text, "\\u0001\\u001f");
  json_t *root = parse(text, 0);
  CHECK(root != NULL);
  json_t *weird =
      find_json(json_object_get(root, "host_functions"), "name", "weird()");
  CHECK(weird != NULL);
  CHECK_EQ_STR(json_string_value(json_object_get(weird, "file")),
               WEIRD_FILE_DECODED);
  json_t *lines = json_object_get(root, "lines");
  CHECK(find_json(lines, "file", WEIRD_FILE_DECODED) != NULL);
  json_decref(root);
  free(text);

  /* Strings one by one. */
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"plain", "\"plain\""},
      {"q\"b\\s/", "\"q\\\"b\\\\s/\""},
      {"\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\""},
      {"\x01\x7f", "\"\\u0001\x7f\""},
      {"\xe2\x82\xac", "\"\xe2\x82\xac\""},          /* euro sign */
      {"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},  /* emoji */
      {"\xc0\xaf", "\"\\ufffd\\ufffd\""},            /* overlong */
      {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""}, /* surrogate */
      {"\xe2\x82", "\"\\ufffd\\ufffd\""},            /* truncated */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    FILE *f = tmpfile();
    if (!f) {
      CHECK(f != NULL);
      return;
    }
    pasta__json_write_string(f, cases[i].in);
    char buf[64] = {0};
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    CHECK_EQ_STR(buf, cases[i].out);
    json_t *v = parse(buf, JSON_DECODE_ANY);
    CHECK(json_is_string(v));
    json_decref(v);
  }
}

static void test_big_numbers(void) {
  /* Exact uint64 output and saturation instead of wrapping. */
  struct fake_module *m = malloc(sizeof *m);
  *m = device;
  m->desc.funcs = (uint64_t)(uintptr_t)m->funcs;
  m->desc.sites = (uint64_t)(uintptr_t)m->sites;
  m->desc.strings = (uint64_t)(uintptr_t)m->strings;
  m->summed[C_OTHER] = UINT64_MAX - 1;
  m->summed[C_BLOCK_O] = UINT64_MAX / 2;
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  const pasta_profile_func *o =
      find_func(p.kernels, p.num_kernels, "_Z5otherv");
  CHECK(o && o->calls == UINT64_MAX - 1);
  CHECK(o && o->counts.flops[PASTA_PREC_F32] == UINT64_MAX); /* 3 * max/2 */
  char *text = json_of(&p);
  CHECK(text && strstr(text, "\"launches\":18446744073709551614"));
  CHECK(text && strstr(text, "\"f32\":18446744073709551615"));
  json_t *root = text ? parse(text, JSON_DECODE_INT_AS_REAL) : NULL;
  CHECK(root != NULL);
  json_decref(root);
  free(text);
  pasta_profile_free(&p);
  free(m);
}

/* Already-aggregated entries (what pasta-report builds from JSON): no
 * merging of functions, lines of one key merged with their executions
 * summed, strings copied, and "merged_from" written only when set. */
static void test_constructors(void) {
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_set_info(&p, "merged", 0, 0), 0);
  char mangled[] = "_Z4axpyifPKfPf", file[] = "axpy.cu";
  pasta_profile_func k;
  memset(&k, 0, sizeof k);
  k.mangled = mangled;
  k.module = file;
  k.file = file;
  k.line = 12;
  k.kind = PASTA_FUNC_KERNEL;
  k.calls = 2;
  k.counts.load_bytes[PASTA_SPACE_GLOBAL] = 800;
  k.counts.flops[PASTA_PREC_F32] = 100;
  CHECK_EQ_INT(pasta_profile_add_func(&p, &k), PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_add_func(&p, &k), PASTA_PROFILE_OK);
  pasta_profile_func h = k;
  h.name = "main";
  h.mangled = "main";
  h.kind = PASTA_FUNC_HOST;
  h.calls = 1;
  CHECK_EQ_INT(pasta_profile_add_func(&p, &h), PASTA_PROFILE_OK);
  pasta_profile_func bad = k;
  bad.kind = 7;
  CHECK_EQ_INT(pasta_profile_add_func(&p, &bad), PASTA_PROFILE_EMALFORMED);
  bad = k;
  bad.mangled = NULL;
  CHECK_EQ_INT(pasta_profile_add_func(&p, &bad), PASTA_PROFILE_EMALFORMED);
  mangled[2] = 'X'; /* the profile holds copies */
  file[0] = 'X';
  /* Kernels only, by symbol: the first of the two, not the host function. */
  CHECK(pasta_profile_find_kernel(&p, "_Z4axpyifPKfPf") == &p.kernels[0]);
  CHECK(pasta_profile_find_kernel(&p, "main") == NULL);
  CHECK(pasta_profile_find_kernel(&p, NULL) == NULL);
  CHECK(pasta_profile_find_kernel(NULL, "main") == NULL);

  pasta_profile_line l;
  memset(&l, 0, sizeof l);
  l.file = "axpy.cu";
  l.line = 14;
  l.function = "axpy";
  l.kind = PASTA_FUNC_KERNEL;
  l.executions = 64;
  l.counts.load_bytes[PASTA_SPACE_GLOBAL] = 512;
  CHECK_EQ_INT(pasta_profile_add_line(&p, &l), PASTA_PROFILE_OK);
  l.executions = 36;
  l.counts.load_bytes[PASTA_SPACE_GLOBAL] = 288;
  CHECK_EQ_INT(pasta_profile_add_line(&p, &l), PASTA_PROFILE_OK);
  l.kind = PASTA_FUNC_HOST; /* another key */
  CHECK_EQ_INT(pasta_profile_add_line(&p, &l), PASTA_PROFILE_OK);
  const pasta_profile_gpu gpu = {1, "GPU-0123"};
  pasta_profile_source src = {"rank1.json",
                              "./axpy",
                              77,
                              86400,
                              {5, 8, 1, "openmpi", "node3", &gpu, 1}};
  CHECK_EQ_INT(pasta_profile_add_source(&p, &src), PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_finalize(&p), PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_add_line(&p, &l), PASTA_PROFILE_EFINALIZED);

  CHECK(p.num_kernels == 2 && p.num_host_functions == 1);
  CHECK_EQ_STR(p.kernels[0].name, AXPY);
  CHECK_EQ_STR(p.kernels[0].mangled, "_Z4axpyifPKfPf");
  CHECK_EQ_STR(p.kernels[0].module, "axpy.cu");
  CHECK_EQ_U64(p.kernels[1].counts.load_bytes[PASTA_SPACE_GLOBAL], 800);
  CHECK_EQ_STR(p.host_functions[0].name, "main");
  CHECK_EQ_INT(p.num_lines, 2);
  const pasta_profile_line *merged = NULL;
  for (size_t i = 0; i < p.num_lines; ++i)
    if (p.lines[i].kind == PASTA_FUNC_KERNEL)
      merged = &p.lines[i];
  CHECK(merged != NULL);
  CHECK_EQ_U64(merged ? merged->executions : 0, 100);
  CHECK_EQ_U64(merged ? merged->counts.load_bytes[PASTA_SPACE_GLOBAL] : 0, 800);

  char *text = json_of(&p);
  json_t *root = text ? parse(text, JSON_REJECT_DUPLICATES) : NULL;
  json_t *from = json_object_get(root, "merged_from");
  CHECK(json_is_array(from) && json_array_size(from) == 1);
  json_t *first = json_array_get(from, 0);
  CHECK_EQ_STR(json_string_value(json_object_get(first, "file")), "rank1.json");
  CHECK_EQ_STR(json_string_value(json_object_get(first, "program")), "./axpy");
  CHECK_EQ_U64(jint(first, "pid"), 77);
  CHECK_EQ_STR(json_string_value(json_object_get(first, "created")),
               "1970-01-02T00:00:00Z");
  json_t *job = json_object_get(first, "job");
  CHECK_EQ_U64(jint(job, "rank"), 5);
  CHECK_EQ_U64(jint(job, "size"), 8);
  CHECK_EQ_U64(jint(job, "local_rank"), 1);
  CHECK_EQ_STR(json_string_value(json_object_get(job, "host")), "node3");
  json_t *g = json_array_get(json_object_get(job, "gpus"), 0);
  CHECK_EQ_U64(jint(g, "index"), 1);
  CHECK_EQ_STR(json_string_value(json_object_get(g, "uuid")), "GPU-0123");
  /* A merged profile has no job of its own. */
  CHECK_EQ_PTR(json_object_get(root, "job"), NULL);
  json_decref(root);
  free(text);
  char table[4096] = "";
  FILE *f = tmpfile();
  if (f) {
    CHECK_EQ_INT(pasta__tables_write(f, &p, 5), 0);
    rewind(f);
    size_t n = fread(table, 1, sizeof table - 1, f);
    table[n] = '\0';
    fclose(f);
  }
  CHECK_HAS_STR(table, "merged from 1 profiles");
  pasta_profile_free(&p);
}

/* A merged profile of 4 processes (ranks 0-3) with per-rank spreads: the
 * JSON has each count's min, mean (total / 4), max, imbalance (max /
 * mean) and the max's process and rank; read back, the spreads are equal;
 * impossible spreads are rejected. */
static void test_ranks(void) {
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_set_info(&p, "./app", 0, 0), 0);
  for (int r = 0; r < 4; ++r) {
    pasta_profile_source s = {"x.json",
                              "./app",
                              10 + (uint64_t)r,
                              0,
                              {r, 4, r, "openmpi", "h", NULL, 0}};
    CHECK_EQ_INT(pasta_profile_add_source(&p, &s), 0);
  }
  /* Launches 1, 3, 4, 2 (sum 10): min 1, mean 2.5, max 4 on process 2.
   * Bytes 0, 0, 0, 64: min 0, mean 16, max 64 (process 3). No FLOPs. */
  pasta_rank_stats st = {{{1, 4, 2}, {0, 64, 3}, {0, 0, 0}}};
  pasta_profile_func f;
  memset(&f, 0, sizeof f);
  f.name = f.mangled = "k";
  f.kind = PASTA_FUNC_KERNEL;
  f.calls = 10;
  f.counts.load_bytes[PASTA_SPACE_GLOBAL] = 64;
  f.ranks = &st;
  CHECK_EQ_INT(pasta_profile_add_func(&p, &f), 0);
  pasta_profile_line l;
  memset(&l, 0, sizeof l);
  l.function = "k";
  l.line = 3;
  l.executions = 10;
  l.counts.load_bytes[PASTA_SPACE_GLOBAL] = 64;
  l.ranks = &st;
  CHECK_EQ_INT(pasta_profile_add_line(&p, &l), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  char *text = json_of(&p);
  json_t *root = text ? parse(text, JSON_REJECT_DUPLICATES) : NULL;
  json_t *ranks = json_object_get(
      json_array_get(json_object_get(root, "kernels"), 0), "ranks");
  json_t *launches = json_object_get(ranks, "launches");
  CHECK_EQ_U64(jint(launches, "min"), 1);
  CHECK_EQ_DBL(json_real_value(json_object_get(launches, "mean")), 2.5, 1e-9);
  CHECK_EQ_U64(jint(launches, "max"), 4);
  CHECK_EQ_DBL(json_real_value(json_object_get(launches, "imbalance")), 1.6,
               1e-9);
  CHECK_EQ_U64(jint(launches, "max_process"), 2);
  CHECK_EQ_U64(jint(launches, "max_rank"), 2);
  json_t *bytes = json_object_get(ranks, "bytes");
  CHECK_EQ_DBL(json_real_value(json_object_get(bytes, "imbalance")), 4.0, 1e-9);
  CHECK(json_is_null(
      json_object_get(json_object_get(ranks, "flops"), "imbalance")));
  json_t *line_ranks = json_object_get(
      json_array_get(json_object_get(root, "lines"), 0), "ranks");
  CHECK(json_object_get(line_ranks, "executions") != NULL);

  pasta_profile back;
  pasta_profile_init(&back);
  char err[512] = "";
  CHECK_MSG(pasta__profile_read_json(root, NULL, &back, err, sizeof err) == 0,
            "%s", err);
  CHECK(back.num_kernels == 1 && back.kernels[0].ranks &&
        memcmp(back.kernels[0].ranks, &st, sizeof st) == 0);
  CHECK(back.num_lines == 1 && back.lines[0].ranks &&
        memcmp(back.lines[0].ranks, &st, sizeof st) == 0);
  CHECK(back.num_merged_from == 4 && back.merged_from[3].job.rank == 3 &&
        back.merged_from[3].job.host &&
        !strcmp(back.merged_from[3].job.host, "h"));
  pasta_profile_free(&back);

  /* Impossible spreads: one line each, naming where. */
  json_object_set_new(launches, "max_process", json_integer(4));
  pasta_profile_init(&back);
  CHECK_EQ_INT(pasta__profile_read_json(root, NULL, &back, err, sizeof err),
               -1);
  CHECK_HAS_STR(err, "kernels[0].ranks.launches: \"max_process\" 4");
  json_object_set_new(launches, "max_process", json_integer(2));
  json_object_set_new(launches, "max", json_integer(11));
  CHECK_EQ_INT(pasta__profile_read_json(root, NULL, &back, err, sizeof err),
               -1);
  CHECK_HAS_STR(err, "do not fit the total 10");
  json_decref(root);
  free(text);
  pasta_profile_free(&p);
}

static void test_empty_profile(void) {
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_set_info(&p, "empty", 1, 0), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  char *text = json_of(&p);
  json_t *root = text ? parse(text, JSON_REJECT_DUPLICATES) : NULL;
  CHECK(root != NULL);
  CHECK_EQ_INT(json_array_size(json_object_get(root, "kernels")), 0);
  CHECK(json_is_array(json_object_get(root, "lines")));
  CHECK_EQ_PTR(json_object_get(root, "merged_from"), NULL);
  CHECK_EQ_STR(json_string_value(json_object_get(root, "created")),
               "1970-01-01T00:00:00Z");
  json_decref(root);
  free(text);
  FILE *f = tmpfile();
  CHECK(f && pasta__tables_write(f, &p, 20) == 0);
  if (f)
    fclose(f);
  pasta_profile_free(&p);
}

static char *tables_of(const pasta_profile *p, unsigned top) {
  FILE *f = tmpfile();
  if (!f)
    return NULL;
  CHECK_EQ_INT(pasta__tables_write(f, p, top), 0);
  long size = ftell(f);
  rewind(f);
  char *buf = calloc((size_t)size + 1, 1);
  if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static void test_tables(void) {
  char *text = tables_of(&profile, 3);
  CHECK(text != NULL);
  if (!text)
    return;
  if (getenv("PASTA_TEST_VERBOSE"))
    fputs(text, stderr);
  CHECK_EQ_INT(strncmp(text, "== PASTA: profile of ./fake (pid 4242) ==\n",
                       strlen("== PASTA: profile of ./fake (pid 4242) ==\n")),
               0);
  CHECK(strstr(text, "launches") && strstr(text, "FLOP/B"));
  CHECK(strstr(text, "axpy") && strstr(text, "other"));
  CHECK_HAS_STR(text, "shared_fn");
  CHECK_HAS_STR(text, "host function");
  CHECK_HAS_STR(text, "Top 3 of 11 executed lines");
  /* Host functions show totals, device entries have no generic space. */
  CHECK_EQ_PTR(strstr(text, "gen:"), NULL);
  /* The whole name fits the column (38 of 48 bytes). */
  const char *row = strstr(text, "\n  " AXPY " ");
  const char *header = strstr(text, "\n  kernel ");
  CHECK(row != NULL && header != NULL);
  if (row && header) {
    const char *end = strchr(row + 1, '\n');
    size_t len = end ? (size_t)(end - row) : strlen(row);
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)len, row);
    CHECK(strstr(buf, "g:") && strstr(buf, "s:") && strstr(buf, "l:"));
    CHECK(strstr(buf, "f32:") && strstr(buf, "f64:"));
    /* Columns line up: "launches" (right-aligned) ends where the row's
     * launch count ends. */
    const char *title = strstr(header, "launches");
    size_t col = title ? (size_t)(title - header) + strlen("launches") : 0;
    CHECK(title && col < len);
    if (title && col < len) {
      CHECK(buf[col - 1] == '0' + AXPY_LAUNCHES);
      CHECK_EQ_INT(buf[col], ' ');
    }
  }
  free(text);
}

/* Divergence rows: a kernel k (rows at k.cu:10 twice, from two modules'
 * worth of blocks, and k.cu:11) and a device function it owns (k.cu:20).
 * Figures are set per row; the kernel's are the sums of its rows and its
 * device function's, a line's the sum of its rows. */
static void set_div(struct fake_module *m, uint32_t first, uint64_t scale) {
  for (uint32_t i = 0; i < PASTA_DIV_NUM; ++i)
    set_counter(m, first + i, scale * (i + 1));
}

static void div_module(struct fake_module *m, struct pasta_div_row rows[4]) {
  memset(m, 0, sizeof *m);
  m->desc.num_banks = NUM_BANKS;
  uint32_t k = add_func(m, "k", PASTA_FUNC_KERNEL, "k.cu", 9, 0, PASTA_NONE);
  uint32_t d = add_func(m, "d", PASTA_FUNC_DEVICE, "k.cu", 19, 1, k);
  set_counter(m, 0, 2); /* launches */
  uint32_t file = add_string(m, "k.cu");
  uint32_t lines[4] = {10, 10, 11, 20};
  /* How the figures were found: line 10's sectors proven at one site and
   * measured at the other, its global distinct bytes proven; line 11's
   * shared figures and branches proven; line 20's all measured. */
  const uint32_t sectors =
                     1u << PASTA_DIV_SECTORS | 1u << PASTA_DIV_IDEAL_SECTORS,
                 shared = 1u << PASTA_DIV_BANK_CONFLICTS |
                          1u << PASTA_DIV_DISTINCT_SHARED |
                          1u << PASTA_DIV_DIVERGENT;
  const uint32_t proven[4] = {sectors | 1u << PASTA_DIV_DISTINCT_GLOBAL, 0,
                              shared, 0};
  const uint32_t measured[4] = {0, sectors, 0, (1u << PASTA_DIV_NUM) - 1};
  for (uint32_t r = 0; r < 4; ++r) {
    rows[r] =
        (struct pasta_div_row){r == 3 ? d : k,        file,      lines[r],
                               4 + r * PASTA_DIV_NUM, proven[r], measured[r]};
    set_div(m, rows[r].counter, r + 1); /* row r: figure i = (r+1)(i+1) */
  }
  finish_module(m, PASTA_TARGET_NVPTX, "k.cu");
  m->desc.num_div_rows = 4;
  m->desc.div_rows = (uint64_t)(uintptr_t)rows;
}

static const pasta_profile_line *find_div_line(const pasta_profile *p,
                                               uint32_t line) {
  for (size_t i = 0; i < p->num_lines; ++i)
    if (p->lines[i].line == line)
      return &p->lines[i];
  return NULL;
}

static void check_div_figures(const pasta_profile *p) {
  /* Kernel: rows 1..4 summed, figure i = (1+2+3+4)(i+1) = 10(i+1). */
  CHECK_EQ_U64(p->num_kernels, 1);
  for (uint32_t i = 0; p->num_kernels && i < PASTA_DIV_NUM; ++i)
    CHECK_EQ_U64(p->kernels[0].div[i], 10u * (i + 1));
  /* Line 10: rows 1 and 2, (1+2)(i+1); line 11: 3(i+1); line 20: 4(i+1). */
  const pasta_profile_line *l10 = find_div_line(p, 10),
                           *l11 = find_div_line(p, 11),
                           *l20 = find_div_line(p, 20);
  CHECK(l10 && l11 && l20);
  if (!l10 || !l11 || !l20)
    return;
  for (uint32_t i = 0; i < PASTA_DIV_NUM; ++i) {
    CHECK_EQ_U64(l10->div[i], 3u * (i + 1));
    CHECK_EQ_U64(l11->div[i], 3u * (i + 1));
    CHECK_EQ_U64(l20->div[i], 4u * (i + 1));
  }
  /* Derived: sectors (6th, 6 per unit) minus ideal (7th): none in excess;
   * distinct bytes: global (4th) + shared (5th) = 9 per unit. */
  CHECK_EQ_U64(pasta_div_excess_sectors(l10->div), 0);
  CHECK_EQ_U64(pasta_div_distinct_bytes(l10->div), 27);
  /* Proven where no site of the line measured the figure. */
  CHECK_EQ_U64(pasta_div_proven(l10), 1u << PASTA_DIV_DISTINCT_GLOBAL);
  CHECK_EQ_U64(pasta_div_proven(l11), 1u << PASTA_DIV_BANK_CONFLICTS |
                                          1u << PASTA_DIV_DISTINCT_SHARED |
                                          1u << PASTA_DIV_DIVERGENT);
  CHECK_EQ_U64(pasta_div_proven(l20), 0);
}

static void test_divergence(void) {
  static struct fake_module m;
  struct pasta_div_row rows[4];
  div_module(&m, rows);
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m.desc, m.summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  check_div_figures(&p);
  /* The divergence table and the top tables, each line with file:line.
   * Sectors exceed the ideal nowhere, so that table is left out. */
  char *text = tables_of(&p, 5);
  CHECK(text != NULL);
  if (text) {
    CHECK_HAS_STR(text, "\ndivergence (warp-level");
    CHECK_HAS_STR(text, "top lines by bank conflicts:");
    CHECK_HAS_STR(text, "top lines by divergent branches:");
    CHECK(strstr(text, "top lines by excess sectors") == NULL);
    CHECK_HAS_STR(text, "k.cu:20");
    /* Lines 10 and 11 have proven figures; line 11's shared requests are
     * 3 x 2 and its conflicts 3 x 8. */
    CHECK_HAS_STR(text, "lines proven at compile time (2;");
    CHECK_HAS_STR(text, "proven 4.00 conflicts/request");
    CHECK_HAS_STR(text, "proven uniform branches");
    CHECK_HAS_STR(text, "proven distinct global bytes");
    free(text);
  }
  /* Round trip through the JSON profile. */
  char *json = json_of(&p);
  json_t *root = json ? parse(json, JSON_REJECT_DUPLICATES) : NULL;
  CHECK(root != NULL);
  if (root) {
    CHECK_EQ_U64(jint(root, "version"), PASTA_PROFILE_VERSION);
    json_t *k = json_array_get(json_object_get(root, "kernels"), 0);
    CHECK_EQ_U64(jint(json_object_get(k, "divergence"), "bank_conflicts"), 80);
    pasta_profile back;
    pasta_profile_init(&back);
    char err[512] = "";
    CHECK_MSG(pasta__profile_read_json(root, NULL, &back, err, sizeof err) == 0,
              "%s", err);
    pasta_profile_finalize(&back);
    check_div_figures(&back);
    pasta_profile_free(&back);
    /* A list of figures with something else in it is one clear error. */
    json_t *line0 = json_array_get(json_object_get(root, "lines"), 0);
    json_t *good = json_deep_copy(line0);
    json_object_set_new(line0, "divergence_proven",
                        json_pack("[s]", "sectors_per_request"));
    pasta_profile_init(&back);
    CHECK_EQ_INT(pasta__profile_read_json(root, NULL, &back, err, sizeof err),
                 -1);
    CHECK_HAS_STR(err, "\"divergence_proven\" holds something that is no");
    json_array_set_new(json_object_get(root, "lines"), 0, good);
    /* A malformed figure is one clear error. */
    json_object_set_new(json_object_get(k, "divergence"), "sectors",
                        json_string("many"));
    pasta_profile_init(&back);
    CHECK_EQ_INT(pasta__profile_read_json(root, NULL, &back, err, sizeof err),
                 -1);
    CHECK_HAS_STR(err, "kernels[0].divergence: \"sectors\" is not an unsigned");
    json_decref(root);
  }
  free(json);
  pasta_profile_free(&p);
  /* A row whose counters run past the module's is rejected. */
  rows[2].counter = NUM_COUNTERS - 3;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m.desc, m.summed),
               PASTA_PROFILE_EMALFORMED);
  pasta_profile_free(&p);
}

/* Memory operations of run-time length (abi.h): a site with a bytes
 * counter counts its loads and stores per execution of its block and its
 * bytes per byte of that counter; it shares the block's executions with
 * the block's other site on its line; a generic one is resolved by its
 * DYN counters (the lengths found shared at run time), the rest global. */
static void test_bytes_counters(void) {
  enum { EXECS = 100, COPIED = 6400, SET = 1000, SH = 30, SH_BYTES = 400 };
  struct fake_module *m = calloc(1, sizeof *m);
  m->desc.num_banks = NUM_BANKS;
  uint32_t k =
      add_func(m, "_Z4copyv", PASTA_FUNC_KERNEL, "c.cu", 5, 0, PASTA_NONE);
  struct pasta_site *s = add_site(m, k, "c.cu", 7, 1, PASTA_NONE);
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GLOBAL] = 1; /* a 4-byte load */
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GLOBAL] = 4;
  s = add_site(m, k, "c.cu", 7, 1, PASTA_NONE); /* memcpy global->shared */
  s->bytes_counter = 2;
  s->mix[PASTA_MIX_LOADS + PASTA_SPACE_GLOBAL] = 1;
  s->mix[PASTA_MIX_STORES + PASTA_SPACE_SHARED] = 1;
  s->mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GLOBAL] = 1;
  s->mix[PASTA_MIX_STORE_BYTES + PASTA_SPACE_SHARED] = 1;
  s = add_site(m, k, "c.cu", 8, 1, 8); /* memset, generic */
  s->bytes_counter = 3;
  s->mix[PASTA_MIX_STORES + PASTA_SPACE_GENERIC] = 1;
  s->mix[PASTA_MIX_STORE_BYTES + PASTA_SPACE_GENERIC] = 1;
  set_counter(m, 0, 2);
  set_counter(m, 1, EXECS);
  set_counter(m, 2, COPIED);
  set_counter(m, 3, SET);
  set_counter(m, 8 + PASTA_DYN_ST_SHARED, SH);
  set_counter(m, 8 + PASTA_DYN_ST_SHARED_BYTES, SH_BYTES);
  finish_module(m, PASTA_TARGET_NVPTX, "c.cu");

  pasta_profile p;
  pasta_profile_init(&p);
  s->bytes_counter = NUM_COUNTERS; /* past the counters */
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_EMALFORMED);
  s->bytes_counter = 3;
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_finalize(&p), PASTA_PROFILE_OK);
  const pasta_profile_func *f = find_func(p.kernels, p.num_kernels, "_Z4copyv");
  CHECK(f != NULL);
  if (f) {
    CHECK_EQ_U64(f->counts.loads[PASTA_SPACE_GLOBAL], 2 * EXECS);
    CHECK_EQ_U64(f->counts.load_bytes[PASTA_SPACE_GLOBAL], 4 * EXECS + COPIED);
    CHECK_EQ_U64(f->counts.stores[PASTA_SPACE_SHARED], EXECS + SH);
    CHECK_EQ_U64(f->counts.store_bytes[PASTA_SPACE_SHARED], COPIED + SH_BYTES);
    CHECK_EQ_U64(f->counts.stores[PASTA_SPACE_GLOBAL], EXECS - SH);
    CHECK_EQ_U64(f->counts.store_bytes[PASTA_SPACE_GLOBAL], SET - SH_BYTES);
    CHECK_EQ_U64(f->counts.store_bytes[PASTA_SPACE_GENERIC], 0);
  }
  for (size_t i = 0; i < p.num_lines; ++i) {
    const pasta_profile_line *l = &p.lines[i];
    CHECK_EQ_U64(l->executions, EXECS); /* one block, counted once */
    if (l->line == 7)
      CHECK_EQ_U64(l->counts.load_bytes[PASTA_SPACE_GLOBAL],
                   4 * EXECS + COPIED);
    else
      CHECK_EQ_U64(l->counts.store_bytes[PASTA_SPACE_GLOBAL], SET - SH_BYTES);
  }
  CHECK_EQ_INT(p.num_lines, 2);
  pasta_profile_free(&p);
  free(m);
}

/* FLOPs of inline PTX under a shuffle's predicate (abi.h): a site whose
 * bytes counter counts the lanes where the shuffle's source lane was in
 * range counts its FLOPs per such lane, not per execution of its block;
 * the block's other site on the line counts per execution. A full warp's
 * five down-shuffle steps (offsets 1-16) have 31 + 30 + 28 + 24 + 16 = 129
 * such lanes. */
static void test_shuffled_flops(void) {
  enum { EXECS = 32, IN_RANGE = 129, STEP_FLOPS = 1, OWN_FLOPS = 2 };
  struct fake_module *m = calloc(1, sizeof *m);
  if (!m)
    return;
  m->desc.num_banks = NUM_BANKS;
  uint32_t k =
      add_func(m, "_Z4normv", PASTA_FUNC_KERNEL, "n.cu", 5, 0, PASTA_NONE);
  struct pasta_site *s = add_site(m, k, "n.cu", 7, 1, PASTA_NONE);
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = OWN_FLOPS;
  s = add_site(m, k, "n.cu", 7, 1, PASTA_NONE);
  s->bytes_counter = 2;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = STEP_FLOPS;
  set_counter(m, 0, 1);
  set_counter(m, 1, EXECS);
  set_counter(m, 2, IN_RANGE);
  finish_module(m, PASTA_TARGET_NVPTX, "n.cu");

  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_finalize(&p), PASTA_PROFILE_OK);
  const pasta_profile_func *f = find_func(p.kernels, p.num_kernels, "_Z4normv");
  CHECK(f != NULL);
  if (f)
    CHECK_EQ_U64(f->counts.flops[PASTA_PREC_F32],
                 OWN_FLOPS * EXECS + STEP_FLOPS * IN_RANGE);
  CHECK_EQ_INT(p.num_lines, 1);
  if (p.num_lines == 1)
    CHECK_EQ_U64(p.lines[0].executions, EXECS);
  pasta_profile_free(&p);
  free(m);
}

/* A warp's total (abi.h, PASTA_WARP_TOTAL): the site's FLOPs count per 32
 * executions of its block; no counter of lanes. */
static void test_warp_total_flops(void) {
  enum { WARPS = 3, WARP_FLOPS = 129 };
  struct fake_module *m = calloc(1, sizeof *m);
  if (!m)
    return;
  m->desc.num_banks = NUM_BANKS;
  uint32_t k =
      add_func(m, "_Z4normv", PASTA_FUNC_KERNEL, "n.cu", 5, 0, PASTA_NONE);
  struct pasta_site *s = add_site(m, k, "n.cu", 7, 1, PASTA_NONE);
  s->bytes_counter = PASTA_WARP_TOTAL;
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = WARP_FLOPS;
  set_counter(m, 0, 1);
  set_counter(m, 1, 32 * WARPS);
  finish_module(m, PASTA_TARGET_NVPTX, "n.cu");

  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_finalize(&p), PASTA_PROFILE_OK);
  const pasta_profile_func *f = find_func(p.kernels, p.num_kernels, "_Z4normv");
  CHECK(f != NULL);
  if (f)
    CHECK_EQ_U64(f->counts.flops[PASTA_PREC_F32], WARPS * WARP_FLOPS);
  pasta_profile_free(&p);
  free(m);
}

/* A device function's twin (passes/CalleeCounts.h: the plugin's copy for
 * direct calls) has a row of its own with the original's name: the profile
 * shows one function, its calls and counts the sum of both rows'. Rows of
 * another name, and kernels, stay apart. */
static void test_twin_rows_merge(void) {
  enum { DIRECT = 700, VIA_POINTER = 50, OTHER = 9, PER_CALL = 4 };
  struct fake_module *m = calloc(1, sizeof *m);
  if (!m)
    return;
  m->desc.num_banks = NUM_BANKS;
  uint32_t k1 =
      add_func(m, "_Z2k1v", PASTA_FUNC_KERNEL, "t.cu", 20, 0, PASTA_NONE);
  uint32_t k2 =
      add_func(m, "_Z2k2v", PASTA_FUNC_KERNEL, "t.cu", 30, 1, PASTA_NONE);
  (void)k1;
  (void)k2;
  uint32_t orig =
      add_func(m, "_Z2sqf", PASTA_FUNC_DEVICE, "t.cu", 3, 2, PASTA_NONE);
  uint32_t other =
      add_func(m, "_Z4halff", PASTA_FUNC_DEVICE, "t.cu", 7, 3, PASTA_NONE);
  uint32_t twin =
      add_func(m, "_Z2sqf", PASTA_FUNC_DEVICE, "t.cu", 3, 4, PASTA_NONE);
  struct pasta_site *s = add_site(m, orig, "t.cu", 4, 2, PASTA_NONE);
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = PER_CALL;
  s = add_site(m, twin, "t.cu", 4, 4, PASTA_NONE);
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = PER_CALL;
  s = add_site(m, other, "t.cu", 8, 3, PASTA_NONE);
  s->mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = 1;
  set_counter(m, 0, 1);
  set_counter(m, 1, 1);
  set_counter(m, 2, VIA_POINTER);
  set_counter(m, 3, OTHER);
  set_counter(m, 4, DIRECT);
  finish_module(m, PASTA_TARGET_NVPTX, "t.cu");
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  CHECK_EQ_INT(p.num_device_functions, 2);
  CHECK_EQ_INT(p.num_kernels, 2);
  const pasta_profile_func *f =
      find_func(p.device_functions, p.num_device_functions, "_Z2sqf");
  if (CHECK(f != NULL)) {
    CHECK_EQ_U64(f->calls, DIRECT + VIA_POINTER);
    CHECK_EQ_U64(f->counts.flops[PASTA_PREC_F32],
                 (uint64_t)PER_CALL * (DIRECT + VIA_POINTER));
  }
  f = find_func(p.device_functions, p.num_device_functions, "_Z4halff");
  if (CHECK(f != NULL))
    CHECK_EQ_U64(f->calls, OTHER);
  /* The line of both rows is one line. */
  for (size_t i = 0; i < p.num_lines; ++i)
    if (p.lines[i].line == 4)
      CHECK_EQ_U64(p.lines[i].executions, DIRECT + VIA_POINTER);
  CHECK_EQ_U64(p.omitted.device_functions, 0);
  pasta_profile_free(&p);
  /* Only the twin ran: one function, not an omitted one. Neither ran: one
   * omitted function, not two. */
  set_counter(m, 2, 0);
  finish_module(m, PASTA_TARGET_NVPTX, "t.cu");
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  f = find_func(p.device_functions, p.num_device_functions, "_Z2sqf");
  if (CHECK(f != NULL))
    CHECK_EQ_U64(f->calls, DIRECT);
  CHECK_EQ_U64(p.omitted.device_functions, 0);
  pasta_profile_free(&p);
  set_counter(m, 4, 0);
  finish_module(m, PASTA_TARGET_NVPTX, "t.cu");
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  CHECK(find_func(p.device_functions, p.num_device_functions, "_Z2sqf") ==
        NULL);
  CHECK_EQ_U64(p.omitted.device_functions, 1);
  pasta_profile_free(&p);
  free(m);
}

/*===-- What did not run --------------------------------------------------===*/

/* One module of `used` (ran: calls and line 10; line 11 did not run),
 * `idle` (host, never called: lines 20 and 21), `dev_idle` (a device
 * function no kernel owns, never called: line 30) and kernel `k` (never
 * launched: line 40). In a second module, when `second`, `used` runs line
 * 11 and line 10's other block does not. */
static void omitted_module(struct fake_module *m, int second) {
  memset(m, 0, sizeof *m);
  m->desc.num_banks = 1;
  uint32_t used = add_func(m, "used", PASTA_FUNC_HOST, "o.c", 9, 0, PASTA_NONE);
  uint32_t idle =
      add_func(m, "idle", PASTA_FUNC_HOST, "o.c", 19, 1, PASTA_NONE);
  uint32_t dev =
      add_func(m, "dev_idle", PASTA_FUNC_DEVICE, "o.c", 29, 2, PASTA_NONE);
  uint32_t k = add_func(m, "k", PASTA_FUNC_KERNEL, "o.c", 39, 3, PASTA_NONE);
  add_site(m, used, "o.c", 10, 4, PASTA_NONE)->mix[PASTA_MIX_FLOPS] = 1;
  add_site(m, used, "o.c", 10, 5, PASTA_NONE); /* another block of line 10 */
  add_site(m, used, "o.c", 11, 6, PASTA_NONE);
  add_site(m, used, "o.c", 11, 6, PASTA_NONE); /* same block, same line */
  add_site(m, idle, "o.c", 20, 7, PASTA_NONE);
  add_site(m, idle, "o.c", 21, 8, PASTA_NONE);
  add_site(m, dev, "o.c", 30, 9, PASTA_NONE);
  add_site(m, k, "o.c", 40, 10, PASTA_NONE);
  set_counter(m, 0, 2);
  set_counter(m, second ? 6 : 4, 7);
  finish_module(m, PASTA_TARGET_HOST, second ? "o2.c" : "o.c");
}

static const pasta_profile_line *find_line_at(const pasta_profile *p,
                                              uint32_t line) {
  for (size_t i = 0; i < p->num_lines; ++i)
    if (p->lines[i].line == line)
      return &p->lines[i];
  return NULL;
}

static void test_omitted(void) {
  static struct fake_module a, b;
  omitted_module(&a, 0);
  omitted_module(&b, 1);
  /* One module: only what ran is listed, the rest counted. */
  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &a.desc, a.summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  CHECK_EQ_U64(p.num_host_functions, 1);
  CHECK(find_func(p.host_functions, p.num_host_functions, "used") != NULL);
  CHECK_EQ_U64(p.num_device_functions, 0);
  CHECK_EQ_U64(p.num_kernels, 1); /* kernels are always listed */
  CHECK_EQ_U64(p.omitted.host_functions, 1);
  CHECK_EQ_U64(p.omitted.device_functions, 1);
  CHECK_EQ_U64(p.num_lines, 1);
  CHECK(find_line_at(&p, 10) != NULL);
  if (find_line_at(&p, 10))
    CHECK_EQ_U64(find_line_at(&p, 10)->executions, 7);
  /* 11, 20, 21, 30 and 40; not 10, whose other block ran. */
  CHECK_EQ_U64(p.omitted.lines, 5);
  pasta_profile_free(&p);

  /* Two modules: a line that ran in one is not counted as left out of the
   * other (line 11); line 10 ran in the first only. */
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &a.desc, a.summed), 0);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &b.desc, b.summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  CHECK_EQ_U64(p.num_host_functions, 2); /* `used` of each module */
  CHECK_EQ_U64(p.omitted.host_functions, 2);
  CHECK_EQ_U64(p.omitted.device_functions, 2);
  CHECK_EQ_U64(p.num_lines, 2);
  CHECK(find_line_at(&p, 10) && find_line_at(&p, 11));
  CHECK_EQ_U64(p.omitted.lines, 4); /* 20, 21, 30, 40 */
  pasta_profile_free(&p);

  /* list_all: everything, nothing counted. */
  pasta_profile_init(&p);
  p.list_all = 1;
  CHECK_EQ_INT(pasta_profile_add_module(&p, &a.desc, a.summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  CHECK_EQ_U64(p.num_host_functions, 2);
  CHECK_EQ_U64(p.num_device_functions, 1);
  CHECK_EQ_U64(p.num_lines, 6);
  CHECK_EQ_U64(p.omitted.host_functions + p.omitted.device_functions +
                   p.omitted.lines,
               0);
  pasta_profile_free(&p);

  /* The JSON says what was left out, and a reader reads it back. */
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &a.desc, a.summed), 0);
  CHECK_EQ_INT(pasta_profile_finalize(&p), 0);
  char *text = json_of(&p);
  CHECK(text != NULL);
  if (text) {
    CHECK_HAS_STR(text, "\"omitted\":{\"device_functions\":1,"
                        "\"host_functions\":1,\"lines\":5}");
    json_t *root = parse(text, 0);
    pasta_profile q;
    pasta_profile_init(&q);
    char err[256];
    CHECK(root &&
          pasta__profile_read_json(root, NULL, &q, err, sizeof err) == 0);
    CHECK_EQ_U64(q.omitted.host_functions, 1);
    CHECK_EQ_U64(q.omitted.device_functions, 1);
    CHECK_EQ_U64(q.omitted.lines, 5);
    pasta_profile_free(&q);
    json_decref(root);
  }
  free(text);
  pasta_profile_free(&p);
}

/*===-- Resources of the counting and plain copies (version 6) -----------===*/

/* A kernel whose counting copy has 40 registers to the plain copy's 32 and
 * 64 bytes of local memory to none, and fits 6 blocks of 256 threads per SM
 * to the plain copy's 8 (2048 threads per SM, warps of 32: 75% and 100%);
 * its plain copy's largest block is unknown. */
static pasta_activity_resources sample_resources(void) {
  pasta_activity_resources r = {1, 256, 512, 32, 2048, {0}, {0}, 0, {0}};
  r.counting = (pasta_copy_resources){40, 64, 1024, 768, 6};
  r.plain = (pasta_copy_resources){32, 0, 1024, -1, 8};
  return r;
}

/* A profile's "launches" holding kernels A and B as the runtime writes
 * them, parsed (NULL, a failed check, if it cannot be written or read);
 * checks that B's entry has no key ABSENT. */
static json_t *two_kernels_profile(const pasta_activity_kernel *a,
                                   const pasta_activity_kernel *b,
                                   const char *absent) {
  char *text = NULL;
  size_t size = 0;
  FILE *mem = open_memstream(&text, &size);
  if (!CHECK(mem))
    return NULL;
  fputs("{\"launches\":{\"kernels\":[", mem);
  pasta__activity_write_kernel_json(mem, a);
  fputc(',', mem);
  pasta__activity_write_kernel_json(mem, b);
  fputs("]}}", mem);
  fclose(mem);
  char name[64], key[64];
  snprintf(name, sizeof name, "\"%s\"", b->mangled);
  snprintf(key, sizeof key, "\"%s\"", absent);
  CHECK(strstr(text, name) && !strstr(strstr(text, name), key));
  json_error_t err;
  json_t *root = json_loads(text, 0, &err);
  free(text);
  CHECK(root);
  return root;
}

/* The first kernel's "resources" object of such a profile. */
static json_t *first_kernel_resources(json_t *root) {
  return json_object_get(
      json_array_get(
          json_object_get(json_object_get(root, "launches"), "kernels"), 0),
      "resources");
}

/* Written into a launches.kernels entry and read back: the same figures,
 * unknown ones as null; an entry without "resources" (a version 1-4
 * profile) reads as not known. */
static void test_resources_json(void) {
  pasta_activity_kernel k = {0}, old = {0};
  k.name = k.mangled = "_Z2kv";
  old.name = old.mangled = "_Z3oldv";
  k.resources = sample_resources();
  json_t *root = two_kernels_profile(&k, &old, "resources");
  if (!root)
    return;
  json_t *r = first_kernel_resources(root);
  json_t *pl = json_object_get(r, "plain"),
         *co = json_object_get(r, "counting");
  CHECK_EQ_U64(jint(r, "block_threads"), 256);
  CHECK_EQ_U64(jint(r, "dynamic_shared_bytes"), 512);
  CHECK_EQ_U64(jint(r, "warp_size"), 32);
  CHECK_EQ_U64(jint(r, "max_threads_per_sm"), 2048);
  CHECK_EQ_U64(jint(pl, "registers"), 32);
  CHECK_EQ_U64(jint(co, "registers"), 40);
  CHECK_EQ_U64(jint(co, "local_bytes"), 64);
  CHECK_EQ_U64(jint(co, "max_threads_per_block"), 768);
  CHECK(json_is_null(json_object_get(pl, "max_threads_per_block")));
  CHECK(json_real_value(json_object_get(pl, "occupancy")) == 1.0);
  CHECK(json_real_value(json_object_get(co, "occupancy")) == 0.75);
  pasta_activity_read back;
  if (CHECK(pasta__activity_read_json(root, &back) == 0 &&
            back.activity.num_kernels == 2)) {
    const pasta_activity_resources *b = &back.activity.kernels[0].resources;
    pasta_activity_resources want = sample_resources();
    CHECK(b->known && b->block_threads == 256 &&
          b->dynamic_shared_bytes == 512 && b->warp_size == 32 &&
          b->max_threads_per_sm == 2048);
    CHECK(!memcmp(&b->counting, &want.counting, sizeof want.counting));
    CHECK(!memcmp(&b->plain, &want.plain, sizeof want.plain));
    CHECK(!back.activity.kernels[1].resources.known);
  }
  pasta__activity_read_free(&back);
  json_decref(root);
}

/* A kernel whose counting copy (128 registers, largest block 512) cannot
 * take blocks of 1024 threads, whose register-capped copy ran them (64
 * registers, 200 bytes of local memory, 2 blocks per SM) against the plain
 * copy's 56 registers, no local memory and 2 blocks ("capped"). */
static pasta_activity_resources capped_resources(void) {
  pasta_activity_resources r = {1, 1024, 0, 32, 2048, {0}, {0}, 1, {0}};
  r.counting = (pasta_copy_resources){128, 0, 0, 512, 0};
  r.plain = (pasta_copy_resources){56, 0, 0, 1024, 2};
  r.capped = (pasta_copy_resources){64, 200, 0, 1024, 2};
  return r;
}

/* The capped copy's figures are written as "capped" beside the other two
 * and read back; a kernel without one has no such key. */
static void test_capped_resources_json(void) {
  pasta_activity_kernel k = {0}, plain = {0};
  k.name = k.mangled = "_Z2kv";
  plain.name = plain.mangled = "_Z2pv";
  k.resources = capped_resources();
  plain.resources = sample_resources();
  json_t *root = two_kernels_profile(&k, &plain, "capped");
  if (!root)
    return;
  json_t *r = first_kernel_resources(root);
  json_t *ca = json_object_get(r, "capped");
  CHECK_EQ_U64(jint(ca, "registers"), 64);
  CHECK_EQ_U64(jint(ca, "local_bytes"), 200);
  CHECK_EQ_U64(jint(ca, "max_threads_per_block"), 1024);
  CHECK(json_real_value(json_object_get(ca, "occupancy")) == 1.0);
  pasta_activity_read back;
  if (CHECK(pasta__activity_read_json(root, &back) == 0 &&
            back.activity.num_kernels == 2)) {
    const pasta_activity_resources *b = &back.activity.kernels[0].resources;
    pasta_activity_resources want = capped_resources();
    CHECK(b->has_capped &&
          !memcmp(&b->capped, &want.capped, sizeof want.capped));
    CHECK(!back.activity.kernels[1].resources.has_capped);
  }
  pasta__activity_read_free(&back);
  json_decref(root);
}

/* Where the capped copy ran, the note says that the launches were counted
 * by it and what it changed, whatever the occupancy (here the same); the
 * table shows plain -> the capped copy. */
static void test_capped_resources_note(void) {
  char note[640];
  pasta_activity_resources r = capped_resources();
  CHECK(pasta__resources_perturbed(&r, note, sizeof note));
  CHECK_HAS_STR(note, "the counting copy cannot run blocks of 1024 threads "
                      "(registers 56 -> 128): such launches ran its "
                      "register-capped copy, counted, with registers 56 -> "
                      "64, local memory (stack, spills) 0 -> 200 bytes per "
                      "thread, occupancy 100% -> 100%: their timings");
  CHECK(!strstr(note, "uncounted"));
  pasta_resources_text t;
  pasta__fmt_resources(&t, &r);
  CHECK(strcmp(t.registers, "56 -> 64") == 0 &&
        strcmp(t.local_bytes, "0 -> 200") == 0 &&
        strcmp(t.occupancy, "100% -> 100%") == 0);
}

/* The note: only when the counting copy fits fewer blocks per SM or uses
 * more local memory, and it says what changed. */
static void test_resources_note(void) {
  char note[512];
  pasta_activity_resources r = sample_resources();
  CHECK(pasta__resources_perturbed(&r, note, sizeof note));
  CHECK_HAS_STR(note, "the counting copy raised registers 32 -> 40, raised "
                      "local memory (stack, spills) 0 -> 64 bytes per thread "
                      "and lowered occupancy 100% -> 75%: ");
  /* More registers, the same blocks per SM and local memory: no note. */
  r.counting.blocks_per_sm = 8;
  r.counting.local_bytes = 0;
  CHECK(!pasta__resources_perturbed(&r, note, sizeof note) && !note[0]);
  /* Local memory alone. */
  r.counting.local_bytes = 16;
  CHECK(pasta__resources_perturbed(&r, note, sizeof note));
  CHECK_HAS_STR(note, "the counting copy raised local memory (stack, spills) "
                      "0 -> 16 bytes per thread: timings");
  CHECK(!strstr(note, "registers") && !strstr(note, "occupancy"));
  /* Fewer blocks without the GPU's warp size: said in blocks. */
  r = sample_resources();
  r.counting.local_bytes = 0;
  r.warp_size = 0;
  CHECK(pasta__resources_perturbed(&r, note, sizeof note));
  CHECK_HAS_STR(note, "raised registers 32 -> 40 and lowered blocks per SM "
                      "8 -> 6");
  CHECK(pasta__occupancy(&r, &r.counting) < 0);
  /* A counting copy that cannot run the block at all. */
  r = sample_resources();
  r.counting.blocks_per_sm = 0;
  CHECK(pasta__resources_perturbed(&r, note, sizeof note));
  CHECK_HAS_STR(note, "the counting copy cannot run blocks of 256 threads "
                      "(registers 32 -> 40): such launches run the plain "
                      "copy, uncounted");
  /* Unknown figures of the plain copy, or none read: no note. */
  r = sample_resources();
  r.plain = (pasta_copy_resources){-1, -1, -1, -1, -1};
  CHECK(!pasta__resources_perturbed(&r, note, sizeof note));
  r = sample_resources();
  r.known = 0;
  CHECK(!pasta__resources_perturbed(&r, note, sizeof note));
  /* Occupancy rounds the block up to whole warps: 6 blocks of 200 threads
   * (7 warps) of 64 warps. */
  r = sample_resources();
  r.block_threads = 200;
  CHECK(fabs(pasta__occupancy(&r, &r.counting) - 42.0 / 64.0) < 1e-12);
}

/* A kernel's row whose launches all ran the plain copy though its counting
 * copy takes the block (a cooperative or persistent grid no counting copy
 * holds): the note says none was counted, not that counted timings may be
 * perturbed; with one counted launch, or where the counting copy cannot run the
 * block (that note already says so), the resources' note stands. */
static void test_uncounted_kernel_note(void) {
  char note[512];
  pasta_activity_kernel k = {0};
  k.resources = sample_resources();
  k.launches = 3;
  CHECK(pasta__kernel_resources_note(&k, note, sizeof note));
  CHECK_HAS_STR(note, "none of its launches was counted: they ran the plain "
                      "copy, with its own registers and occupancy (the "
                      "counting copy's registers 32 -> 40)");
  k.counted = 1;
  CHECK(pasta__kernel_resources_note(&k, note, sizeof note));
  CHECK_HAS_STR(note, "timings of this kernel's counted launches");
  k.counted = 0;
  k.resources.counting.blocks_per_sm = 0;
  CHECK(pasta__kernel_resources_note(&k, note, sizeof note));
  CHECK_HAS_STR(note, "such launches run the plain copy, uncounted");
  /* No launch at all (a merged profile's row): as before. */
  k.resources = sample_resources();
  k.launches = 0;
  CHECK(pasta__kernel_resources_note(&k, note, sizeof note));
  CHECK_HAS_STR(note, "timings of this kernel's counted launches");
}

/* The descriptor's `uncounted` note (the plugin's not-counted warnings,
 * which a build's -w hides): each line once in the profile however many
 * modules carry it, in the JSON ("uncounted"), read back, and in the
 * tables. A note offset outside the strings is malformed; none (0) adds
 * nothing. */
static void test_uncounted_notes(void) {
  static const char line1[] =
      "inline assembly that loads, stores or copies memory is not counted "
      "(its accesses and bytes are missing from the profile) in 'sync'";
  static const char line2[] = "texture fetches are not counted in 'tex'";
  struct fake_module *m = malloc(sizeof *m);
  *m = device;
  m->desc.strings = (uint64_t)(uintptr_t)m->strings;
  m->desc.funcs = (uint64_t)(uintptr_t)m->funcs;
  m->desc.sites = (uint64_t)(uintptr_t)m->sites;
  char both[256];
  snprintf(both, sizeof both, "%s\n%s", line1, line2);
  m->desc.uncounted = add_string(m, both);
  m->desc.strings_size = m->strings_size;

  pasta_profile p;
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_set_info(&p, "./fake", 1, 0), 0);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &device.desc, device.summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(p.num_uncounted, 0);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_OK);
  CHECK_EQ_INT(p.num_uncounted, 2);
  if (p.num_uncounted == 2) {
    CHECK_EQ_STR(p.uncounted[0], line1);
    CHECK_EQ_STR(p.uncounted[1], line2);
  }
  CHECK_EQ_INT(pasta_profile_finalize(&p), PASTA_PROFILE_OK);

  char *text = json_of(&p);
  json_t *root = text ? parse(text, JSON_REJECT_DUPLICATES) : NULL;
  json_t *notes = json_object_get(root, "uncounted");
  CHECK_EQ_INT(json_array_size(notes), 2);
  CHECK_EQ_STR(json_string_value(json_array_get(notes, 0)), line1);
  CHECK_EQ_STR(json_string_value(json_array_get(notes, 1)), line2);
  pasta_profile back;
  pasta_profile_init(&back);
  char err[512] = "";
  CHECK_MSG(
      root && pasta__profile_read_json(root, NULL, &back, err, sizeof err) == 0,
      "%s", err);
  CHECK_EQ_INT(back.num_uncounted, 2);
  if (back.num_uncounted == 2)
    CHECK_EQ_STR(back.uncounted[1], line2);
  pasta_profile_free(&back);
  json_decref(root);
  free(text);

  char *tables = tables_of(&p, 3);
  CHECK(tables != NULL);
  if (tables) {
    char expect[300];
    snprintf(expect, sizeof expect, "\nnot counted: %s\n", line1);
    CHECK_HAS_STR(tables, expect);
    snprintf(expect, sizeof expect, "\nnot counted: %s\n", line2);
    CHECK_HAS_STR(tables, expect);
  }
  free(tables);
  pasta_profile_free(&p);

  /* A profile without notes has no "uncounted" member (every profile
   * before). */
  text = json_of(&profile);
  root = text ? parse(text, JSON_REJECT_DUPLICATES) : NULL;
  CHECK(root != NULL);
  CHECK_EQ_PTR(json_object_get(root, "uncounted"), NULL);
  json_decref(root);
  free(text);

  m->desc.uncounted = m->desc.strings_size; /* past the strings */
  pasta_profile_init(&p);
  CHECK_EQ_INT(pasta_profile_add_module(&p, &m->desc, m->summed),
               PASTA_PROFILE_EMALFORMED);
  CHECK_EQ_INT(p.num_uncounted, 0);
  pasta_profile_free(&p);
  free(m);
}

int main(void) {
  build_profile();
  if (check_failures()) {
    fprintf(stderr, "profile: building the profile failed\n");
    return check_summary("profile");
  }
  CHECK_RUN(test_rejection);
  CHECK_RUN(test_recorded_display_names);
  CHECK_RUN(test_kernel_totals);
  CHECK_RUN(test_generic_resolution);
  CHECK_RUN(test_device_functions);
  CHECK_RUN(test_host_functions);
  CHECK_RUN(test_sorting);
  CHECK_RUN(test_path_normal);
  CHECK_RUN(test_line_merge);
  CHECK_RUN(test_json);
  CHECK_RUN(test_json_escaping);
  CHECK_RUN(test_big_numbers);
  CHECK_RUN(test_empty_profile);
  CHECK_RUN(test_ranks);
  CHECK_RUN(test_constructors);
  CHECK_RUN(test_tables);
  CHECK_RUN(test_divergence);
  CHECK_RUN(test_bytes_counters);
  CHECK_RUN(test_shuffled_flops);
  CHECK_RUN(test_warp_total_flops);
  CHECK_RUN(test_twin_rows_merge);
  CHECK_RUN(test_omitted);
  CHECK_RUN(test_resources_json);
  CHECK_RUN(test_resources_note);
  CHECK_RUN(test_uncounted_kernel_note);
  CHECK_RUN(test_capped_resources_json);
  CHECK_RUN(test_capped_resources_note);
  CHECK_RUN(test_uncounted_notes);
  pasta_profile_free(&profile);
  return check_summary("profile");
}
