/*===- pasta/abi.h - Layout shared by the pass, runtimes and tools --------===*
 *
 * The one definition of the data the compiler pass emits into every
 * instrumented module and that the host runtime reads back: a module
 * descriptor, a function table, a site table (one row per basic block and
 * source line), a string table and the execution counters. The pass (C++),
 * the device runtime (freestanding C), the host runtime and the analyzers all
 * include this header; nobody copies the layout by hand.
 *
 * Counters are 64-bit and laid out bank-major: counters[bank][counter].
 * Device modules spread flushes over num_banks banks (chosen by the linear
 * block id): a power of two between PASTA_DEVICE_MIN_BANKS and
 * PASTA_DEVICE_MAX_BANKS, as many as fit in PASTA_DEVICE_COUNTER_BYTES, so
 * that millions of warps do not serialise on a few addresses.
 *
 * Each shared struct is written once, as a list of fields (an X-macro,
 * PASTA_<STRUCT>_FIELDS(X) calling X(KIND, name) per field), from which the
 * C struct below is generated; the pass builds its LLVM types and field
 * indices from the same lists (passes/AbiTypes.h) and checks at run time
 * that LLVM lays them out at the C offsets. KIND names a C type:
 * U32/I32/U64 (uint32_t, int32_t, uint64_t), ADDR (uint64_t holding an
 * address), MIX (uint32_t[PASTA_MIX_NUM]), WS_ARGS (struct
 * pasta_ws_arg[PASTA_WS_ARG_SLOTS]).
 *
 * Bump PASTA_ABI_VERSION whenever anything in this file changes, then
 * record it: scripts/check_abi_version.py . --record (the ctest test
 * abi-version fails until the record matches; comments need no bump).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ABI_H
#define PASTA_ABI_H

#include <stdint.h>

#define PASTA_ABI_MAGIC 0x41545350u /* "PSTA" */
#define PASTA_ABI_VERSION_NUMBER 22
#define PASTA_ABI_VERSION (PASTA_ABI_VERSION_NUMBER + 0u)
/* The runtime defines __pasta_abi_v<version>, and every host module the
 * plugin instruments refers to it, weakly (passes/RuntimeBinding.cpp): an
 * object built by another PASTA version binds to no runtime that lacks its
 * symbol and runs uninstrumented, with a warning that names the version it
 * needs, instead of handing the runtime tables of another layout. */
#define PASTA_ABI_CAT_(a, b) a##b
#define PASTA_ABI_CAT(a, b) PASTA_ABI_CAT_(a, b)
#define PASTA_ABI_STR_(x) #x
#define PASTA_ABI_STR(x) PASTA_ABI_STR_(x)
#define PASTA_ABI_SYMBOL_ID                                                    \
  PASTA_ABI_CAT(__pasta_abi_v, PASTA_ABI_VERSION_NUMBER)
#define PASTA_ABI_SYMBOL "__pasta_abi_v" PASTA_ABI_STR(PASTA_ABI_VERSION_NUMBER)
#define PASTA_DEVICE_MIN_BANKS 256u
#define PASTA_DEVICE_MAX_BANKS 4096u
#define PASTA_DEVICE_COUNTER_BYTES (4u << 20)
#define PASTA_NONE 0xffffffffu
/* A site's bytes_counter: its FLOPs are per 32 executions (see
 * PASTA_SITE_FIELDS). */
#define PASTA_WARP_TOTAL 0xfffffffeu

/* The C type of each field kind, and the array extent after the name. */
#define PASTA_ABI_CTYPE_U32 uint32_t
#define PASTA_ABI_CTYPE_I32 int32_t
#define PASTA_ABI_CTYPE_U64 uint64_t
#define PASTA_ABI_CTYPE_ADDR uint64_t
#define PASTA_ABI_CTYPE_MIX uint32_t
#define PASTA_ABI_CTYPE_WS_ARGS struct pasta_ws_arg
#define PASTA_ABI_EXTENT_U32
#define PASTA_ABI_EXTENT_I32
#define PASTA_ABI_EXTENT_U64
#define PASTA_ABI_EXTENT_ADDR
#define PASTA_ABI_EXTENT_MIX [PASTA_MIX_NUM]
#define PASTA_ABI_EXTENT_WS_ARGS [PASTA_WS_ARG_SLOTS]
/* One member declaration of a generated struct. */
#define PASTA_ABI_MEMBER(kind, name)                                           \
  PASTA_ABI_CTYPE_##kind name PASTA_ABI_EXTENT_##kind;

/* Address spaces, as the profile names them. */
#define PASTA_SPACES(X)                                                        \
  X(GLOBAL, "global")                                                          \
  X(SHARED, "shared")                                                          \
  X(LOCAL, "local")                                                            \
  X(CONSTANT, "constant")                                                      \
  X(GENERIC, "generic")

