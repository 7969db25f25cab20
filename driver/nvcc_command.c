/*===- nvcc_command.c - The clang command from a parsed nvcc command ------===*
 *
 * pasta_nvcc_translate() parses nvcc's arguments (nvcc_args.c) and
 * assembles pasta-clang++'s from them; pasta_nvcc_filter() maps the
 * options only nvcc has in a clang command (the CMake launcher's).
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "nvcc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- The clang command -------------------------------------------------===*/

static int count_inputs(const struct parse *p, int lang) {
  int n = 0;
  for (size_t i = 0; i < p->inputs.num; ++i)
    n += p->inputs.at[i][0] - '0' == lang;
  return n;
}

static int in_only_archs(const struct parse *p, const char *arch) {
  const char *list = p->cfg->only_archs;
  size_t len = strlen(arch);
  while (list && *list) {
    size_t n = strcspn(list, ",; ");
    if (n == len && strncmp(list, arch, n) == 0)
      return 1;
    list += n + (list[n] != '\0');
  }
  return 0;
}

static int have_only_archs(const struct parse *p) {
  return p->cfg->only_archs && p->cfg->only_archs[0];
}

/* Whether to build for sm_`arch`: not when the user asked for others only
 * (no warning: their choice), nor when clang cannot (one warning). */
static int keep_arch(struct parse *p, const char *arch) {
  if (have_only_archs(p) && !in_only_archs(p, arch))
    return 0;
  if (!pasta_nvcc_arch_supported(arch)) {
    nv_warn(p,
            "sm_%s dropped: clang-22 with CUDA 13 cannot build for it "
            "(docs/nvcc.md lists what it can)",
            arch);
    return 0;
  }
  return 1;
}

/* Nothing left to build for: the user's list, else the default. */
static void fallback_archs(struct parse *p, int warn_none, const char *spell) {
  int pushed = 0;
  const char *list = have_only_archs(p) ? p->cfg->only_archs : "";
  while (*list) {
    size_t n = strcspn(list, ",; ");
    char arch[16];
    snprintf(arch, sizeof arch, "%.*s", (int)(n < 15 ? n : 15), list);
    if (n && pasta_nvcc_arch_supported(arch)) {
      p->failed |= nv_pushf(&p->out->args, "%ssm_%s", spell, arch);
      ++pushed;
    }
    list += n + (list[n] != '\0');
  }
  if (pushed)
    return;
  if (warn_none)
    nv_warn(p, "no GPU architecture left; building for sm_%s",
            p->cfg->default_arch);
  p->failed |= nv_pushf(&p->out->args, "%ssm_%s", spell, p->cfg->default_arch);
}

/* The architectures to build for: -code/-gencode's, else -arch's; those
 * clang cannot target dropped, with a warning if `warn`. Each is pushed as
 * `<spell>sm_NN`; with none named, nothing unless `always` (then the
 * default). */
static void emit_archs_as(struct parse *p, const char *spell, int always,
                          int warn) {
  const pasta_strlist *want = p->have_code ? &p->archs : &p->arch_only;
  if (!want->num) {
    if (have_only_archs(p) || always)
      fallback_archs(p, 0, spell);
    return;
  }
  int kept = 0, buildable = 0;
  for (size_t i = 0; i < want->num; ++i) {
    buildable += pasta_nvcc_arch_supported(want->at[i]);
    int keep = warn
                   ? keep_arch(p, want->at[i])
                   : pasta_nvcc_arch_supported(want->at[i]) &&
                         (!have_only_archs(p) || in_only_archs(p, want->at[i]));
    if (keep) {
      p->failed |= nv_pushf(&p->out->args, "%ssm_%s", spell, want->at[i]);
      ++kept;
    }
  }
  if (!kept)
    fallback_archs(p, warn && !buildable, spell);
}

/* With none named, pasta-clang++'s default (PASTA_CUDA_ARCH, 90). */
static void emit_archs(struct parse *p) {
  emit_archs_as(p, "--offload-arch=", 0, 1);
}

/* The GPU architecture an argument names ("90" of --offload-arch=sm_90 or
 * --cuda-gpu-arch=sm_90), or NULL. */
const char *nv_arch_of(const char *arg) {
  if (strncmp(arg, "--offload-arch=sm_", 18) == 0)
    return arg + 18;
  if (strncmp(arg, "--cuda-gpu-arch=sm_", 19) == 0)
    return arg + 19;
  return NULL;
}

