/*===- graphs.c - Kernel graphs --------------------------------------------===*
 *
 * A graph's kernels are launched by the vendor when the graph is, with no
 * call PASTA sees per kernel. So the kernel nodes of each graph are read
 * when it is instantiated (or its instance updated), and each launch of
 * the instance is recorded as one launch of each of its kernel nodes:
 * count, shape and the call path of the graph launch. Launches captured
 * from a stream are not recorded when captured (they do not run then).
 * Graph launches are not timed: the vendor gives no event per node.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/diag.h"
#include "profile/vec.h"
#include "trace.h"
#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kernel-node parameters as each vendor lays them out
 * (cudaKernelNodeParams, hipKernelNodeParams). */
struct cuda_kernel_node {
  void *func;
  uint32_t grid[3], block[3];
  uint32_t shmem;
  void **params, **extra;
};

struct hip_kernel_node {
  uint32_t block[3];
  void **extra;
  void *func;
  uint32_t grid[3];
  void **params;
  uint32_t shmem;
};

/* cudaGraphNodeType and hipGraphNodeType differ. */
enum {
  CUDA_NODE_KERNEL = 0,
  CUDA_NODE_GRAPH = 4,
  HIP_NODE_KERNEL = 1,
  HIP_NODE_GRAPH = 5,
  GRAPH_NESTING = 8 /* child graphs followed this deep */
};

struct raw_node {
  const void *func;
  uint32_t grid[3], block[3];
  uint64_t shmem;
};

static int read_kernel_node(ops_t *ops, void *node, struct raw_node *out) {
  union {
    struct cuda_kernel_node cuda;
    struct hip_kernel_node hip;
    unsigned char room[256]; /* a vendor's larger version of the struct */
  } p;
  memset(&p, 0, sizeof p);
  if (ops->graph_kernel_node_get_params(node, &p)) {
    ops->get_last_error();
    return -1;
  }
  int hip = ops->vendor == PASTA_VENDOR_HIP;
  out->func = hip ? p.hip.func : p.cuda.func;
  memcpy(out->grid, hip ? p.hip.grid : p.cuda.grid, sizeof out->grid);
  memcpy(out->block, hip ? p.hip.block : p.cuda.block, sizeof out->block);
  out->shmem = hip ? p.hip.shmem : p.cuda.shmem;
  return 0;
}

struct raw_nodes {
  struct raw_node *at;
  size_t num, cap;
  int failed; /* a node or graph could not be read */
};

/* Appends the kernel nodes of `graph` and of the graphs nested in it. */
static void collect_nodes(ops_t *ops, void *graph, unsigned depth,
                          struct raw_nodes *out) {
  uint64_t n = 0;
  if (depth > GRAPH_NESTING || ops->graph_get_nodes(graph, NULL, &n)) {
    ops->get_last_error();
    out->failed = 1;
    return;
  }
  void **nodes = malloc((n ? n : 1) * sizeof *nodes);
  if (!nodes || (n && ops->graph_get_nodes(graph, nodes, &n))) {
    ops->get_last_error();
    out->failed = 1;
    free(nodes);
    return;
  }
  int hip = ops->vendor == PASTA_VENDOR_HIP;
  int kernel_type = hip ? HIP_NODE_KERNEL : CUDA_NODE_KERNEL;
  int graph_type = hip ? HIP_NODE_GRAPH : CUDA_NODE_GRAPH;
  for (uint64_t i = 0; i < n; ++i) {
    int type = -1;
    void *child = NULL;
    struct raw_node r;
    if (ops->graph_node_get_type(nodes[i], &type)) {
      ops->get_last_error();
      out->failed = 1;
    } else if (type == kernel_type) {
      if (read_kernel_node(ops, nodes[i], &r) ||
          GROW(out->at, out->cap, out->num))
        out->failed = 1;
      else
        out->at[out->num++] = r;
    } else if (type == graph_type) {
      if (ops->graph_child_graph_node_get_graph &&
          ops->graph_child_graph_node_get_graph(nodes[i], &child) == 0)
        collect_nodes(ops, child, depth + 1, out);
      else {
        ops->get_last_error();
        out->failed = 1;
      }
    }
  }
  free(nodes);
}

/* The kernel a node's function is: a registered kernel, one of its copies,
 * or a driver handle of one; else an unnamed entry. Lock held. */