enum pasta_space {
#define PASTA_X(id, name) PASTA_SPACE_##id,
  PASTA_SPACES(PASTA_X)
#undef PASTA_X
      PASTA_NUM_SPACES
};

/* Floating-point precisions. */
#define PASTA_PRECISIONS(X)                                                    \
  X(F16, "f16")                                                                \
  X(BF16, "bf16")                                                              \
  X(F32, "f32")                                                                \
  X(F64, "f64")

enum pasta_precision {
#define PASTA_X(id, name) PASTA_PREC_##id,
  PASTA_PRECISIONS(PASTA_X)
#undef PASTA_X
      PASTA_NUM_PRECISIONS
};

/* The static mix of one site: a flat array of uint32_t, indexed by these
 * offsets (a space or precision is added to the group's base). */
enum pasta_mix_index {
  PASTA_MIX_LOADS = 0,
  PASTA_MIX_STORES = PASTA_MIX_LOADS + PASTA_NUM_SPACES,
  PASTA_MIX_LOAD_BYTES = PASTA_MIX_STORES + PASTA_NUM_SPACES,
  PASTA_MIX_STORE_BYTES = PASTA_MIX_LOAD_BYTES + PASTA_NUM_SPACES,
  PASTA_MIX_ATOMICS = PASTA_MIX_STORE_BYTES + PASTA_NUM_SPACES,
  PASTA_MIX_ATOMIC_BYTES = PASTA_MIX_ATOMICS + PASTA_NUM_SPACES,
  PASTA_MIX_FLOPS = PASTA_MIX_ATOMIC_BYTES + PASTA_NUM_SPACES,
  PASTA_MIX_SPECIAL = PASTA_MIX_FLOPS + PASTA_NUM_PRECISIONS,
  PASTA_MIX_NUM
};

/* Run-time resolution of generic (flat) accesses: per site, per thread,
 * how many generic loads/stores (and bytes) turned out to be shared or
 * local. The rest of the generic accesses are global. */
enum pasta_dyn_index {
  PASTA_DYN_LD_SHARED = 0,
  PASTA_DYN_LD_SHARED_BYTES,
  PASTA_DYN_LD_LOCAL,
  PASTA_DYN_LD_LOCAL_BYTES,
  PASTA_DYN_ST_SHARED,
  PASTA_DYN_ST_SHARED_BYTES,
  PASTA_DYN_ST_LOCAL,
  PASTA_DYN_ST_LOCAL_BYTES,
  PASTA_DYN_NUM
};

enum pasta_target {
  PASTA_TARGET_HOST = 0,
  PASTA_TARGET_NVPTX = 1,
  PASTA_TARGET_AMDGCN = 2
};

enum pasta_func_kind {
  PASTA_FUNC_KERNEL = 0, /* calls counter counts launches */
  PASTA_FUNC_DEVICE = 1, /* calls counter counts thread-level calls */
  PASTA_FUNC_HOST = 2    /* calls counter counts calls */
};

/* One instrumented function. */
#define PASTA_FUNC_FIELDS(X)                                                   \
  X(U32, name)          /* string offset: the mangled name */                  \
  X(U32, kind)          /* enum pasta_func_kind */                             \
  X(U32, file)          /* string offset, or PASTA_NONE without debug info */  \
  X(U32, line)          /* line of the definition, 0 if unknown */             \
  X(U32, calls_counter) /* counter index */                                    \
  X(U32, owner)         /* for device functions: index of the only kernel      \
                           that reaches it, or PASTA_NONE if shared */         \
  X(U32, display)       /* string offset: the name demangled by LLVM's         \
                           demangler when the plugin recorded it, or           \
                           PASTA_NONE (a C name, or not a mangling); never     \
                           0 (the symbol comes first), so 0 reads as none */

struct pasta_func {
  PASTA_FUNC_FIELDS(PASTA_ABI_MEMBER)
};

/* One site: the selected instructions of one basic block that come from one
 * source line. All sites of a block share its execution counter. A memcpy,
 * memmove or memset whose length is known only at run time gets a site of
 * its own (same block and line) with a bytes counter, which adds up the
 * lengths it moved: its mix's load and store counts are per execution, its
 * byte entries per byte of bytes_counter (1 in the source's and the
 * destination's space). Inline PTX whose FLOPs run only where a shuffle's
 * source lane was in range (`@p add.f32` after `shfl.sync ... r|p`, CUB's
 * warp reductions) gets such a site too: bytes_counter counts those lanes,
 * its FLOP entries are per unit of it and its other entries are 0. Where
 * the compiler knows how many lanes that is in a warp (a constant full
 * member mask, whose statement all 32 lanes execute together, and constant
 * lane and clamp operands), bytes_counter is PASTA_WARP_TOTAL instead: no
 * counter, the FLOP entries are one warp's total, per 32 executions of the
 * block (whole warps, so the host's executions / 32 is exact). */