static void remove_at(pasta_strlist *l, size_t i) {
  free(l->at[i]);
  memmove(l->at + i, l->at + i + 1, (l->num - i - 1) * sizeof *l->at);
  --l->num;
}

/* -fatbin, -cubin, -ptx: device code only. A cubin or PTX file is of one
 * architecture: the first asked for (for PTX the lowest, which the driver
 * compiles for newer GPUs), with a warning when there were more; a fatbin
 * of several is made by pasta_nvcc_run. */
static void device_output_args(struct parse *p) {
  pasta_strlist *a = &p->out->args;
  char kind = p->out->device_output;
  if (!kind)
    return;
  size_t keep = a->num, archs = 0;
  for (size_t i = 0; i < a->num; ++i) {
    const char *arch = nv_arch_of(a->at[i]);
    if (!arch)
      continue;
    ++archs;
    if (keep == a->num ||
        (kind == 'p' && atoi(arch) < atoi(nv_arch_of(a->at[keep]))))
      keep = i;
  }
  if (kind != 'f' && archs > 1) {
    nv_warn(p,
            "-%s: one architecture, sm_%s (clang writes one file per "
            "architecture)",
            kind == 'p' ? "ptx" : "cubin", nv_arch_of(a->at[keep]));
    for (size_t i = a->num; i-- > 0;)
      if (i != keep && nv_arch_of(a->at[i]))
        remove_at(a, i);
  }
  p->failed |= nv_push(a, "--cuda-device-only");
  if (kind == 'p')
    p->failed |= nv_push(a, "-S");
  else if (!nv_contains(a, "-c"))
    p->failed |= nv_push(a, "-c");
}

/* nvcc optimizes device code whatever the host -O level (-O0 and -g
 * included) unless -G: clang's device side follows the host -O unless told
 * otherwise, and at -O0 with debug info runs ptxas with -g, which takes
 * minutes and gigabytes on template-heavy code. Must follow every -O. */
static void device_opt_level(struct parse *p) {
  p->failed |= nv_push(&p->out->args, "-Xarch_device") ||
               nv_push(&p->out->args, p->device_debug ? "-O0" : "-O3");
}

/* Whether the command decides device unrolling itself: an unroll threshold
 * of clang's own (-mllvm -unroll-threshold=N in any spelling, through
 * -Xcompiler too) or -pasta-unroll-private-arrays=0/1. */
static int names_unrolling(const pasta_strlist *args) {
  for (size_t i = 0; i < args->num; ++i)
    if (strstr(args->at[i], "-unroll-threshold") ||
        strstr(args->at[i], PASTA_NVCC_UNROLL_PRIVATE_FLAG))
      return 1;
  return 0;
}

/* nvcc fully unrolls loops over a thread's arrays that clang's default
 * threshold leaves rolled: the arrays then live in local memory (tile GEMMs
 * 17-47x slower than nvcc's build), and a profile would describe code
 * nvcc's build never runs. The plugin's pass unrolls those loops alone
 * (passes/PrivateArrayUnroll.h), in device code only; the user's own
 * choice wins. */
static void device_unroll_private_arrays(struct parse *p) {
  if (!p->cfg->unroll_private_arrays || p->device_debug ||
      names_unrolling(&p->out->args))
    return;
  p->failed |= nv_push(&p->out->args, "-Xarch_device") ||
               nv_push(&p->out->args, "-mllvm=" PASTA_NVCC_UNROLL_PRIVATE_FLAG);
}

/* Warnings, not errors, for what nvcc's front end and its host compiler
 * (g++) accept and clang makes an error by default: C++17's removed
 * `register` (older kernels' `register int i`) and a class object passed to
 * a variadic function (a logger's `%s` of a std::string; clang's call
 * aborts at run time where g++ passes the object: the warning says so). */
static void dialect_warnings(struct parse *p, pasta_strlist *a) {
  p->failed |= nv_push(a, "-Wno-error=register") ||
               nv_push(a, "-Wno-error=non-pod-varargs");
}

/* nvcc's dialect where clang's differs: the compatibility header and the
 * warnings above. */
static void host_compat(struct parse *p) {
  if (!p->cfg->host_compat)
    return;
  p->failed |= nv_push(&p->out->args, "-include") ||
               nv_push(&p->out->args, p->cfg->host_compat);
  dialect_warnings(p, &p->out->args);
}