static struct kernel *node_kernel(const void *func, int *plain) {
  *plain = 0;
  struct kernel *k = pasta__find_kernel(func);
  for (size_t i = 0; !k && i < pasta__st.num_kernels; ++i) {
    struct kernel *c = &pasta__st.kernels[i];
    if (c->plain == func || c->ws == func || c->trace == func) {
      k = c;
      *plain = c->plain == func;
    }
  }
  if (!k)
    k = pasta__handle_kernel(func);
  if (!k)
    k = pasta__kernel_of(func);
  return k;
}

static struct graph_exec *find_graph(const void *exec) {
  for (size_t i = 0; i < pasta__st.num_graphs; ++i)
    if (pasta__st.graphs[i].exec == exec)
      return &pasta__st.graphs[i];
  return NULL;
}

/* Reads the kernel nodes of `graph`, instantiated as `exec`. */
static void remember_graph(ops_t *ops, const void *exec, void *graph) {
  if (!exec || !graph || !ops->graph_get_nodes || !ops->graph_node_get_type ||
      !ops->graph_kernel_node_get_params)
    return;
  struct raw_nodes raw = {0};
  collect_nodes(ops, graph, 0, &raw);
  pasta__state_lock();
  pasta__note_call(ops);
  struct graph_exec *g = find_graph(exec);
  if (!g &&
      !GROW(pasta__st.graphs, pasta__st.cap_graphs, pasta__st.num_graphs)) {
    g = &pasta__st.graphs[pasta__st.num_graphs++];
    *g = (struct graph_exec){exec, NULL, 0};
  }
  struct graph_node *nodes = malloc((raw.num ? raw.num : 1) * sizeof *nodes);
  if (g && nodes) {
    for (size_t i = 0; i < raw.num; ++i) {
      struct graph_node *n = &nodes[i];
      struct kernel *k = node_kernel(raw.at[i].func, &n->plain);
      if (!k) {
        raw.failed = 1;
        break;
      }
      n->kernel = (uint32_t)(k - pasta__st.kernels);
      pasta__note_counting_only(k, "as a node of a CUDA graph");
      memcpy(n->grid, raw.at[i].grid, sizeof n->grid);
      memcpy(n->block, raw.at[i].block, sizeof n->block);
      n->shmem = raw.at[i].shmem;
      g->num_nodes = i + 1;
    }
    free(g->nodes);
    g->nodes = nodes;
    nodes = NULL;
  }
  int warn = (raw.failed || !g) && !pasta__st.warned_graph;
  pasta__st.warned_graph |= warn;
  pasta__state_unlock();
  free(nodes);
  free(raw.at);
  if (warn)
    PASTA_WARN("cannot read every kernel node of a graph "
               "the program instantiated; the launch table leaves those "
               "nodes out (their device counts are kept)\n");
}

typedef int (*pasta__graph_instantiate_fn)(void **, void *, uint64_t);

/* cudaGraphInstantiate(&exec, graph, flags), ...WithFlags and
 * hipGraphInstantiateWithFlags. */
PASTA_ABI int __pasta_graph_instantiate(void **exec, void *graph,
                                        uint64_t flags,
                                        pasta__graph_instantiate_fn real,
                                        ops_t *ops) {
  int err = real(exec, graph, flags);
  if (!err && exec)
    remember_graph(ops, *exec, graph);
  return err;
}

/* cudaGraphInstantiateWithParams(&exec, graph, params). */
PASTA_ABI int
__pasta_graph_instantiate_params(void **exec, void *graph, void *params,
                                 int (*real)(void **, void *, void *),
                                 ops_t *ops) {
  int err = real(exec, graph, params);
  if (!err && exec)
    remember_graph(ops, *exec, graph);
  return err;
}

/* hipGraphInstantiate(&exec, graph, &error_node, log, log_size). */
PASTA_ABI int __pasta_hip_graph_instantiate(
    void **exec, void *graph, void *error_node, char *log, uint64_t log_size,
    int (*real)(void **, void *, void *, char *, uint64_t), ops_t *ops) {
  int err = real(exec, graph, error_node, log, log_size);
  if (!err && exec)
    remember_graph(ops, *exec, graph);
  return err;
}

/* cudaGraphExecUpdate(exec, graph, &info): the instance now runs graph's
 * kernel nodes. */
PASTA_ABI int __pasta_graph_exec_update(void *exec, void *graph, void *info,
                                        int (*real)(void *, void *, void *),
                                        ops_t *ops) {
  int err = real(exec, graph, info);
  if (!err)
    remember_graph(ops, exec, graph);
  return err;
}