#define PASTA_SITE_FIELDS(X)                                                   \
  X(U32, func)          /* index into the function table */                    \
  X(U32, file)          /* string offset, or PASTA_NONE */                     \
  X(U32, line)          /* 0 when no line could be inferred */                 \
  X(U32, counter)       /* the block's execution counter */                    \
  X(U32, dyn_counter)   /* first of PASTA_DYN_NUM counters, or PASTA_NONE */   \
  X(U32, bytes_counter) /* bytes moved (see above), PASTA_WARP_TOTAL or        \
                           PASTA_NONE */                                       \
  X(MIX, mix)

struct pasta_site {
  PASTA_SITE_FIELDS(PASTA_ABI_MEMBER)
};

/* A counter the device does not count (or not wholly): the host derives it
 * at read-back, as counters[counter] += coeff * counters[source], one row
 * after the other in table order (a source is counted, or derived by rows
 * before). Device functions count CFG edges off a spanning tree (Knuth's
 * placement) and derive their block counters by flow conservation: fewer
 * counters live in registers and flushed. Divergence copies derive their
 * lines' figures from per-block counters (passes/DivergencePlan.cpp). */
#define PASTA_DERIVED_FIELDS(X)                                                \
  X(U32, counter) /* the derived counter */                                    \
  X(U32, source)  /* a counted counter */                                      \
  X(I32, coeff)

struct pasta_derived {
  PASTA_DERIVED_FIELDS(PASTA_ABI_MEMBER)
};

/* Control-flow scopes (C.A.T.S.): functions, loops, structured conditionals
 * (a branch and everything up to its immediate post-dominator) and parallel
 * regions (a kernel is one). One row per static scope. */
enum pasta_scope_kind {
  PASTA_SCOPE_FUNC = 0,
  PASTA_SCOPE_LOOP = 1,
  PASTA_SCOPE_CONDITIONAL = 2,
  PASTA_SCOPE_PARALLEL = 3
};

#define PASTA_SCOPE_FIELDS(X)                                                  \
  X(U32, id)     /* stable: a hash of the function name, kind and position */  \
  X(U32, kind)   /* enum pasta_scope_kind */                                   \
  X(U32, parent) /* index of the enclosing scope in this table, or             \
                    PASTA_NONE for a function's (kernel's) own scope */        \
  X(U32, func)   /* string offset: the function's mangled name */              \
  X(U32, file)   /* string offset, or PASTA_NONE */                            \
  X(U32, line)   /* where the scope starts, 0 if unknown */                    \
  X(U32, col)                                                                  \
  X(U32, loop_depth) /* loops enclosing it, itself included */

struct pasta_scope {
  PASTA_SCOPE_FIELDS(PASTA_ABI_MEMBER)
};

/* How a memory access's address moves, from the compiler's scalar evolution
 * of its offset (C.A.T.S. access view). */
enum pasta_access_class {
  PASTA_ACCESS_UNKNOWN = 0,  /* the compiler could not tell */
  PASTA_ACCESS_CONSTANT = 1, /* the same address every time */
  PASTA_ACCESS_STRIDE1 = 2,  /* consecutive elements along the innermost
                                loop (or, in a kernel, the thread index) */
  PASTA_ACCESS_STRIDEK = 3,  /* k elements apart (stride says k) */
  PASTA_ACCESS_INDIRECT = 4  /* the address depends on loaded data */
};

/* One memory instruction of a device module (global or generic memory). */
#define PASTA_ACCESS_FIELDS(X)                                                 \
  X(U32, site)   /* row in the site table: its counter counts executions */    \
  X(U32, scope)  /* innermost scope, index in the scope table */               \
  X(U32, klass)  /* enum pasta_access_class */                                 \
  X(I32, stride) /* in elements, for STRIDE1 / STRIDEK; 0 otherwise */         \
  X(U32, param)  /* kernel parameter the address derives from, or              \
                    PASTA_NONE */                                              \
  X(U32, bytes)  /* bytes per execution */                                     \
  X(U32, mode)   /* 'r', 'w' (atomics count as writes) */                      \
  X(U32, offset) /* string offset: the symbolic offset, or PASTA_NONE */       \
  X(U32, line)                                                                 \
  X(U32, col)

struct pasta_access {
  PASTA_ACCESS_FIELDS(PASTA_ABI_MEMBER)
};

/* Divergence mode. For every instrumented kernel K built with
 * PASTA_DIVERGENCE=1 the pass also emits K PASTA_DIV_SUFFIX: the counting
 * code plus warp-level measurements of each memory access, conditional
 * branch and counted block, kept per thread in registers (only the first
 * active lane of a warp adds) and flushed at exit like the block counters.
 * One row per (function, source line) that has any; each row owns
 * PASTA_DIV_NUM consecutive module counters from `counter` on, indexed by
 * enum pasta_div_index. The counting copy never touches them. */