/* Whether input i is a device-link object (pasta-nvcc -dlink's) that a
 * link which device-links itself must leave out. */
static int drops_input(struct parse *p, size_t i, int device_links) {
  const char *path = p->inputs.at[i] + 1;
  return device_links && p->inputs.at[i][0] - '0' == LANG_OBJECT &&
         p->cfg->is_device_link_object && p->cfg->is_device_link_object(path);
}

/* The inputs in order, each language named once. `compiles_only`: the
 * command compiles sources and links nothing, and nvcc ignores objects and
 * archives on it without a word (Tigr's `nvcc -c bfs.cu ../shared/graph.o
 * ...`), where clang would warn of each "linker input unused". */
static void emit_inputs(struct parse *p, int device_links, int compiles_only) {
  static const char *const names[] = {"none", "cuda", "c++", "c", "none"};
  int current = -1;
  for (size_t i = 0; i < p->inputs.num; ++i) {
    int lang = p->inputs.at[i][0] - '0';
    const char *path = p->inputs.at[i] + 1;
    if (drops_input(p, i, device_links)) {
      p->failed |= nv_pushf(&p->out->notes,
                            "%s left out: a device-link object, and this "
                            "link device-links",
                            path);
      continue;
    }
    if (compiles_only && lang == LANG_OBJECT) {
      p->failed |= nv_pushf(&p->out->notes,
                            "%s left out: this command links nothing", path);
      continue;
    }
    if (lang != current && !(lang == LANG_OBJECT && current == -1)) {
      p->failed |= nv_push(&p->out->args, "-x");
      p->failed |= nv_push(&p->out->args, names[lang]);
      current = lang;
    }
    p->failed |= nv_push(&p->out->args, path);
  }
}

/* -L and -l of a -dlink command: nvcc device-links the relocatable device
 * code of the libraries named (a device library's archive); the linker
 * wrapper takes the members an object needs from archives on the link
 * line. The toolkit's directory is searched too, as nvcc does (-lcudart
 * and the like on a Makefile's -dlink line). */
static void emit_device_link_libraries(struct parse *p) {
  pasta_strlist *a = &p->out->args;
  for (size_t i = 0; i < p->lib_dirs.num; ++i)
    p->failed |= nv_push(a, p->lib_dirs.at[i]);
  if (p->libs.num)
    p->failed |= nv_pushf(a, "-L%s/lib64", p->cfg->cuda_path);
  for (size_t i = 0; i < p->libs.num; ++i)
    p->failed |= nv_push(a, p->libs.at[i]);
}

/* Line tables unless the command chose its debug info (nvcc's -g, -G,
 * -lineinfo, or the host compiler's -g... through -Xcompiler), so that
 * counts have source lines in any build (clang gives the device side
 * line directives at -O3). */
static void line_tables(struct parse *p, pasta_strlist *a) {
  int chose = 0;
  for (size_t i = 0; i < p->flags.num; ++i)
    chose |= pasta_asks_debug_info(p->flags.at[i]);
  if (p->cfg->line_tables == 1 && !chose)
    p->failed |= nv_push(a, "-gline-tables-only");
}

/* nvcc gives host files the CUDA headers (and CCCL's in CUDA 13). */
static void host_headers(struct parse *p, pasta_strlist *a) {
  const char *cuda = p->cfg->cuda_path;
  p->failed |= nv_push(a, "-isystem") || nv_pushf(a, "%s/include", cuda);
  if (p->cfg->have_cccl)
    p->failed |= nv_push(a, "-isystem") || nv_pushf(a, "%s/include/cccl", cuda);
}

/* The device code's denormal mode means nothing to a command that only
 * preprocesses host code (-M, -E: FindCUDA's dependency scan with
 * --use_fast_math), where clang reports it unused. */
static int host_only_unused(const struct parse *p, const char *flag) {
  return (p->preprocess || p->depend) &&
         strcmp(flag, "-fgpu-flush-denormals-to-zero") == 0;
}

/* ptxas's options (-Xptxas, --ptxas-options, -maxrregcount) mean nothing
 * to a command without CUDA sources: nvcc ignores them on a link of objects
 * (cuda-spmv-benchmark's Makefile links with its --ptxas-options) and on a
 * C or C++ file, where clang reports each unused. */
