/*===- working_set.c - Working-set launches --------------------------------===*
 *
 * PASTA_WORKING_SET=1: each launch is handed a sorted copy of the
 * allocation table (per-GPU device buffers, owned by the runtime), and its
 * touched pages and 2 MiB block hits are read back without waiting for it
 * (a ring of slots, below). One such launch is set up at a time (ws_mu).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/diag.h"
#include "profile/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The device's view of the live allocations, with page and block offsets.
 * Lock held. */
struct ws_snapshot {
  struct pasta_ws_alloc *table;
  uint32_t *ids;
  size_t n;
  uint64_t pages, blocks;
};

/* A launch's results are read back without waiting for it: each GPU has a
 * ring of WS_SLOTS slots (a launch header and the results, on the device
 * and pinned on the host); the copy back and the clear go on the runtime's
 * copy stream (copy_stream.c), and a slot is harvested (waited for, its
 * results summed) when the ring comes round, when the allocation table
 * changes, at a reset, an unload and at exit. Results are recorded as they
 * are harvested: in launch order on each GPU. */
enum { WS_SLOTS = PASTA_WS_SLOTS };

struct ws_slot {
  void *header;  /* struct pasta_ws_launch */
  void *results; /* outside[2], hotness banks, page flags: one read-back */
  void *host;    /* their copy, then the header staged (ws_header_at) */
  int host_pinned;
  size_t cap_header, cap_results, cap_host;
  void *ran, *done; /* events: behind the launch, after the copy back */
  int in_flight;
  struct ws_snapshot snap; /* the launch in flight: its allocations */
  uint32_t kernel;
  uint64_t id;
  uint32_t page_banks; /* banks the launch in flight uses (ws_launch_banks) */
  /* The header the slot's device buffer holds (NULL: unknown): a launch
   * whose header is the same sends none (nw: 2,047 launches, 8 headers). */
  struct pasta_ws_launch *sent;
};

/* One GPU's working-set buffers (device memory, owned by the runtime). */
struct ws_buffers {
  void *table; /* struct pasta_ws_alloc[] */
  size_t cap_table;
  size_t results_size, blocks_at, pages_at; /* layout of results */
  uint32_t page_banks;                      /* see PASTA_WS_PAGE_BANKS */
  uint64_t generation; /* of the allocation table uploaded */
  int ready;
  struct ws_slot slots[WS_SLOTS];
  uint32_t next; /* the slot the next launch takes */
};

/* The working-set launch sequence: upload, launch, queue the read-back,
 * harvest. One at a time, so the per-GPU buffers are never shared by two
 * launches being set up. */
static pthread_mutex_t ws_mu = PTHREAD_MUTEX_INITIALIZER;

static struct ws_buffers ws_dev[PASTA_MAX_DEVICES];

static void ws_snapshot_free(struct ws_snapshot *s) {
  free(s->table);
  free(s->ids);
  memset(s, 0, sizeof *s);
}

static void ws_free_host(ops_t *ops, struct ws_slot *b) {
  pasta__read_back_host_free(ops, b->host, b->host_pinned);
  b->host = NULL;
  b->cap_host = 0;
}

static void ws_slot_release(ops_t *ops, struct ws_slot *slot) {
  void *bufs[] = {slot->header, slot->results};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
    if (bufs[i])
      ops->free(bufs[i]);
  void *events[] = {slot->ran, slot->done};
  for (size_t i = 0; i < sizeof events / sizeof events[0]; ++i)
    if (events[i])
      ops->event_destroy(events[i]);
  ws_free_host(ops, slot);
  ws_snapshot_free(&slot->snap);
  free(slot->sent);
  memset(slot, 0, sizeof *slot);
}

static void ws_release(ops_t *ops, struct ws_buffers *b) {
  for (int i = 0; i < WS_SLOTS; ++i)
    ws_slot_release(ops, &b->slots[i]);
  if (b->table)
    ops->free(b->table);
  memset(b, 0, sizeof *b);
}

/* Where the launch header is staged in the host buffer: after the results,
 * 8-byte aligned. */
static size_t ws_header_at(const struct ws_buffers *b) {
  return (b->results_size + 7) & ~(size_t)7;
}