#define PASTA_DIV_SUFFIX "__pasta_div"
/* On NVIDIA the divergence copy has a register cap (more warps resident);
 * K PASTA_DIV_UNCAPPED_SUFFIX is the same code without it, which the
 * runtime launches instead when the grid fits in one wave of it (the cap
 * would only add spills). Emitted unless PASTA_DIV_MAXNREG=0. */
#define PASTA_DIV_UNCAPPED_SUFFIX "__pasta_divu"
/* Where K PASTA_DIV_SUFFIX (and its uncapped twin) is a body for warps of
 * one 32-lane row alone (NVIDIA, blocks with blockDim.x a multiple of 32 or
 * blockDim.y = blockDim.z = 1), K PASTA_DIV_GENERAL_SUFFIX is the copy for
 * every block shape, which the runtime launches for the other blocks; else
 * it is a stub of one-thread blocks (.maxntid 1) that the runtime never
 * launches. Emitted unless PASTA_DIV_MAXNREG=0. */
#define PASTA_DIV_GENERAL_SUFFIX "__pasta_divg"
/* K PASTA_DIV_ONE_LANE_SUFFIX is K PASTA_DIV_SUFFIX specialised to blocks
 * of one thread (warps of one active lane, lane 0: the same figures for
 * such a launch, without the warp-level code), which the runtime launches
 * for blocks of 1 x 1 x 1 threads; for a kernel that reads a thread index
 * (and is not guarded to one thread), or whose copy is too costly to
 * compile twice, a stub of one-thread blocks (.maxntid 1) that the runtime
 * never launches (passes/DivergenceOneLane.h). Emitted unless
 * PASTA_DIV_MAXNREG=0. */
#define PASTA_DIV_ONE_LANE_SUFFIX "__pasta_div1"

/* On NVIDIA, K PASTA_CAPPED_SUFFIX is K's counting code capped at
 * PASTA_CAPPED_REGISTERS registers per thread, so that a block of 1,024
 * threads fits an SM's 65,536 registers: the runtime launches it instead
 * of K when K's counting code needs too many registers for the launch's
 * block (docs/design.md, "The register-capped counting copy"). A kernel
 * whose own launch bounds or register cap already fit its blocks gets a
 * stub there, a kernel whose largest block is one thread (.maxntid 1),
 * which the runtime never launches. */
#define PASTA_CAPPED_SUFFIX "__pasta_capped"
#define PASTA_CAPPED_REGISTERS 64

#define PASTA_DIV_COUNTS(X)                                                    \
  X(REQUESTS_GLOBAL, "requests_global") /* warp-level global accesses */       \
  X(REQUESTS_SHARED, "requests_shared") /* warp-level shared accesses */       \
  X(BYTES, "requested_bytes") /* bytes requested by the active lanes */        \
  X(DISTINCT_GLOBAL, "distinct_bytes_global") /* union over lanes */           \
  X(DISTINCT_SHARED, "distinct_bytes_shared")                                  \
  X(SECTORS, "sectors") /* distinct 32-byte sectors, global ld/st */           \
  X(IDEAL_SECTORS, "ideal_sectors")    /* ceil(distinct bytes / 32) */         \
  X(BANK_CONFLICTS, "bank_conflicts")  /* shared: wavefronts - ideal */        \
  X(BRANCHES, "branches")              /* warp-level conditional branches */   \
  X(DIVERGENT, "divergent_branches")   /* lanes went both ways */              \
  X(WARP_EXECS, "warp_executions")     /* warp-level counted blocks */         \
  X(THREAD_EXECS, "thread_executions") /* their active lanes */

enum pasta_div_index {
#define PASTA_X(id, name) PASTA_DIV_##id,
  PASTA_DIV_COUNTS(PASTA_X)
#undef PASTA_X
      PASTA_DIV_NUM
};

/* The address space of an access as the pass passes it to
 * __pasta_div_access (LLVM's numbers on both GPU targets); generic pointers
 * are resolved per lane at run time. */
enum pasta_div_space {
  PASTA_DIV_GENERIC = 0,
  PASTA_DIV_GLOBAL = 1,
  PASTA_DIV_SHARED = 3
};

/* Or-ed into the space __pasta_div_access is given when the IR states an
 * alignment of at least the access's size, a power of 2 up to 32: every
 * lane's address is a multiple of it, and the runtime does not test it. */
#define PASTA_DIV_ALIGNED 16u

#define PASTA_DIV_ROW_FIELDS(X)                                                \
  X(U32, func) /* index into the function table */                             \
  X(U32, file) /* string offset, or PASTA_NONE */                              \
  X(U32, line)                                                                 \
  X(U32, counter)  /* first of PASTA_DIV_NUM counters */                       \
  X(U32, proven)   /* bit i: figure i of some site derived from a proof */     \
  X(U32, measured) /* bit i: figure i of some site measured */

struct pasta_div_row {
  PASTA_DIV_ROW_FIELDS(PASTA_ABI_MEMBER)
};