static int is_ptxas_flag(const char *flag) {
  return strcmp(flag, "-Xcuda-ptxas") == 0;
}

/* The command compiling host source i (C or C++) alone: to `obj`, or
 * where clang puts it (nvcc's name, <base>.o) when `obj` is NULL. */
static void host_compile(struct parse *p, size_t i, const char *obj) {
  pasta_nvcc_result *out = p->out;
  pasta_strlist *grown =
      realloc(out->host_compiles, (out->num_host_compiles + 1) * sizeof *grown);
  if (!grown) {
    p->failed = 1;
    return;
  }
  out->host_compiles = grown;
  pasta_strlist *a = &grown[out->num_host_compiles++];
  memset(a, 0, sizeof *a);
  int lang = p->inputs.at[i][0] - '0';
  line_tables(p, a);
  for (size_t f = 0; f < p->flags.num; ++f) { /* the link's own: not here */
    const char *flag = p->flags.at[f];
    if (strcmp(flag, "-Xlinker") == 0 || is_ptxas_flag(flag))
      ++f;
    else if (strncmp(flag, "-Wl,", 4) != 0 && strcmp(flag, "-shared") != 0)
      p->failed |= nv_push(a, flag);
  }
  if (p->std && lang == LANG_CXX)
    p->failed |= nv_pushf(a, "-std=%s", p->std);
  if (lang == LANG_CXX && p->cfg->host_compat)
    dialect_warnings(p, a);
  p->failed |= nv_push(a, "-c");
  host_headers(p, a);
  if (obj)
    p->failed |= nv_push(a, "-o") || nv_push(a, obj);
  p->failed |= nv_push(a, "-x") || nv_push(a, lang == LANG_C ? "c" : "c++") ||
               nv_push(a, p->inputs.at[i] + 1);
}

/* CUDA and host (C, C++) sources in one command that compiles or links:
 * clang's offloading driver gives every source of such a command CUDA's
 * header wrappers (cuda_wrappers/new over <new>), and a .cpp including
 * cuda_runtime.h then <fstream> fails ("redefinition of 'operator new'";
 * Chai's Makefiles: `nvcc main.cpp kernel.cpp kernel.cu -o exe`). nvcc
 * compiles each host file alone with the host compiler; so does
 * pasta-nvcc: each becomes its own command (host_compiles), run first; a
 * link takes its object (host_objects, removed after the link) in its
 * place, a compile (-c) leaves it out. */
static void split_host_sources(struct parse *p) {
  int link = !p->compile && !p->preprocess && !p->depend && !p->dlink;
  if (p->out->device_output || !(link || p->compile) ||
      !count_inputs(p, LANG_CUDA))
    return;
  const char *output = p->output ? p->output : "a.out";
  size_t kept = 0;
  for (size_t i = 0; i < p->inputs.num; ++i) {
    int lang = p->inputs.at[i][0] - '0';
    if (lang != LANG_CXX && lang != LANG_C) {
      p->inputs.at[kept++] = p->inputs.at[i];
      continue;
    }
    if (!link) {
      host_compile(p, i, NULL);
      free(p->inputs.at[i]);
      continue;
    }
    const char *base = strrchr(p->inputs.at[i] + 1, '/');
    base = base ? base + 1 : p->inputs.at[i] + 1;
    p->failed |= nv_pushf(&p->out->host_objects, "%s.pasta-host%zu-%s.o",
                          output, p->out->num_host_compiles, base);
    if (p->failed)
      return;
    const char *obj = p->out->host_objects.at[p->out->host_objects.num - 1];
    host_compile(p, i, obj);
    free(p->inputs.at[i]);
    p->failed |= nv_pushf(&p->inputs, "%d%s", LANG_OBJECT, obj);
    /* in the source's place: the link keeps nvcc's order */
    p->inputs.at[kept++] = p->inputs.at[--p->inputs.num];
  }
  p->inputs.num = kept;
}