/* A host buffer of `need` bytes for the read-back, pinned when possible. */
static int ws_reserve_host(ops_t *ops, struct ws_slot *b, size_t need) {
  if (b->host && b->cap_host >= need)
    return 0;
  ws_free_host(ops, b);
  size_t want = need + need / 2;
  b->host = pasta__read_back_host_alloc(ops, want, &b->host_pinned);
  if (!b->host)
    return -1;
  b->cap_host = want;
  return 0;
}

/* Makes *buf hold at least `need` bytes (device memory), zeroed on
 * `stream` (ordered before the launch that uses it). */
static int ws_reserve(ops_t *ops, void **buf, size_t *cap, size_t need,
                      void *stream) {
  if (need == 0)
    need = 8;
  if (*buf && *cap >= need)
    return 0;
  if (*buf)
    ops->free(*buf);
  *buf = NULL;
  *cap = 0;
  size_t want = need + need / 2;
  if (ops->malloc(buf, want) || ops->memset_async(*buf, 0, want, stream))
    return -1;
  *cap = want;
  return 0;
}

/* The allocation table as the device sees it. Lock held. */
static int ws_snapshot(struct ws_snapshot *s) {
  memset(s, 0, sizeof *s);
  s->n = pasta__st.num_live;
  /* Room for the padding a short table gets (PASTA_WS_LINEAR_MAX). */
  size_t room = s->n > PASTA_WS_LINEAR_MAX ? s->n : PASTA_WS_LINEAR_MAX;
  s->table = malloc(room * sizeof *s->table);
  s->ids = malloc((s->n ? s->n : 1) * sizeof *s->ids);
  if (!s->table || !s->ids)
    return -1;
  uint64_t page = UINT64_C(1) << pasta__opt.page_shift;
  for (size_t i = 0; i < s->n; ++i) {
    const struct allocation *a = &pasta__st.live[i];
    s->table[i] = (struct pasta_ws_alloc){a->base, a->size, (uint32_t)s->pages,
                                          (uint32_t)s->blocks};
    s->ids[i] = a->id;
    s->pages += (a->size + page - 1) / page;
    s->blocks +=
        (a->size + PASTA_HOTNESS_BLOCK_SIZE - 1) / PASTA_HOTNESS_BLOCK_SIZE;
  }
  for (size_t i = s->n; i < PASTA_WS_LINEAR_MAX; ++i)
    s->table[i] = (struct pasta_ws_alloc){UINT64_MAX, 0, 0, 0};
  /* Whole groups of flags per bank, so that every bank starts a group
   * (pasta_ws_flag_swizzle). */
  s->pages = (s->pages + PASTA_WS_FLAG_GROUP - 1) &
             ~(uint64_t)(PASTA_WS_FLAG_GROUP - 1);
  return s->pages >= UINT32_MAX || s->blocks >= UINT32_MAX ? -1 : 0;
}

/* As many banks of page flags as keep them within 256 KiB (at least one):
 * every launch reads them all back. */
static uint32_t ws_page_banks(uint64_t pages) {
  uint32_t banks = pasta__opt.ws_page_banks ? pasta__opt.ws_page_banks : 1;
  while (banks > 1 && pages * banks > (256u << 10))
    banks /= 2;
  return banks;
}

/* The banks one launch uses: no more than it has thread blocks (the block
 * picks its bank), so that a launch of a few blocks reads back and clears a
 * few banks, not all (gaussian's 8,190 launches, most of 16 blocks). */
static uint32_t ws_launch_banks(uint32_t banks, const struct launch *l) {
  uint64_t blocks = (l->grid_xy & 0xffffffffu) * (l->grid_xy >> 32) * l->grid_z;
  while (banks > 1 && banks > blocks)
    banks /= 2;
  return banks;
}

/* The snapshot entry holding `addr`, or SIZE_MAX. */
static size_t ws_snapshot_find(const struct ws_snapshot *s, uint64_t addr) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s->table[mid].base <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || addr - s->table[lo - 1].base >= s->table[lo - 1].size)
    return SIZE_MAX;
  return lo - 1;
}