/* The root of a module's data. Pointers are addresses in the memory the
 * module runs in (device addresses for device modules). */
#define PASTA_MODULE_DESC_FIELDS(X)                                            \
  X(U32, magic)                                                                \
  X(U32, version)                                                              \
  X(U32, target)    /* enum pasta_target */                                    \
  X(U32, num_banks) /* 1 for host modules */                                   \
  X(U32, num_funcs)                                                            \
  X(U32, num_sites)                                                            \
  X(U32, num_counters) /* per bank */                                          \
  X(U32, strings_size)                                                         \
  X(ADDR, funcs)      /* struct pasta_func[num_funcs] */                       \
  X(ADDR, sites)      /* struct pasta_site[num_sites] */                       \
  X(ADDR, strings)    /* char[strings_size], NUL-separated */                  \
  X(ADDR, counters)   /* uint64_t[num_banks][num_counters] */                  \
  X(U64, module_name) /* string offset of the source file name */              \
  X(U32, num_scopes)                                                           \
  X(U32, num_accesses)                                                         \
  X(ADDR, scopes)   /* struct pasta_scope[num_scopes] */                       \
  X(ADDR, accesses) /* struct pasta_access[num_accesses] */                    \
  X(U32, num_derived)                                                          \
  X(U32, uncounted)    /* string offset: what the counts miss, the plugin's    \
                          not-counted warnings one a line (a build's -w hides  \
                          them); 0: nothing */                                 \
  X(ADDR, derived)     /* struct pasta_derived[num_derived] */                 \
  X(U32, num_div_rows) /* 0 unless built with PASTA_DIVERGENCE=1 */            \
  X(U32, div_pad)                                                              \
  X(ADDR, div_rows) /* struct pasta_div_row[num_div_rows] */

struct pasta_module_desc {
  PASTA_MODULE_DESC_FIELDS(PASTA_ABI_MEMBER)
};

/* The vendor runtime calls the host runtime needs, handed over by the code
 * the pass adds to the program's host module (so libpasta_rt itself never
 * links against a vendor runtime): to read a device module, to time
 * launches with events, and to manage the working-set buffers. The
 * pointers have the CUDA runtime's signatures with enums as int and handles
 * (streams, events) as void *; HIP's match. The intercepted calls of the
 * program itself are not here: each wrapper is handed the function the
 * program called.
 *
 * X(RET, name, (PARAMS), cuda, hip): a field, a pointer to a function
 * returning RET and taking PARAMS, and the function of each vendor that
 * the pass puts there. */