static void emit(struct parse *p) {
  pasta_strlist *a = &p->out->args;
  const char *cuda = p->cfg->cuda_path;
  split_host_sources(p);
  int cuda_inputs = count_inputs(p, LANG_CUDA);
  int host_inputs = count_inputs(p, LANG_CXX) + count_inputs(p, LANG_C);
  int objects = count_inputs(p, LANG_OBJECT);
  int link = !p->compile && !p->preprocess && !p->depend;
  p->out->links = link && !p->dlink;
  /* With -c too, nvcc compiles and does not device-link, whatever the
   * order (Altis's `target_compile_options(... -rdc=true -dlink)` puts
   * -dlink on every compile line of a library). */
  if (p->dlink && !p->compile) {
    /* nvcc -dlink writes an object that registers the linked device code,
     * for g++ or ld to link with the objects (Makefiles do). clang's linker
     * wrapper writes that object during a link: one that may leave host
     * symbols unresolved, its temporary files kept, run by pasta_nvcc_run
     * in a scratch directory (device_link). */
    const char *out = p->output ? p->output : "a_dlink.o";
    p->out->device_link = 1;
    p->failed |= nv_push(a, "-fgpu-rdc") || nv_push(a, "--offload-link") ||
                 nv_push(a, "-save-temps") ||
                 nv_push(a, "-Wl,--unresolved-symbols=ignore-all") ||
                 nv_push(a, "-o") || nv_push(a, out);
    emit_inputs(p, 0, 0);
    /* clang's linker wrapper takes an archive member's device code only
     * for a device symbol an earlier input needs; nvcc's device link takes
     * the library's kernels whatever the objects before it hold (CMake's
     * `-dlink main.cu.o librdc.a` for an executable without rdc of its
     * own). So the wrapper takes every member's code for these archs. */
    emit_archs_as(p, "-Wl,--should-extract=", 1, 0); /* compiles warned */
    emit_device_link_libraries(p);
    p->failed |= nv_push(a, "-Xoffload-linker") ||
                 nv_pushf(a, "-L%s/lib64", cuda) ||
                 nv_push(a, "-Xoffload-linker") || nv_push(a, "-lcudadevrt");
    return;
  }
  if (cuda_inputs + host_inputs)
    line_tables(p, a);
  int device_objects = 0;
  for (size_t i = 0; link && i < p->inputs.num; ++i)
    device_objects += p->inputs.at[i][0] - '0' == LANG_OBJECT &&
                      p->cfg->has_device_code &&
                      p->cfg->has_device_code(p->inputs.at[i] + 1);
  int device_links =
      link && (p->rdc || device_objects) && (objects || cuda_inputs);
  for (size_t i = 0; i < p->flags.num; ++i) {
    if (!cuda_inputs && !device_links && is_ptxas_flag(p->flags.at[i])) {
      ++i; /* and its value */
      continue;
    }
    p->failed |= nv_push(a, p->flags.at[i]);
  }
  /* nvcc takes -L and -l on a command that does not link and ignores them
   * (Learn-CUDA-Programming's Makefiles compile with -lcublas -lcurand
   * -L...); clang would report each unused. */
  for (size_t i = 0; link && i < p->lib_dirs.num; ++i)
    p->failed |= nv_push(a, p->lib_dirs.at[i]);
  /* nvcc's -std is for C++ and CUDA; clang refuses it with C inputs. */
  if (p->std && count_inputs(p, LANG_C))
    nv_warn(p, "-std=%s left out: this command also compiles C files", p->std);
  else if (p->std)
    p->failed |= nv_pushf(a, "-std=%s", p->std);
  if (p->compile && p->out->device_output != 'p')
    p->failed |= nv_push(a, "-c");
  if (cuda_inputs) {
    for (size_t i = 0; i < p->cuda_flags.num; ++i)
      if (!host_only_unused(p, p->cuda_flags.at[i]))
        p->failed |= nv_push(a, p->cuda_flags.at[i]);
    emit_archs(p);
    device_opt_level(p);
    if (p->ptxas_opt_level && p->cfg->ptxas_filter)
      p->failed |= nv_pushf(a, "--ptxas-path=%s", p->cfg->ptxas_filter);
    device_unroll_private_arrays(p);
    host_compat(p);
    device_output_args(p);
    if (p->rdc)
      p->failed |= nv_push(a, "-fgpu-rdc");
    if (p->preprocess || p->depend)
      p->failed |= nv_push(a, "--cuda-host-only");
  }
  if (host_inputs)
    host_headers(p, a);
  /* A C++ compile without CUDA sources: nvcc's host compiler (g++) takes
   * what clang's defaults refuse. */
  if (!cuda_inputs && count_inputs(p, LANG_CXX) && p->cfg->host_compat)
    dialect_warnings(p, a);
  if (p->output)
    p->failed |= nv_push(a, "-o") || nv_push(a, p->output);
  emit_inputs(p, device_links, !link && cuda_inputs + host_inputs > 0);
  for (size_t i = 0; link && i < p->libs.num; ++i)
    p->failed |= nv_push(a, p->libs.at[i]);
  if (!link || p->inputs.num == 0)
    return;
  if (device_links) {
    /* With CUDA's device runtime (dynamic parallelism), as nvcc links.
     * --offload-link is for device code compiled before this command:
     * clang device-links what it compiles itself, and warns that the
     * option went unused (nvcc -rdc=true k.cu -o app warns of nothing). */
    p->failed |= nv_push(a, "-fgpu-rdc");
    if (device_objects || !cuda_inputs)
      p->failed |= nv_push(a, "--offload-link");
    p->failed |= nv_push(a, "-Xoffload-linker") ||
                 nv_pushf(a, "-L%s/lib64", cuda) ||
                 nv_push(a, "-Xoffload-linker") || nv_push(a, "-lcudadevrt");
  }
  /* nvcc links the CUDA runtime, statically unless told otherwise. */
  if (p->cudart != CUDART_NONE) {
    p->failed |= nv_pushf(a, "-L%s/lib64", cuda);
    if (p->cudart == CUDART_SHARED)
      p->failed |= nv_push(a, "-lcudart");
    else
      p->failed |= nv_push(a, "-lcudart_static") || nv_push(a, "-ldl") ||
                   nv_push(a, "-lrt") || nv_push(a, "-lpthread");
  }
}