/* Entries the device reads: the table, padded to PASTA_WS_LINEAR_MAX. */
static size_t ws_table_len(const struct ws_snapshot *s) {
  return s->n > PASTA_WS_LINEAR_MAX ? s->n : PASTA_WS_LINEAR_MAX;
}

/* Uploads the table when it changed (the caller harvested the slots: they
 * read the table and the results' layout). */
static int ws_prepare(ops_t *ops, struct ws_buffers *b,
                      const struct ws_snapshot *s, uint64_t generation,
                      void *stream) {
  if (b->ready && b->generation == generation)
    return 0;
  size_t blocks = pasta__opt.hotness ? (size_t)s->blocks : 0;
  b->blocks_at = 2 * sizeof(uint64_t);
  b->pages_at = b->blocks_at + blocks * PASTA_WS_HOT_BANKS * sizeof(uint64_t);
  b->page_banks = ws_page_banks(s->pages);
  /* Room to start the flags at a group boundary (ws_pages_skew). */
  b->results_size =
      b->pages_at + (size_t)s->pages * b->page_banks + PASTA_WS_FLAG_GROUP - 1;
  if (ws_reserve(ops, &b->table, &b->cap_table,
                 ws_table_len(s) * sizeof *s->table, stream))
    return -1;
  /* On the launch's stream (a non-blocking stream is not ordered after the
   * legacy one), waited for: later launches on other streams read it. */
  if (ops->memcpy_async(b->table, s->table, ws_table_len(s) * sizeof *s->table,
                        PASTA_MEMCPY_HOST_TO_DEVICE, stream) ||
      ops->stream_synchronize(stream))
    return -1;
  b->generation = generation;
  b->ready = 1;
  return 0;
}

/* A slot's buffers for the current layout (results zeroed when new; after
 * a read-back the copy stream clears them) and its events. */
static int ws_slot_setup(ops_t *ops, const struct ws_buffers *b,
                         struct ws_slot *slot, void *stream) {
  if ((!slot->ran && pasta__ordering_event(ops, &slot->ran)) ||
      (!slot->done && pasta__ordering_event(ops, &slot->done)))
    return -1;
  if (!slot->header) { /* a new buffer: it holds no header yet */
    free(slot->sent);
    slot->sent = NULL;
  }
  return ws_reserve(ops, &slot->header, &slot->cap_header,
                    sizeof(struct pasta_ws_launch), stream) ||
         ws_reserve(ops, &slot->results, &slot->cap_results, b->results_size,
                    stream) ||
         ws_reserve_host(ops, slot,
                         ws_header_at(b) + sizeof(struct pasta_ws_launch));
}

/* From the results' pages_at to the first group boundary of device memory,
 * where the slot's page flags start (pasta_ws_flag_swizzle works on the
 * flags' addresses). */
static size_t ws_pages_skew(const struct ws_buffers *b,
                            const struct ws_slot *slot) {
  uint64_t at = (uint64_t)(uintptr_t)slot->results + b->pages_at;
  return (size_t)(-at & (PASTA_WS_FLAG_GROUP - 1));
}

/* The range and flags of the allocation the pointer at `value` (a launch
 * argument, or a field of one) points into; zeros when none. */
static void ws_send_arg(const struct pasta_ws_launch *h,
                        const struct ws_snapshot *s, struct pasta_ws_arg *arg,
                        const void *value) {
  uint64_t v;
  memcpy(&v, value, sizeof v);
  size_t i = ws_snapshot_find(s, v);
  if (i != SIZE_MAX)
    *arg = (struct pasta_ws_arg){s->table[i].base,
                                 s->table[i].base + s->table[i].size,
                                 h->pages + s->table[i].first_page};
}

/* Copies header `h` to the slot's device buffer on the launch's stream,
 * unless the buffer holds it already: every header of a slot stays on the
 * device until the slot's next launch, and a launch with the same
 * allocations, arguments and banks as the slot's last one gets the same. */
static int ws_upload_header(ops_t *ops, struct ws_slot *slot,
                            const struct pasta_ws_launch *h, void *stream) {
  if (slot->sent && memcmp(slot->sent, h, sizeof *h) == 0)
    return 0;
  if (!slot->sent && !(slot->sent = malloc(sizeof *h)))
    return -1;
  if (ops->memcpy_async(slot->header, h, sizeof *h, PASTA_MEMCPY_HOST_TO_DEVICE,
                        stream)) {
    free(slot->sent);
    slot->sent = NULL;
    return -1;
  }
  memcpy(slot->sent, h, sizeof *h);
  return 0;
}