#define PASTA_VENDOR_OPS_FUNCTIONS(X)                                          \
  X(int, memcpy_from_symbol,                                                   \
    (void *dst, const void *symbol, uint64_t count, uint64_t offset,           \
     int kind),                                                                \
    cudaMemcpyFromSymbol, hipMemcpyFromSymbol)                                 \
  X(int, memcpy, (void *dst, const void *src, uint64_t count, int kind),       \
    cudaMemcpy, hipMemcpy)                                                     \
  X(const char *, get_error_string, (int error), cudaGetErrorString,           \
    hipGetErrorString)                                                         \
  X(int, device_synchronize, (void), cudaDeviceSynchronize,                    \
    hipDeviceSynchronize)                                                      \
  /* Each GPU holds its own copy of a module's counters: the runtime reads     \
   * them all. */                                                              \
  X(int, get_device_count, (int *count), cudaGetDeviceCount,                   \
    hipGetDeviceCount)                                                         \
  X(int, get_device, (int *device), cudaGetDevice, hipGetDevice)               \
  X(int, set_device, (int device), cudaSetDevice, hipSetDevice)                \
  /* Launch timing and working-set buffers. */                                 \
  X(int, malloc, (void **ptr, uint64_t size), cudaMalloc, hipMalloc)           \
  X(int, free, (void *ptr), cudaFree, hipFree)                                 \
  X(int, memset, (void *ptr, int value, uint64_t count), cudaMemset,           \
    hipMemset)                                                                 \
  X(int, stream_synchronize, (void *stream), cudaStreamSynchronize,            \
    hipStreamSynchronize)                                                      \
  X(int, get_last_error, (void), cudaGetLastError, hipGetLastError)            \
  /* The program's pending error, read without clearing it: PASTA reads its    \
   * own refusals back (get_last_error) only when none was pending, for the    \
   * vendor keeps one last error per thread (host_rt/state.c). */              \
  X(int, peek_at_last_error, (void), cudaPeekAtLastError, hipPeekAtLastError)  \
  X(int, event_create, (void **event), cudaEventCreate, hipEventCreate)        \
  X(int, event_record, (void *event, void *stream), cudaEventRecord,           \
    hipEventRecord)                                                            \
  X(int, event_synchronize, (void *event), cudaEventSynchronize,               \
    hipEventSynchronize)                                                       \
  X(int, event_elapsed_time, (float *ms, void *start, void *end),              \
    cudaEventElapsedTime, hipEventElapsedTime)                                 \
  X(int, event_destroy, (void *event), cudaEventDestroy, hipEventDestroy)      \
  X(int, stream_is_capturing, (void *stream, int *status),                     \
    cudaStreamIsCapturing, hipStreamIsCapturing)                               \
  /* Working-set read-back: one copy and one clear per launch, ordered on      \
   * the launch's stream, into pinned host memory. */                          \
  X(int, memcpy_async,                                                         \
    (void *dst, const void *src, uint64_t count, int kind, void *stream),      \
    cudaMemcpyAsync, hipMemcpyAsync)                                           \
  X(int, memset_async, (void *ptr, int value, uint64_t count, void *stream),   \
    cudaMemsetAsync, hipMemsetAsync)                                           \
  X(int, host_alloc, (void **ptr, uint64_t size, unsigned flags),              \
    cudaHostAlloc, hipHostMalloc)                                              \
  X(int, free_host, (void *ptr), cudaFreeHost, hipHostFree)                    \
  /* Device peaks for the bandwidth analyzer; attribute numbers differ per     \
   * vendor (`vendor` says whose). */                                          \
  X(int, device_get_attribute, (int *value, int attribute, int device),        \
    cudaDeviceGetAttribute, hipDeviceGetAttribute)                             \
  /* Graphs: the kernel nodes of a graph, read when it is instantiated, so     \
   * that each graph launch is recorded as the launches of its kernels.        \
   * Node type numbers and the kernel-node parameters' layout are the          \
   * vendor's (`vendor` says whose). */                                        \
  X(int, graph_get_nodes, (void *graph, void **nodes, uint64_t *count),        \
    cudaGraphGetNodes, hipGraphGetNodes)                                       \
  X(int, graph_node_get_type, (void *node, int *type), cudaGraphNodeGetType,   \
    hipGraphNodeGetType)                                                       \
  X(int, graph_kernel_node_get_params, (void *node, void *params),             \
    cudaGraphKernelNodeGetParams, hipGraphKernelNodeGetParams)                 \
  X(int, graph_child_graph_node_get_graph, (void *node, void **graph),         \
    cudaGraphChildGraphNodeGetGraph, hipGraphChildGraphNodeGetGraph)           \
  /* Trace and working-set modes: a launch's results are copied back on a      \
   * stream of the runtime's own (PASTA_STREAM_NON_BLOCKING), which waits for  \
   * an event recorded behind the launch (PASTA_EVENT_DISABLE_TIMING). */      \
  X(int, stream_create_with_flags, (void **stream, unsigned flags),            \
    cudaStreamCreateWithFlags, hipStreamCreateWithFlags)                       \
  X(int, stream_destroy, (void *stream), cudaStreamDestroy, hipStreamDestroy)  \
  X(int, stream_wait_event, (void *stream, void *event, unsigned flags),       \
    cudaStreamWaitEvent, hipStreamWaitEvent)                                   \
  X(int, event_create_with_flags, (void **event, unsigned flags),              \
    cudaEventCreateWithFlags, hipEventCreateWithFlags)                         \
  /* Divergence mode: how many blocks of a copy fit on one SM at once. */      \
  X(int, occupancy_max_active_blocks,                                          \
    (int *blocks, const void *func, int block_size, uint64_t dynamic_smem),    \
    cudaOccupancyMaxActiveBlocksPerMultiprocessor,                             \
    hipOccupancyMaxActiveBlocksPerMultiprocessor)                              \
  /* Registers, local and shared memory of a kernel's counting and plain       \
   * copies, read at its first launch: `attributes` is the vendor's struct     \
   * (cudaFuncAttributes, hipFuncAttributes; host_rt/resources.c reads it). */ \
  X(int, func_get_attributes, (void *attributes, const void *func),            \
    cudaFuncGetAttributes, hipFuncGetAttributes)

#define PASTA_VENDOR_OPS_MEMBER(ret, name, params, cuda, hip) ret(*name) params;

struct pasta_vendor_ops {
  PASTA_VENDOR_OPS_FUNCTIONS(PASTA_VENDOR_OPS_MEMBER)
  uint64_t vendor; /* enum pasta_vendor */
  const void *abi; /* &PASTA_ABI_SYMBOL_ID: see PASTA_ABI_SYMBOL */
};
enum pasta_vendor { PASTA_VENDOR_CUDA = 1, PASTA_VENDOR_HIP = 2 };
/* The error both vendors return once their runtime has shut down
 * (cudaErrorCudartUnloading, hipErrorDeinitialized). */
#define PASTA_VENDOR_ERROR_DEINITIALIZED 4
#define PASTA_MEMCPY_DEVICE_TO_DEVICE 3
/* cudaStreamNonBlocking / hipStreamNonBlocking; cudaEventDisableTiming /
 * hipEventDisableTiming. */