/* hipGraphExecUpdate(exec, graph, &error_node, &result). */
PASTA_ABI int __pasta_hip_graph_exec_update(
    void *exec, void *graph, void *error_node, void *result,
    int (*real)(void *, void *, void *, void *), ops_t *ops) {
  int err = real(exec, graph, error_node, result);
  if (!err)
    remember_graph(ops, exec, graph);
  return err;
}

/* One launch of graph instance `exec`: a launch of each kernel node. */
static void record_graph_launch(ops_t *ops, const void *exec, void *stream,
                                uint32_t path, int err, int device) {
  uint64_t bit = UINT64_C(1) << device;
  pasta__state_lock();
  struct graph_exec *g = find_graph(exec);
  if (!g || !g->num_nodes) {
    /* A launch the vendor refused ran nothing (say, of an instance whose
     * instantiation failed): no kernel was left out. */
    int unknown = !g && !err;
    int warn = unknown && !pasta__st.warned_graph;
    pasta__st.warned_graph |= warn;
    pasta__st.unknown_graph_launches += unknown;
    pasta__state_unlock();
    if (warn)
      PASTA_WARN("the program launched a graph that was "
                 "instantiated in code not compiled with the plugin; "
                 "the launch table leaves its kernels out (their device "
                 "counts are kept)\n");
    return;
  }
  size_t n = g->num_nodes;
  pasta_launch_event *events = malloc(n * sizeof *events);
  const void **modules = malloc(n * sizeof *modules);
  size_t num_modules = 0;
  for (size_t i = 0; i < n; ++i) {
    const struct graph_node *node = &g->nodes[i];
    struct kernel *k = &pasta__st.kernels[node->kernel];
    uint64_t id = pasta__st.next_launch++;
    if (pasta__is_fault(err) && i == 0) {
      struct pending self = {0};
      self.launch = id;
      self.nth = k->stats.launches + 1;
      self.kernel = node->kernel;
      pasta__note_fault(ops, err, &self, 0);
    }
    ++k->stats.launches;
    if (err)
      ++k->stats.failed;
    else if (!node->plain) {
      ++k->stats.counted;
      pasta__count_div_unmeasured(k, DIV_UNMEASURED_div_by_graph,
                                  (uint64_t)node->block[0] * node->block[1] *
                                      node->block[2]);
    }
    ++pasta__st.untimed;
    pasta__count_shape(k, node->grid, node->block, node->shmem);
    pasta__count_path(k, path);
    if (!err && !(k->ran_on & bit)) {
      k->ran_on |= bit;
      if (modules)
        modules[num_modules++] = k->module;
    }
    pasta__st.last_kernel = node->kernel;
    if (events) {
      events[i] = (pasta_launch_event){
          id,        k->mangled,
          k->handle, {0},
          {0},       node->shmem,
          stream,    node->plain ? PASTA_RUN_PLAIN : PASTA_RUN_COUNTING,
          err};
      memcpy(events[i].grid, node->grid, sizeof node->grid);
      memcpy(events[i].block, node->block, sizeof node->block);
    }
  }
  pasta__state_unlock();
  for (size_t i = 0; i < num_modules; ++i)
    pasta__module_launched(modules[i], device);
  for (size_t i = 0; events && i < n; ++i)
    pasta__notify_launch(&events[i]);
  free(modules);
  free(events);
}

/* cudaGraphLaunch(exec, stream) and hipGraphLaunch. */
PASTA_ABI int __pasta_graph_launch(void *exec, void *stream,
                                   int (*real)(void *, void *), ops_t *ops) {
  pasta__need_options();
  uint64_t t0 = pasta__trace_now();
  if (pasta__capture_state(ops, stream) == CAPTURE_INTO_GRAPH)
    return real(exec, stream); /* into another graph: recorded with it */
  /* Skipped by a backtrace: pasta__launch_path and this wrapper. */
  uint32_t path = pasta__launch_path(PASTA__SITE_SLOT, 2);
  int err = real(exec, stream);
  int device = pasta__vendor_device(ops);
  if (!err)
    pasta__after_launch(ops, device);
  else {
    pasta__state_lock();
    pasta__note_call(ops);
    pasta__state_unlock();
  }
  record_graph_launch(ops, exec, stream, path, err, device);
  pasta__trace_api("graph launch", t0, pasta__trace_now(), 0);
  return err;
}
