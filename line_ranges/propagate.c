/*===- propagate.c - Lines for instructions without a debug location ------===*
 *
 * The graph has one node per instruction, plus one "virtual" node per empty
 * block (node N + b), so that empty blocks relay values between their
 * predecessors and successors like an instruction without a line. Two
 * independent monotone data-flow problems are solved with a FIFO worklist:
 * start (min over predecessors, only decreases) and end (max over
 * successors, only increases). Nodes with a line are constants. Beside
 * each value the solver keeps the instruction it came from (a node with a
 * line: itself), so that a caller can give a propagated line the file of
 * the instruction that has it.
 */
#include "line_ranges.h"

#include <stdlib.h>
#include <string.h>

typedef struct graph {
  const pasta_cfg *cfg;
  size_t nb;          /* blocks */
  size_t ni;          /* instructions */
  size_t nn;          /* nodes: ni + nb (virtual ids of non-empty blocks
                         are unused) */
  size_t *blk;        /* block of each instruction */
  size_t *pred_first; /* nb + 1 offsets into preds */
  uint32_t *preds;    /* predecessor blocks */
  size_t *queue;      /* circular, nn slots: a node is queued at most once */
  unsigned char *queued;
  uint32_t *val;
  uint32_t *from; /* per node: the instruction val came from, or
                     PASTA_LINE_NO_SOURCE */
} graph;

static void *alloc_array(size_t count, size_t size) {
  if (count == 0)
    count = 1;
  if (count > SIZE_MAX / size)
    return NULL;
  return malloc(count * size);
}

static bool block_empty(const graph *g, size_t b) {
  return g->cfg->block_first[b] == g->cfg->block_first[b + 1];
}

static size_t first_node(const graph *g, size_t b) {
  return block_empty(g, b) ? g->ni + b : g->cfg->block_first[b];
}

static size_t last_node(const graph *g, size_t b) {
  return block_empty(g, b) ? g->ni + b : (size_t)g->cfg->block_first[b + 1] - 1;
}

static size_t node_block(const graph *g, size_t x) {
  return x < g->ni ? g->blk[x] : x - g->ni;
}

/* Whether x's predecessors are the last nodes of predecessor blocks (rather
 * than the previous instruction). */
static bool starts_block(const graph *g, size_t x) {
  return x >= g->ni || x == g->cfg->block_first[g->blk[x]];
}

/* Whether x's successors are the first nodes of successor blocks. */
static bool ends_block(const graph *g, size_t x) {
  return x >= g->ni || x + 1 == g->cfg->block_first[g->blk[x] + 1];
}

static bool has_line(const graph *g, size_t x) {
  return x < g->ni && g->cfg->lines[x] != 0;
}

/* Worklist of nodes without a line. */
typedef struct worklist {
  graph *g;
  size_t head, count;
} worklist;

static void push(worklist *w, size_t x) {
  graph *g = w->g;
  if (has_line(g, x) || g->queued[x])
    return;
  g->queued[x] = 1;
  g->queue[(w->head + w->count) % g->nn] = x;
  w->count++;
}

static size_t pop(worklist *w) {
  graph *g = w->g;
  size_t x = g->queue[w->head];
  w->head = (w->head + 1) % g->nn;
  w->count--;
  g->queued[x] = 0;
  return x;
}

static void init_values(graph *g, uint32_t unknown) {
  for (size_t x = 0; x < g->nn; x++) {
    g->val[x] = has_line(g, x) ? g->cfg->lines[x] : unknown;
    g->from[x] = has_line(g, x) ? (uint32_t)x : PASTA_LINE_NO_SOURCE;
  }
}

/* start: min over predecessors; a change re-queues successors. */
static void solve_start(graph *g) {
  const pasta_cfg *cfg = g->cfg;
  worklist w = {g, 0, 0};
  init_values(g, PASTA_LINE_UNKNOWN_START);
  for (size_t b = 0; b < g->nb; b++) /* roughly in program order */
    for (size_t x = first_node(g, b);; x++) {
      push(&w, x);
      if (x == last_node(g, b))
        break;
    }
  while (w.count) {
    size_t x = pop(&w);
    size_t b = node_block(g, x);
    uint32_t m = PASTA_LINE_UNKNOWN_START, mfrom = PASTA_LINE_NO_SOURCE;
    if (!starts_block(g, x)) {
      m = g->val[x - 1];
      mfrom = g->from[x - 1];
    } else {
      for (size_t k = g->pred_first[b]; k < g->pred_first[b + 1]; k++) {
        size_t y = last_node(g, g->preds[k]);
        if (g->val[y] < m) {
          m = g->val[y];
          mfrom = g->from[y];
        }
      }
    }
    if (m >= g->val[x])
      continue;
    g->val[x] = m;
    g->from[x] = mfrom;
    if (!ends_block(g, x)) {
      push(&w, x + 1);
    } else {
      for (size_t k = cfg->succ_first[b]; k < cfg->succ_first[b + 1]; k++)
        push(&w, first_node(g, cfg->succs[k]));
    }
  }
}