/* The launch's header: the buffers' device addresses and, for each pointer
 * argument and pointer field of an argument in a known allocation, that
 * allocation's range and flags. Staged in the slot's host buffer after the
 * results and copied on the launch's stream. */
static int ws_send_header(ops_t *ops, const struct ws_buffers *b,
                          struct ws_slot *slot, const struct ws_snapshot *s,
                          const struct kernel *k, void **args, void *stream) {
  struct pasta_ws_launch *h =
      (struct pasta_ws_launch *)((char *)slot->host + ws_header_at(b));
  uint64_t results = (uint64_t)(uintptr_t)slot->results;
  memset(h, 0, sizeof *h);
  h->allocs = (uint64_t)(uintptr_t)b->table;
  h->pages = results + b->pages_at + ws_pages_skew(b, slot);
  h->blocks = pasta__opt.hotness ? results + b->blocks_at : 0;
  h->outside = results;
  h->num_allocs = (uint32_t)s->n;
  h->page_shift = pasta__opt.page_shift;
  h->block_shift = PASTA_WS_BLOCK_SHIFT;
  h->num_pages = (uint32_t)s->pages;
  h->page_banks = slot->page_banks;
  for (int p = 0; p < k->nparams && p < (int)PASTA_WS_MAX_ARGS; ++p)
    if (k->pointer_params >> p & 1 && args[p])
      ws_send_arg(h, s, &h->args[p], args[p]);
  for (unsigned j = 0; j < k->num_ws_fields; ++j) {
    struct ws_field f = k->ws_fields[j];
    if ((int)f.param < k->nparams && args[f.param])
      ws_send_arg(h, s, &h->args[PASTA_WS_MAX_ARGS + j],
                  (const char *)args[f.param] + f.offset);
  }
  return ws_upload_header(ops, slot, h, stream);
}

/* After the launch: the results' copy back and their clear, queued. */
static int ws_queue_read_back(ops_t *ops, const struct ws_buffers *b,
                              struct ws_slot *slot, const struct launch *l,
                              uint64_t pages) {
  if (!ops->memcpy_async || !ops->memset_async)
    return -1;
  /* The page flags are last: up to the launch's last bank. */
  size_t size =
      b->pages_at + ws_pages_skew(b, slot) + (size_t)pages * slot->page_banks;
  struct read_back_copy c = {l->device,  l->stream,     slot->ran, slot->done,
                             slot->host, slot->results, size,      1};
  return pasta__queue_read_back(ops, &c);
}

/* The hotness row of (allocation, block). Lock held. */
static uint32_t block_row(uint32_t allocation, uint64_t base, uint64_t block) {
  for (size_t i = pasta__st.num_blocks; i-- > 0;)
    if (pasta__st.blocks[i].allocation == allocation &&
        pasta__st.blocks[i].block == block)
      return (uint32_t)i;
  if (GROW(pasta__st.blocks, pasta__st.cap_blocks, pasta__st.num_blocks))
    return UINT32_MAX;
  pasta__st.blocks[pasta__st.num_blocks] =
      (struct block_key){allocation, base, block};
  return (uint32_t)pasta__st.num_blocks++;
}

/* The source line of site `site` of the module whose descriptor's host
 * shadow is `module`, read from the device. */
static void ws_resolve_site(ops_t *ops, const void *module, uint32_t site) {
  struct pasta_module_desc d;
  struct pasta_site s;
  if (!module ||
      ops->memcpy_from_symbol(&d, module, sizeof d, 0,
                              PASTA_MEMCPY_DEVICE_TO_HOST) ||
      d.magic != PASTA_ABI_MAGIC || site >= d.num_sites ||
      ops->memcpy(&s, (const void *)(uintptr_t)(d.sites + site * sizeof s),
                  sizeof s, PASTA_MEMCPY_DEVICE_TO_HOST))
    return;
  pasta__st.outside_line = s.line;
  if (s.file >= d.strings_size)
    return;
  char *strings = malloc(d.strings_size + 1);
  if (strings &&
      ops->memcpy(strings, (const void *)(uintptr_t)d.strings, d.strings_size,
                  PASTA_MEMCPY_DEVICE_TO_HOST) == 0) {
    strings[d.strings_size] = '\0';
    pasta__st.outside_file = strdup(strings + s.file);
  }
  free(strings);
}