#define PASTA_STREAM_NON_BLOCKING 1u
#define PASTA_EVENT_DISABLE_TIMING 2u
#define PASTA_MAX_DEVICES 64
#define PASTA_MEMCPY_HOST_TO_DEVICE 1
#define PASTA_MEMCPY_DEVICE_TO_HOST 2

/* Symbol names. The host pass registers a device module's descriptor with
 * the CUDA runtime under PASTA_DESC_PREFIX + <module id>, so both halves of
 * a translation unit must derive the same id from the source file name. */
#define PASTA_DESC_PREFIX "__pasta_desc_"

/* Kernel variants. For every instrumented kernel K the pass also emits
 * K PASTA_PLAIN_SUFFIX, the original code (launched outside the launch
 * window), and K PASTA_WS_SUFFIX, the counting code plus working-set
 * tracking, which takes two more parameters: a device pointer to a
 * struct pasta_ws_launch, then the same struct by value (NVPTX: byval, an
 * array of sizeof(struct pasta_ws_launch) bytes, 8-aligned; AMDGPU: byref
 * in the kernel arguments). The copy reads what its accesses need at every
 * batch (args[], page_shift, the banks) from the by-value one, a kernel
 * parameter (the constant cache, no global load); the runtime's out-of-line
 * paths read the pointer's. A kernel whose parameters leave no room for it
 * (4,096 bytes in all) takes the pointer alone; the host passes both
 * anyway (a launch reads only the parameters the kernel has). The host pass
 * registers both with the vendor runtime next to K. */
#define PASTA_PLAIN_SUFFIX "__pasta_plain"
#define PASTA_WS_SUFFIX "__pasta_ws"
/* On NVIDIA, K PASTA_WS_CAPPED_SUFFIX is K PASTA_WS_SUFFIX capped at
 * PASTA_CAPPED_REGISTERS registers per thread, which the runtime launches
 * where the working-set copy's own registers do not fit the launch's block.
 * The pass builds it only for kernels without launch bounds whose plain
 * code holds many values live at once (passes/CappedCopies.h); the other
 * kernels get a stub there (.maxntid 1), as PASTA_CAPPED_SUFFIX does. */
#define PASTA_WS_CAPPED_SUFFIX "__pasta_wscap"

/* Working-set mode: one allocation of the program, as the device sees it. */
#define PASTA_WS_ALLOC_FIELDS(X)                                               \
  X(U64, base)                                                                 \
  X(U64, size)                                                                 \
  X(U32, first_page)  /* index of its first page in the page flags */          \
  X(U32, first_block) /* index of its first hotness block */

struct pasta_ws_alloc {
  PASTA_WS_ALLOC_FIELDS(PASTA_ABI_MEMBER)
};

/* What a working-set launch writes to: page flags (1 = touched), accesses
 * per hotness block (when `blocks` is not 0; PASTA_WS_HOT_BANKS counters per
 * block, picked by thread block, summed by the host: warps streaming through
 * one block would otherwise serialise on one address), and the accesses that
 * fell outside every allocation (outside[0]) with the first such site + 1
 * (outside[1]). Device addresses, 8-byte aligned. */
#define PASTA_WS_HOT_BANKS 32u
/* Page flags are kept up to PASTA_WS_PAGE_BANKS times,
 * pages[bank][num_pages], the bank picked by thread block (fewer banks when
 * there are many pages, so that the read-back stays small): the first warps of
 * a wave all find a page's flag at 0 and store 1, and same-address stores are
 * serialised in L2 (6 million of them made vector_add 14x slower). The host ORs
 * the banks. The default; PASTA_WS_PAGE_BANKS asks for 1 to 64 (64 made the
 * bundled programs 5% faster than 16: docs/performance.md). */
#define PASTA_WS_PAGE_BANKS 64u
/* Flag i is stored at byte pasta_ws_flag_swizzle(i): i with bits 7-8 (its
 * 128-byte line within a group of PASTA_WS_FLAG_GROUP, 512 flags) xored with
 * its bits 0-1 (the host aligns each bank's flags to a group and pads
 * num_pages to whole groups; the function is its own inverse). Neighbouring
 * pages, which the warps of a wave touch together, then have their flags in
 * 4 lines instead of one: stores to one hot line (every warp of a wave finds
 * its page's flag at 0 before another's store lands) made a streaming kernel
 * 3.7x slower, 1.9x over 4 lines. More lines spread a wave further (1.75x
 * over 16) but cost more where one warp's lanes touch neighbouring pages
 * (rows of a matrix: 1.08x packed, 1.16x over 4 lines, 1.28x over 16). An
 * xor of the low word: a few instructions per access in the copies' loops
 * (a transposition of the group's bits took a dozen, which kmeans' loop
 * paid). The host undoes it when it reads the flags back. */