/* A fresh parse of one command into an empty `out`. */
static void parse_start(struct parse *p, const pasta_nvcc_config *cfg,
                        pasta_nvcc_result *out) {
  memset(out, 0, sizeof *out);
  memset(p, 0, sizeof *p);
  p->cfg = cfg;
  p->out = out;
}

int pasta_nvcc_translate(int argc, char **argv, const pasta_nvcc_config *cfg,
                         pasta_nvcc_result *out) {
  struct parse p;
  parse_start(&p, cfg, out);
  if (cfg->line_tables < 0)
    nv_error(&p,
             "PASTA_LINE_TABLES='%s': use 1 or 0 (on/off, true/false, yes/no); "
             "0 builds without the default -gline-tables-only",
             cfg->line_tables_value ? cfg->line_tables_value : "");
  else if (argc > 0 && nv_argv_expanded(&p, argc, argv, 1) == 0)
    nv_parse(&p, (int)p.expanded.num, p.expanded.at);
  if (out->mode == PASTA_NVCC_BUILD && !out->error) {
    if (p.inputs.num == 0 && !p.dlink)
      nv_error(&p, "no input files");
    else
      emit(&p);
  }
  nv_parse_free(&p);
  return p.failed ? -1 : 0;
}

/*===-- Filtering a clang command (the CMake launcher) --------------------===*/

/* Spellings nvcc and clang share, with another meaning in clang. */
static int clang_also(const char *name, size_t len) {
  static const char *const shared[] = {"Werror", "m64", "t", "keep"};
  for (size_t i = 0; i < sizeof shared / sizeof *shared; ++i)
    if (strlen(shared[i]) == len && strncmp(shared[i], name, len) == 0)
      return 1;
  return 0;
}

static void move_flags(struct parse *p, pasta_strlist *from) {
  for (size_t i = 0; i < from->num; ++i)
    p->failed |= nv_push(&p->out->args, from->at[i]);
  nv_strlist_free(from);
}

/* --cuda-gpu-arch=sm_NN or --offload-arch=sm_NN: kept when clang can
 * build it here (and the user's list has it). Returns whether `arg` is
 * one. */
struct arch_count {
  int given, buildable, kept;
};

static int gpu_arch_arg(struct parse *p, const char *arg,
                        struct arch_count *n) {
  const char *v = NULL;
  if (strncmp(arg, "--cuda-gpu-arch=", 16) == 0)
    v = arg + 16;
  else if (strncmp(arg, "--offload-arch=", 15) == 0)
    v = arg + 15;
  if (!v)
    return 0;
  const char *num = strncmp(v, "sm_", 3) == 0 ? v + 3 : NULL;
  if (!num) { /* not an NVIDIA architecture: clang's to judge */
    p->failed |= nv_push(&p->out->args, arg);
    ++n->kept;
    return 1;
  }
  ++n->given;
  n->buildable += pasta_nvcc_arch_supported(num);
  if (keep_arch(p, num)) {
    p->failed |= nv_push(&p->out->args, arg);
    ++n->kept;
  }
  return 1;
}