/* ORs the banks of page flags into the first, 64 flags at a time (a
 * launch's whole read-back passes through here: nw's 2 GiB at 64 KiB pages
 * in 8 banks is 256 KiB per launch). */
static void ws_or_banks(uint8_t *restrict pages, uint64_t n, uint32_t banks) {
  if (banks < 2)
    return;
  uint64_t p = 0;
  for (; p + 64 <= n; p += 64) {
    uint64_t acc[8];
    memcpy(acc, pages + p, sizeof acc);
    for (uint32_t bank = 1; bank < banks; ++bank) {
      uint64_t v[8];
      memcpy(v, pages + bank * n + p, sizeof v);
      for (int k = 0; k < 8; ++k)
        acc[k] |= v[k];
    }
    memcpy(pages + p, acc, sizeof acc);
  }
  for (; p < n; ++p)
    for (uint32_t bank = 1; bank < banks; ++bank)
      pages[p] |= pages[bank * n + p];
}

/* Puts the flags of bank 0 back in page order, a group at a time. Most
 * groups are all 0 in a launch (nw: 2 GiB allocated, a few pages touched
 * per launch) and are left as they are; in the others only the set flags
 * move (byte j of a group holds flag pasta_ws_flag_swizzle(j): the
 * function is its own inverse). */
static void ws_unswizzle(uint8_t *restrict pages, uint64_t n) {
  uint8_t order[PASTA_WS_FLAG_GROUP];
  for (uint64_t g = 0; g < n; g += PASTA_WS_FLAG_GROUP) {
    uint8_t *group = pages + g;
    uint64_t any = 0;
    for (uint32_t j = 0; j < PASTA_WS_FLAG_GROUP; j += 8) {
      uint64_t w;
      memcpy(&w, group + j, sizeof w);
      any |= w;
    }
    if (!any)
      continue;
    memset(order, 0, sizeof order);
    for (uint32_t j = 0; j < PASTA_WS_FLAG_GROUP; j += 8) {
      uint64_t w;
      memcpy(&w, group + j, sizeof w);
      for (uint32_t k = j; w && k < j + 8; ++k)
        if (group[k])
          order[pasta_ws_flag_swizzle(k)] = 1;
    }
    memcpy(group, order, sizeof order);
  }
}

/* Bytes touched of an allocation of `size` bytes whose page flags are
 * flags[0, n): whole pages, the last one partly. Zero words are skipped
 * (most flags of a big allocation are 0 in a launch). */
static uint64_t ws_touched_bytes(const uint8_t *flags, uint64_t n,
                                 uint64_t size, uint64_t page) {
  if (n == 0)
    return 0;
  uint64_t pages = 0, p = 0;
  for (; p + 8 <= n - 1; p += 8) {
    uint64_t w;
    memcpy(&w, flags + p, sizeof w);
    if (!w)
      continue;
    for (int k = 0; k < 8; ++k)
      pages += flags[p + k] != 0;
  }
  for (; p < n - 1; ++p)
    pages += flags[p] != 0;
  return pages * page + (flags[n - 1] ? size - (n - 1) * page : 0);
}

/* Sums what the launch in `slot` touched (its results read back). ws_mu
 * held. */