#define PASTA_WS_FLAG_GROUP 512u
static inline uint64_t pasta_ws_flag_swizzle(uint64_t i) {
  return i ^ (uint64_t)(((uint32_t)i & 3u) << 7);
}
#define PASTA_WS_BLOCK_SHIFT 21u /* hotness blocks of 2 MiB */
/* Tables of up to this many allocations are scanned, not searched: the host
 * pads them to this length with entries {UINT64_MAX, 0, 0, 0}. */
#define PASTA_WS_LINEAR_MAX 8u
/* A pointer argument of the launch that points into a known allocation,
 * found by the host: accesses the pass can trace back to that argument
 * check this range and go straight to the flags (device address of the
 * allocation's first page flag). Zeros when not a known allocation. */
#define PASTA_WS_ARG_FIELDS(X) X(U64, base) X(U64, end) X(U64, flags)

struct pasta_ws_arg {
  PASTA_WS_ARG_FIELDS(PASTA_ABI_MEMBER)
};
/* Slots 0 to PASTA_WS_MAX_ARGS - 1: the kernel's pointer parameters, by
 * index. Slots PASTA_WS_MAX_ARGS + j: the j-th pointer field of the
 * kernel's by-value aggregate parameters (a lambda's or a functor's
 * captured pointers), counted in parameter order and, within one, in
 * offset order through nested structs and arrays; the host learns the
 * (parameter, offset) of each from __pasta_register_kernel_fields, the pass
 * numbers them the same way from the parameter's type. A slot that names
 * another pointer than the access's only fails the range check. */
#define PASTA_WS_MAX_ARGS 32u
/* In a buffered compact copy's call table (__pasta_ws_mark_buffer): the
 * slot's word is in the buffer. No word is this (its bits 33-39 are 0). */
#define PASTA_WS_WORD_IN_BUFFER UINT64_MAX
#define PASTA_WS_MAX_FIELDS 16u
#define PASTA_WS_ARG_SLOTS (PASTA_WS_MAX_ARGS + PASTA_WS_MAX_FIELDS)

#define PASTA_WS_LAUNCH_FIELDS(X)                                              \
  X(ADDR, allocs)  /* struct pasta_ws_alloc[num_allocs], sorted by base */     \
  X(ADDR, pages)   /* uint8_t[] */                                             \
  X(ADDR, blocks)  /* uint64_t[], or 0 */                                      \
  X(ADDR, outside) /* uint64_t[2] */                                           \
  X(U32, num_allocs)                                                           \
  X(U32, page_shift)  /* log2 of the page size */                              \
  X(U32, block_shift) /* PASTA_WS_BLOCK_SHIFT */                               \
  X(U32, num_pages)   /* flags per bank (see PASTA_WS_PAGE_BANKS) */           \
  X(U32, page_banks)  /* banks in use: a power of two up to the maximum */     \
  X(U32, reserved)                                                             \
  X(WS_ARGS, args) /* by kernel parameter, then pointer field */

struct pasta_ws_launch {
  PASTA_WS_LAUNCH_FIELDS(PASTA_ABI_MEMBER)
};

/* Trace mode. For every instrumented kernel K built with PASTA_TRACE=1 the
 * pass also emits K PASTA_TRACE_SUFFIX: the counting code plus scope entry
 * and exit events, taking one more parameter, a device pointer to a struct
 * pasta_trace_launch. One lane per sampled warp appends records; a warp
 * records each (scope, entry/exit) once per launch (C.A.T.S.
 * de-duplication: inside a kernel a scope's control-flow stack is fixed). */
#define PASTA_TRACE_SUFFIX "__pasta_trace"
#define PASTA_TRACE_EXIT 0x80000000u /* in pasta_trace_record.scope */

#define PASTA_TRACE_RECORD_FIELDS(X)                                           \
  X(U32, scope) /* module scope index, | PASTA_TRACE_EXIT for an exit */       \
  X(U32, warp)  /* linear warp id in the grid */                               \
  X(U32, trips) /* loop exits: iterations the recording lane made */           \
  X(U32, reserved)                                                             \
  X(U64, time) /* device clock, ns (%globaltimer; AMD: s_memrealtime) */

struct pasta_trace_record {
  PASTA_TRACE_RECORD_FIELDS(PASTA_ABI_MEMBER)
};

#define PASTA_TRACE_LAUNCH_FIELDS(X)                                           \
  X(ADDR, records) /* struct pasta_trace_record[capacity] */                   \
  X(U64, head)     /* records claimed so far (may pass capacity: the           \
                      excess was dropped and is reported) */                   \
  X(U32, capacity)                                                             \
  X(U32, warp_stride) /* warps with linear id % warp_stride == 0 record */

struct pasta_trace_launch {
  PASTA_TRACE_LAUNCH_FIELDS(PASTA_ABI_MEMBER)
};

#endif /* PASTA_ABI_H */