/* end: max over successors; a change re-queues predecessors. */
static void solve_end(graph *g) {
  const pasta_cfg *cfg = g->cfg;
  worklist w = {g, 0, 0};
  init_values(g, PASTA_LINE_UNKNOWN_END);
  for (size_t b = g->nb; b-- > 0;) /* roughly in reverse program order */
    for (size_t x = last_node(g, b);; x--) {
      push(&w, x);
      if (x == first_node(g, b))
        break;
    }
  while (w.count) {
    size_t x = pop(&w);
    size_t b = node_block(g, x);
    uint32_t m = PASTA_LINE_UNKNOWN_END, mfrom = PASTA_LINE_NO_SOURCE;
    if (!ends_block(g, x)) {
      m = g->val[x + 1];
      mfrom = g->from[x + 1];
    } else {
      for (size_t k = cfg->succ_first[b]; k < cfg->succ_first[b + 1]; k++) {
        size_t y = first_node(g, cfg->succs[k]);
        if (g->val[y] > m) {
          m = g->val[y];
          mfrom = g->from[y];
        }
      }
    }
    if (m <= g->val[x])
      continue;
    g->val[x] = m;
    g->from[x] = mfrom;
    if (!starts_block(g, x)) {
      push(&w, x - 1);
    } else {
      for (size_t k = g->pred_first[b]; k < g->pred_first[b + 1]; k++)
        push(&w, last_node(g, g->preds[k]));
    }
  }
}

static int validate(const pasta_cfg *cfg, const uint32_t *start,
                    const uint32_t *end) {
  size_t nb = cfg->num_blocks;
  if (nb == SIZE_MAX || !cfg->block_first || !cfg->succ_first ||
      cfg->block_first[0] != 0)
    return -1;
  for (size_t b = 0; b < nb; b++)
    if (cfg->block_first[b] > cfg->block_first[b + 1] ||
        cfg->succ_first[b] > cfg->succ_first[b + 1])
      return -1;
  if (cfg->block_first[nb] > 0 && (!cfg->lines || !start || !end))
    return -1;
  if (cfg->succ_first[nb] > cfg->succ_first[0] && !cfg->succs)
    return -1;
  for (size_t k = cfg->succ_first[0]; k < cfg->succ_first[nb]; k++)
    if (cfg->succs[k] >= nb)
      return -1;
  return 0;
}

int pasta_propagate_lines(const pasta_cfg *cfg, uint32_t *start,
                          uint32_t *end) {
  return pasta_propagate_lines_from(cfg, start, end, NULL, NULL);
}

int pasta_propagate_lines_from(const pasta_cfg *cfg, uint32_t *start,
                               uint32_t *end, uint32_t *start_from,
                               uint32_t *end_from) {
  if (!cfg)
    return -1;
  if (cfg->num_blocks == 0)
    return cfg->block_first && cfg->block_first[0] != 0 ? -1 : 0;
  if (validate(cfg, start, end) != 0)
    return -1;

  graph g;
  memset(&g, 0, sizeof(g));
  g.cfg = cfg;
  g.nb = cfg->num_blocks;
  g.ni = cfg->block_first[g.nb];
  if (g.ni > SIZE_MAX - g.nb || g.ni + g.nb >= PASTA_LINE_NO_SOURCE)
    return -1;
  g.nn = g.ni + g.nb;
  size_t ne = (size_t)cfg->succ_first[g.nb] - cfg->succ_first[0];

  int rc = -1;
  g.blk = alloc_array(g.ni, sizeof(*g.blk));
  g.pred_first = alloc_array(g.nb + 1, sizeof(*g.pred_first));
  g.preds = alloc_array(ne, sizeof(*g.preds));
  g.queue = alloc_array(g.nn, sizeof(*g.queue));
  g.queued = calloc(g.nn, 1);
  g.val = alloc_array(g.nn, sizeof(*g.val));
  g.from = alloc_array(g.nn, sizeof(*g.from));
  uint32_t *vstart = alloc_array(g.nn, sizeof(*vstart));
  uint32_t *fstart = alloc_array(g.nn, sizeof(*fstart));
  if (!g.blk || !g.pred_first || !g.preds || !g.queue || !g.queued || !g.val ||
      !g.from || !vstart || !fstart)
    goto out;

  for (size_t b = 0; b < g.nb; b++)
    for (size_t i = cfg->block_first[b]; i < cfg->block_first[b + 1]; i++)
      g.blk[i] = b;

  /* Predecessor lists: count, prefix sums, then fill. */
  memset(g.pred_first, 0, (g.nb + 1) * sizeof(*g.pred_first));
  for (size_t k = cfg->succ_first[0]; k < cfg->succ_first[g.nb]; k++)
    g.pred_first[cfg->succs[k] + 1]++;
  for (size_t b = 0; b < g.nb; b++)
    g.pred_first[b + 1] += g.pred_first[b];
  for (size_t b = 0; b < g.nb; b++)
    for (size_t k = cfg->succ_first[b]; k < cfg->succ_first[b + 1]; k++) {
      /* pred_first[s] is used as the fill cursor, restored below. */
      g.preds[g.pred_first[cfg->succs[k]]++] = (uint32_t)b;
    }
  for (size_t b = g.nb; b > 0; b--)
    g.pred_first[b] = g.pred_first[b - 1];
  g.pred_first[0] = 0;

  solve_start(&g);
  uint32_t *tmp = vstart;
  vstart = g.val;
  g.val = tmp;
  tmp = fstart;
  fstart = g.from;
  g.from = tmp;
  solve_end(&g);

  for (size_t i = 0; i < g.ni; i++) {
    start[i] = vstart[i];
    end[i] = g.val[i];
    if (start_from)
      start_from[i] = fstart[i];
    if (end_from)
      end_from[i] = g.from[i];
  }
  rc = 0;
out:
  free(g.blk);
  free(g.pred_first);
  free(g.preds);
  free(g.queue);
  free(g.queued);
  free(g.val);
  free(g.from);
  free(vstart);
  free(fstart);
  return rc;
}