static void ws_collect(ops_t *ops, const struct ws_buffers *b,
                       const struct ws_slot *slot) {
  const struct ws_snapshot *s = &slot->snap;
  uint32_t kernel = slot->kernel;
  uint64_t id = slot->id;
  size_t blocks = pasta__opt.hotness ? (size_t)s->blocks : 0;
  uint8_t *pages = (uint8_t *)slot->host + b->pages_at + ws_pages_skew(b, slot);
  ws_or_banks(pages, s->pages, slot->page_banks);
  ws_unswizzle(pages, s->pages);
  uint64_t *hits = (uint64_t *)((char *)slot->host + b->blocks_at);
  uint64_t outside[2];
  memcpy(outside, slot->host, sizeof outside);
  for (size_t blk = 0; blk < blocks; ++blk) { /* sum the banks */
    uint64_t sum = 0;
    for (unsigned bank = 0; bank < PASTA_WS_HOT_BANKS; ++bank)
      sum += hits[blk * PASTA_WS_HOT_BANKS + bank];
    hits[blk] = sum;
  }

  pasta_activity_ws_launch l = {id, kernel, 0, 0, 0, outside[0]};
  uint64_t page = UINT64_C(1) << pasta__opt.page_shift;
  for (size_t i = 0; i < s->n; ++i) {
    const struct pasta_ws_alloc *a = &s->table[i];
    uint64_t n = (a->size + page - 1) / page;
    uint64_t touched =
        ws_touched_bytes(pages + a->first_page, n, a->size, page);
    if (!touched)
      continue;
    ++l.touched_allocations;
    l.footprint_bytes += a->size;
    l.touched_bytes += touched;
  }
  pasta__state_lock();
  pasta_activity_kernel *k = &pasta__st.kernels[kernel].stats;
  ++k->ws_launches;
  if (l.touched_bytes > k->ws_max_touched_bytes)
    k->ws_max_touched_bytes = l.touched_bytes;
  if (l.footprint_bytes > k->ws_max_footprint_bytes)
    k->ws_max_footprint_bytes = l.footprint_bytes;
  if (!GROW(pasta__st.ws_launches, pasta__st.cap_ws, pasta__st.num_ws))
    pasta__st.ws_launches[pasta__st.num_ws++] = l;
  pasta__st.outside += outside[0];
  if (outside[0] && !pasta__st.have_outside) {
    pasta__st.have_outside = 1;
    pasta__st.outside_kernel = kernel;
    if (outside[1])
      ws_resolve_site(ops, pasta__st.kernels[kernel].module,
                      (uint32_t)(outside[1] - 1));
  }
  if (blocks && !GROW(pasta__st.hot_launches, pasta__st.cap_hot_launches,
                      pasta__st.num_hot_launches)) {
    uint32_t col = (uint32_t)pasta__st.num_hot_launches++;
    pasta__st.hot_launches[col] = (pasta_hotness_launch){id, NULL};
    for (size_t i = 0; i < s->n; ++i) {
      const struct pasta_ws_alloc *a = &s->table[i];
      uint64_t n =
          (a->size + PASTA_HOTNESS_BLOCK_SIZE - 1) / PASTA_HOTNESS_BLOCK_SIZE;
      for (uint64_t blk = 0; blk < n; ++blk) {
        uint64_t count = hits[a->first_block + blk];
        if (!count)
          continue;
        uint32_t row = block_row(s->ids[i], a->base, blk);
        if (row != UINT32_MAX &&
            !GROW(pasta__st.cells, pasta__st.cap_cells, pasta__st.num_cells))
          pasta__st.cells[pasta__st.num_cells++] =
              (pasta_hotness_cell){col, row, count};
      }
    }
  }
  pasta__state_unlock();
}

static void ws_count_skipped(void) {
  pasta__state_lock();
  ++pasta__st.ws_skipped;
  pasta__state_unlock();
}

/* Waits for the launch in `slot` and sums its results. ws_mu held. */
static void ws_harvest(ops_t *ops, const struct ws_buffers *b,
                       struct ws_slot *slot) {
  if (!slot->in_flight)
    return;
  slot->in_flight = 0;
  if (ops->event_synchronize(slot->done)) {
    ops->get_last_error(); /* a fault: its results mean nothing */
    ws_count_skipped();
  } else {
    ws_collect(ops, b, slot);
  }
  ws_snapshot_free(&slot->snap);
}

/* Harvests every slot of GPU buffers b, oldest first. ws_mu held. */
static void ws_drain(ops_t *ops, struct ws_buffers *b) {
  for (uint32_t i = 0; i < WS_SLOTS; ++i)
    ws_harvest(ops, b, &b->slots[(b->next + i) % WS_SLOTS]);
}