/* The toolchain's flags, where the compile has no pass plugin: a project
 * that sets CMAKE_CUDA_FLAGS before enable_language(CUDA) hides the
 * toolchain's CMAKE_CUDA_FLAGS_INIT, and its kernels were compiled without
 * PASTA (or, with -pasta-unroll-private-arrays added, not at all: "Unknown
 * command line argument"). A command holding the plugin has them already. */
static void toolchain_flags(struct parse *p) {
  pasta_strlist *a = &p->out->args;
  for (size_t i = 0; i < a->num; ++i)
    if (strncmp(a->at[i], "-fpass-plugin=", 14) == 0)
      return;
  for (size_t i = 0; i < p->cfg->num_toolchain_flags; ++i)
    p->failed |= nv_push(a, p->cfg->toolchain_flags[i]);
}

int pasta_nvcc_filter(int argc, char **argv, const pasta_nvcc_config *cfg,
                      pasta_nvcc_result *out) {
  struct parse p;
  parse_start(&p, cfg, out);
  struct arch_count archs = {0, 0, 0};
  if (argc > 0 && nv_argv_expanded(&p, argc, argv, 0) == 0) {
    argc = (int)p.expanded.num;
    argv = p.expanded.at;
  } else {
    argc = 0;
  }
  for (int i = 0; i < argc && !out->error; ++i) {
    const char *arg = argv[i];
    if (i == 0 || arg[0] != '-' || gpu_arch_arg(&p, arg, &archs)) {
      if (i == 0 || arg[0] != '-')
        p.failed |= nv_push(&out->args, arg);
      continue;
    }
    const char *name = nv_spelling(arg);
    size_t len = strcspn(name, "=");
    const struct option *o = nv_find_option(name, len);
    if (!o || !(o->flags & NVCC_ONLY) || clang_also(name, len)) {
      p.failed |= nv_push(&out->args, arg);
      continue;
    }
    const char *value = NULL;
    if (o->flags & VALUE) {
      value = nv_option_value(&p, arg, name, len, argc, argv, &i);
      if (!value)
        break;
    }
    o->run(&p, arg, value);
    if (p.rdc) {
      p.failed |= nv_push(&p.flags, "-fgpu-rdc");
      p.rdc = 0;
    }
    move_flags(&p, &p.flags);
    move_flags(&p, &p.cuda_flags);
  }
  /* Architectures named with nvcc's options, then the fallback. */
  pasta_strlist *want = p.have_code ? &p.archs : &p.arch_only;
  for (size_t i = 0; i < want->num; ++i) {
    char arg[64];
    snprintf(arg, sizeof arg, "--offload-arch=sm_%s", want->at[i]);
    gpu_arch_arg(&p, arg, &archs);
  }
  if (archs.given && !archs.kept)
    fallback_archs(&p, !archs.buildable, "--offload-arch=");
  /* A compile (not CMake's link step, which runs the CUDA compiler too). */
  if (out->device_output || nv_contains(&out->args, "-c") ||
      nv_contains(&out->args, "-S") || nv_contains(&out->args, "-E")) {
    toolchain_flags(&p);
    device_opt_level(&p);
    device_unroll_private_arrays(&p);
    host_compat(&p);
  }
  device_output_args(&p);
  /* A project's own commands calling the CUDA compiler have no PASTA flags:
   * clang's "CUDA version is newer" is noise there too. */
  if (!nv_contains(&out->args, "-Wno-unknown-cuda-version"))
    p.failed |= nv_push(&out->args, "-Wno-unknown-cuda-version");
  nv_parse_free(&p);
  return p.failed ? -1 : 0;
}

void pasta_nvcc_result_free(pasta_nvcc_result *r) {
  nv_strlist_free(&r->args);
  nv_strlist_free(&r->warnings);
  nv_strlist_free(&r->notes);
  for (size_t i = 0; i < r->num_host_compiles; ++i)
    nv_strlist_free(&r->host_compiles[i]);
  free(r->host_compiles);
  nv_strlist_free(&r->host_objects);
  free(r->error);
  memset(r, 0, sizeof *r);
}