static void ws_warn_setup(void) {
  pasta__state_lock();
  ++pasta__st.ws_skipped;
  if (!pasta__st.warned_ws)
    PASTA_WARN("cannot set up working-set tracking "
               "(out of memory?); launches run without it\n");
  pasta__st.warned_ws = 1;
  pasta__state_unlock();
}

/* Header up, the working-set copy, the read-back queued into `slot`, which
 * takes over the snapshot. Returns the launch's error. */
static int ws_launch(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                     uint32_t kernel, const struct launch *l, uint64_t id,
                     struct ws_buffers *b, struct ws_slot *slot,
                     struct ws_snapshot *s, int *tracked) {
  void **args = malloc(((size_t)kc->nparams + 2) * sizeof *args);
  slot->page_banks = ws_launch_banks(b->page_banks, l);
  if (!args || ws_slot_setup(ops, b, slot, l->stream) ||
      ws_send_header(ops, b, slot, s, kc, l->args, l->stream)) {
    ops->get_last_error();
    free(args);
    ws_warn_setup();
    return pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  }
  if (kc->nparams > 0)
    memcpy(args, l->args, (size_t)kc->nparams * sizeof *args);
  /* The header's device address, then the header by value (abi.h): the
   * copy reads what every access needs from the kernel parameters, not
   * from global memory. The launch copies its parameters before it returns. */
  void *header = slot->header;
  args[kc->nparams] = &header;
  args[kc->nparams + 1] = (char *)slot->host + ws_header_at(b);
  int err = pasta__run_timed(ops, real, kc->ws, l, args, kernel, 0);
  free(args);
  if (err)
    return err;
  if (ws_queue_read_back(ops, b, slot, l, s->pages)) {
    /* The slot is used again once the GPU is done with it, cleared. */
    ops->get_last_error();
    if (ops->device_synchronize() ||
        ops->memset(slot->results, 0, b->results_size))
      ops->get_last_error();
    ws_count_skipped();
    return 0;
  }
  slot->in_flight = 1;
  slot->snap = *s;
  memset(s, 0, sizeof *s);
  slot->kernel = kernel;
  slot->id = id;
  *tracked = 1;
  return 0;
}

/* A working-set launch; *tracked says whether it was one after all. kc is
 * a copy of the kernel's entry (the table may move under other threads). */
int pasta__run_ws(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                  uint32_t kernel, const struct launch *l, uint64_t id,
                  int *tracked) {
  *tracked = 0;
  if (l->capture != CAPTURE_NONE) {
    /* Into a graph: no synchronous calls or waits allowed; count only. */
    ws_count_skipped();
    return pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  }
  pthread_mutex_lock(&ws_mu);
  struct ws_buffers *b = &ws_dev[l->device];
  struct ws_snapshot s;
  pasta__state_lock();
  int ok = ws_snapshot(&s) == 0;
  uint64_t generation = pasta__st.generation;
  pasta__state_unlock();
  /* A new allocation table: the launches in flight read the old one. */
  if (b->ready && b->generation != generation)
    ws_drain(ops, b);
  int err;
  if (!ok || ws_prepare(ops, b, &s, generation, l->stream)) {
    ops->get_last_error();
    ws_warn_setup();
    err = pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  } else {
    struct ws_slot *slot = &b->slots[b->next++ % WS_SLOTS];
    ws_harvest(ops, b, slot);
    err = ws_launch(ops, real, kc, kernel, l, id, b, slot, &s, tracked);
  }
  ws_snapshot_free(&s);
  pthread_mutex_unlock(&ws_mu);
  return err;
}

void pasta__ws_drain(ops_t *ops) {
  pthread_mutex_lock(&ws_mu);
  for (int d = 0; d < (int)PASTA_MAX_DEVICES; ++d)
    ws_drain(ops, &ws_dev[d]);
  pthread_mutex_unlock(&ws_mu);
}

void pasta__ws_release_device(ops_t *ops, int device) {
  pthread_mutex_lock(&ws_mu);
  ws_drain(ops, &ws_dev[device]);
  ws_release(ops, &ws_dev[device]);
  pthread_mutex_unlock(&ws_mu);
}
