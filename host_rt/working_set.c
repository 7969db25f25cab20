/*===- working_set.c - Working-set launches --------------------------------===*
 *
 * PASTA_WORKING_SET=1: each launch is handed a sorted copy of the
 * allocation table (per-GPU device buffers, owned by the runtime), and its
 * touched pages and 2 MiB block hits are read back without waiting for it
 * (a ring of slots read back in batches, below). One such launch is set up
 * at a time (ws_mu).
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
 * and pinned on the host, the slots' results side by side); the copy back
 * and the clear go on the runtime's copy stream (copy_stream.c), and a slot
 * is harvested (waited for, its results summed) when the ring comes round,
 * when the allocation table changes, at a reset, an unload and at exit.
 * Results are recorded as they are harvested: in launch order on each GPU.
 *
 * Consecutive launches on one stream are read back together, up to
 * WS_BATCH at a time (a batch never wraps round the ring): one copy and one
 * clear of their results, after the last of them, instead of one of each
 * and three event calls per launch. Each launch keeps its own results, so
 * its figures are its own. A launch on another stream ends the batch first;
 * so does the end of a half of the ring, so that the slot a launch takes
 * was read back with a batch that ended at least WS_SLOTS - WS_BATCH + 1
 * launches before (as many in flight as one copy per launch left). */
enum { WS_SLOTS = PASTA_WS_SLOTS, WS_BATCH = PASTA_WS_SLOTS / 2 };

struct ws_slot {
  void *ran, *done; /* events: behind the launch, after its batch's copy */
  int in_flight;
  int queued;         /* its batch's copy back is queued */
  uint32_t batch_end; /* the slot whose `done` ends its batch */
  int waited;         /* a batch's last slot: 1 done, -1 failed, 0 not yet */
  struct ws_snapshot snap; /* the launch in flight: its allocations */
  uint32_t kernel;
  uint64_t id;
  uint32_t page_banks; /* banks the launch in flight uses (ws_launch_banks) */
  /* The header the slot's device buffer holds (NULL: unknown): a launch
   * whose header is the same sends none (nw: 2,047 launches, 16 headers). */
  struct pasta_ws_launch *sent;
};

/* One GPU's working-set buffers (device memory, owned by the runtime). */
struct ws_buffers {
  void *table; /* struct pasta_ws_alloc[] */
  size_t cap_table;
  size_t results_size, blocks_at, pages_at; /* layout of a slot's results */
  size_t stride;       /* from one slot's results to the next's */
  uint64_t num_pages;  /* flags per bank */
  uint32_t page_banks; /* see PASTA_WS_PAGE_BANKS */
  uint64_t generation; /* of the allocation table uploaded */
  int ready;
  /* Every slot's results (outside[2], hotness banks, page flags) on the
   * device and their copy on the host; the slots' headers on the device and
   * staged on the host (the launch's parameter and the copy's source). */
  void *results, *host, *headers, *staged;
  size_t cap_results, cap_host;
  int host_pinned, staged_pinned;
  struct ws_slot slots[WS_SLOTS];
  uint32_t next; /* launches so far (mod WS_SLOTS: the next one's slot) */
  /* The batch being gathered: slots first .. last, whose copy back is not
   * queued yet, launched on `stream` by `thread` (last: its last launch
   * tracked). Its copy waits for the last launch only, so every launch of
   * it must be on one stream: one handle from two threads may be two
   * streams (cudaStreamPerThread), so the thread must match too. */
  int pending;
  uint32_t first, last;
  void *stream;
  pthread_t thread;
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

static void ws_slot_release(ops_t *ops, struct ws_slot *slot) {
  void *events[] = {slot->ran, slot->done};
  for (size_t i = 0; i < sizeof events / sizeof events[0]; ++i)
    if (events[i])
      ops->event_destroy(events[i]);
  ws_snapshot_free(&slot->snap);
  free(slot->sent);
  memset(slot, 0, sizeof *slot);
}

static void ws_release(ops_t *ops, struct ws_buffers *b) {
  for (int i = 0; i < WS_SLOTS; ++i)
    ws_slot_release(ops, &b->slots[i]);
  void *bufs[] = {b->table, b->results, b->headers};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
    if (bufs[i])
      ops->free(bufs[i]);
  pasta__read_back_host_free(ops, b->host, b->host_pinned);
  pasta__read_back_host_free(ops, b->staged, b->staged_pinned);
  memset(b, 0, sizeof *b);
}

static uint32_t ws_slot_index(const struct ws_buffers *b,
                              const struct ws_slot *slot) {
  return (uint32_t)(slot - b->slots);
}

/* Slot i's results on the device, and their copy on the host. */
static char *ws_slot_results(const struct ws_buffers *b, uint32_t i) {
  return (char *)b->results + (size_t)i * b->stride;
}
static char *ws_slot_host(const struct ws_buffers *b, uint32_t i) {
  return (char *)b->host + (size_t)i * b->stride;
}

/* Slot i's header on the device, and staged on the host. */
static void *ws_slot_header(const struct ws_buffers *b, uint32_t i) {
  return (char *)b->headers + (size_t)i * sizeof(struct pasta_ws_launch);
}
static struct pasta_ws_launch *ws_slot_staged(const struct ws_buffers *b,
                                              uint32_t i) {
  return (struct pasta_ws_launch *)b->staged + i;
}

/* The host's copy of every slot's results, `need` bytes, pinned when
 * possible (its old contents are not kept: every slot was harvested). */
static int ws_reserve_host(ops_t *ops, struct ws_buffers *b, size_t need) {
  if (b->host && b->cap_host >= need)
    return 0;
  pasta__read_back_host_free(ops, b->host, b->host_pinned);
  b->cap_host = 0;
  size_t want = need + need / 2;
  b->host = pasta__read_back_host_alloc(ops, want, &b->host_pinned);
  if (!b->host)
    return -1;
  b->cap_host = want;
  return 0;
}

/* The slots' headers, on the device and staged on the host: made once. A
 * new device buffer holds none of the headers the slots sent before. */
static int ws_reserve_headers(ops_t *ops, struct ws_buffers *b) {
  size_t bytes = WS_SLOTS * sizeof(struct pasta_ws_launch);
  if (!b->staged &&
      !(b->staged = pasta__read_back_host_alloc(ops, bytes, &b->staged_pinned)))
    return -1;
  if (b->headers)
    return 0;
  for (int i = 0; i < WS_SLOTS; ++i) {
    free(b->slots[i].sent);
    b->slots[i].sent = NULL;
  }
  return ops->malloc(&b->headers, bytes);
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
  b->num_pages = s->pages;
  /* Room to start the flags at a group boundary (ws_pages_skew). */
  b->results_size =
      b->pages_at + (size_t)s->pages * b->page_banks + PASTA_WS_FLAG_GROUP - 1;
  b->stride = (b->results_size + 255) & ~(size_t)255;
  /* A buffer kept is all zeros: every slot's batch cleared what it used. */
  if (ws_reserve(ops, &b->table, &b->cap_table,
                 ws_table_len(s) * sizeof *s->table, stream) ||
      ws_reserve(ops, &b->results, &b->cap_results, WS_SLOTS * b->stride,
                 stream) ||
      ws_reserve_host(ops, b, WS_SLOTS * b->stride) ||
      ws_reserve_headers(ops, b))
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

/* A slot's events. */
static int ws_slot_setup(ops_t *ops, struct ws_slot *slot) {
  return (!slot->ran && pasta__ordering_event(ops, &slot->ran)) ||
         (!slot->done && pasta__ordering_event(ops, &slot->done));
}

/* From slot i's pages_at to the first group boundary of device memory,
 * where its page flags start (pasta_ws_flag_swizzle works on the flags'
 * addresses). */
static size_t ws_pages_skew(const struct ws_buffers *b, uint32_t i) {
  uint64_t at = (uint64_t)(uintptr_t)ws_slot_results(b, i) + b->pages_at;
  return (size_t)(-at & (PASTA_WS_FLAG_GROUP - 1));
}

/* The bytes of slot i's results its launch may write: the page flags are
 * last, up to the launch's last bank. */
static size_t ws_slot_used(const struct ws_buffers *b, uint32_t i) {
  return b->pages_at + ws_pages_skew(b, i) +
         (size_t)b->num_pages * b->slots[i].page_banks;
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
static int ws_upload_header(ops_t *ops, const struct ws_buffers *b,
                            struct ws_slot *slot,
                            const struct pasta_ws_launch *h, void *stream) {
  if (slot->sent && memcmp(slot->sent, h, sizeof *h) == 0)
    return 0;
  if (!slot->sent && !(slot->sent = malloc(sizeof *h)))
    return -1;
  if (ops->memcpy_async(ws_slot_header(b, ws_slot_index(b, slot)), h, sizeof *h,
                        PASTA_MEMCPY_HOST_TO_DEVICE, stream)) {
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
  uint32_t i = ws_slot_index(b, slot);
  struct pasta_ws_launch *h = ws_slot_staged(b, i);
  uint64_t results = (uint64_t)(uintptr_t)ws_slot_results(b, i);
  memset(h, 0, sizeof *h);
  h->allocs = (uint64_t)(uintptr_t)b->table;
  h->pages = results + b->pages_at + ws_pages_skew(b, i);
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
  return ws_upload_header(ops, b, slot, h, stream);
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

static void ws_count_skipped(void) {
  pasta__state_lock();
  ++pasta__st.ws_skipped;
  pasta__state_unlock();
}

/* Set flags in a word of 8 flags (each byte 0 or not). */
static unsigned ws_word_flags(uint64_t v) {
  v |= v >> 4;
  v |= v >> 2;
  v |= v >> 1;
  return (unsigned)__builtin_popcountll(v & UINT64_C(0x0101010101010101));
}

/* Folds a launch's banks of page flags into the first, a group of
 * PASTA_WS_FLAG_GROUP flags at a time, and counts each group's set flags
 * (set[g]). One pass over the banks (nw's 2 GiB at 64 KiB pages in 4 banks
 * is 130 KiB per launch), 64 flags at a time in registers; a group with a
 * flag set is written back to bank 0, still in the device's order (byte j
 * holds flag pasta_ws_flag_swizzle(j)): whole groups are counted from
 * set[g] alone, only an allocation's partial groups look at flags one by
 * one. Unswizzling every group with a flag set, and counting its flags
 * byte by byte, took 11 us per launch of nw_tile (bench_launch wsnw). n:
 * flags per bank, whole groups. */
static void ws_fold_flags(uint8_t *restrict pages, uint64_t n, uint32_t banks,
                          uint16_t *restrict set) {
  for (uint64_t g = 0; g < n / PASTA_WS_FLAG_GROUP; ++g) {
    uint8_t *group = pages + g * PASTA_WS_FLAG_GROUP;
    uint64_t folded[PASTA_WS_FLAG_GROUP / 8];
    unsigned count = 0;
    for (uint32_t at = 0; at < PASTA_WS_FLAG_GROUP; at += 64) {
      uint64_t acc[8]; /* 64 flags at a time: in registers */
      memcpy(acc, group + at, sizeof acc);
      for (uint32_t bank = 1; bank < banks; ++bank) {
        uint64_t v[8];
        memcpy(v, group + bank * n + at, sizeof v);
        for (int k = 0; k < 8; ++k)
          acc[k] |= v[k];
      }
      uint64_t any = 0;
      for (int k = 0; k < 8; ++k)
        any |= acc[k];
      for (int k = 0; any && k < 8; ++k) /* most groups have none set */
        count += ws_word_flags(acc[k]);
      memcpy(folded + at / 8, acc, sizeof acc);
    }
    set[g] = (uint16_t)count;
    if (count && banks > 1)
      memcpy(group, folded, sizeof folded);
  }
}

/* Whether page flag p is set (bank 0, folded: stored swizzled). */
static int ws_flag(const uint8_t *pages, uint64_t p) {
  return pages[pasta_ws_flag_swizzle(p)] != 0;
}

/* Flags set in pages[from, to), in page order: a whole group's from
 * set[g] (ws_fold_flags), a partial one's flag by flag. */
static uint64_t ws_count_flags(const uint8_t *pages, const uint16_t *set,
                               uint64_t from, uint64_t to) {
  uint64_t count = 0;
  while (from < to) {
    uint64_t g = from / PASTA_WS_FLAG_GROUP;
    uint64_t start = g * PASTA_WS_FLAG_GROUP,
             stop = start + PASTA_WS_FLAG_GROUP;
    if (from == start && stop <= to)
      count += set[g];
    else
      for (uint64_t p = from; set[g] && p < stop && p < to; ++p)
        count += (uint64_t)ws_flag(pages, p);
    from = stop;
  }
  return count;
}

/* Bytes touched of an allocation of `size` bytes whose page flags are
 * pages[first, first + n): whole pages, the last one partly. */
static uint64_t ws_touched_bytes(const uint8_t *pages, const uint16_t *set,
                                 uint64_t first, uint64_t n, uint64_t size,
                                 uint64_t page) {
  if (n == 0)
    return 0;
  uint64_t whole = ws_count_flags(pages, set, first, first + n - 1);
  return whole * page +
         (ws_flag(pages, first + n - 1) ? size - (n - 1) * page : 0);
}

/* Sums what the launch in `slot` touched (its results read back). ws_mu
 * held. */
static void ws_collect(ops_t *ops, const struct ws_buffers *b,
                       const struct ws_slot *slot) {
  const struct ws_snapshot *s = &slot->snap;
  uint32_t kernel = slot->kernel;
  uint64_t id = slot->id;
  size_t blocks = pasta__opt.hotness ? (size_t)s->blocks : 0;
  uint32_t i = ws_slot_index(b, slot);
  char *host = ws_slot_host(b, i);
  uint8_t *pages = (uint8_t *)host + b->pages_at + ws_pages_skew(b, i);
  uint16_t *set = malloc((s->pages / PASTA_WS_FLAG_GROUP + 1) * sizeof *set);
  if (!set) {
    ws_count_skipped();
    return;
  }
  ws_fold_flags(pages, s->pages, slot->page_banks, set);
  uint64_t *hits = (uint64_t *)(host + b->blocks_at);
  uint64_t outside[2];
  memcpy(outside, host, sizeof outside);
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
        ws_touched_bytes(pages, set, a->first_page, n, a->size, page);
    if (!touched)
      continue;
    ++l.touched_allocations;
    l.footprint_bytes += a->size;
    l.touched_bytes += touched;
  }
  free(set);
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

/* The launch in `slot` tracked no more: counted as skipped. */
static void ws_drop(struct ws_slot *slot) {
  slot->in_flight = 0;
  slot->queued = 0;
  ws_snapshot_free(&slot->snap);
  ws_count_skipped();
}

/* Clears slot results [from, from + bytes) once the GPU is done with them,
 * after a copy back that could not be queued. */
static void ws_clear_now(ops_t *ops, const struct ws_buffers *b, size_t from,
                         size_t bytes) {
  ops->get_last_error();
  if (ops->device_synchronize() ||
      ops->memset((char *)b->results + from, 0, bytes))
    ops->get_last_error();
}

/* Queues the copy back and the clear of the batch being gathered on GPU
 * `device`: one of each for its slots' results, side by side, after its
 * last launch (which ran on the same stream as the others). ws_mu held. */
static void ws_flush(ops_t *ops, struct ws_buffers *b, int device) {
  if (!b->pending)
    return;
  b->pending = 0;
  uint32_t last = b->last;
  size_t from = (size_t)b->first * b->stride;
  size_t bytes = (size_t)(last - b->first) * b->stride + ws_slot_used(b, last);
  struct ws_slot *end = &b->slots[last];
  struct read_back_copy c = {device,
                             b->stream,
                             end->ran,
                             end->done,
                             (char *)b->host + from,
                             (char *)b->results + from,
                             bytes,
                             1,
                             1};
  int failed = !ops->memcpy_async || !ops->memset_async ||
               pasta__queue_read_back(ops, &c);
  if (failed)
    ws_clear_now(ops, b, from, bytes);
  end->waited = 0;
  for (uint32_t i = b->first; i <= last; ++i) {
    struct ws_slot *slot = &b->slots[i];
    if (!slot->in_flight || slot->queued)
      continue;
    if (failed) {
      ws_drop(slot);
    } else {
      slot->queued = 1;
      slot->batch_end = last;
    }
  }
}

/* Waits for the launch in `slot` (its batch's copy back: the first slot of
 * a batch harvested waits, the others find it done) and sums its results.
 * ws_mu held. */
static void ws_harvest(ops_t *ops, struct ws_buffers *b, int device,
                       struct ws_slot *slot) {
  if (!slot->in_flight)
    return;
  if (!slot->queued)
    ws_flush(ops, b,
             device); /* not reached: batches end before the ring wraps */
  if (!slot->queued)
    return;
  struct ws_slot *end = &b->slots[slot->batch_end];
  if (!end->waited) {
    end->waited = ops->event_synchronize(end->done) ? -1 : 1;
    if (end->waited < 0)
      ops->get_last_error(); /* a fault: the batch's results mean nothing */
  }
  if (end->waited < 0) {
    ws_drop(slot);
    return;
  }
  slot->in_flight = 0;
  slot->queued = 0;
  ws_collect(ops, b, slot);
  ws_snapshot_free(&slot->snap);
}

/* Harvests every slot of GPU buffers b, oldest first. ws_mu held. */
static void ws_drain(ops_t *ops, struct ws_buffers *b) {
  int device = (int)(b - ws_dev);
  ws_flush(ops, b, device);
  for (uint32_t i = 0; i < WS_SLOTS; ++i)
    ws_harvest(ops, b, device, &b->slots[(b->next + i) % WS_SLOTS]);
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

/* Header up, the working-set copy and the event behind it, into `slot`,
 * which takes over the snapshot (the read-back is queued with its batch).
 * Returns the launch's error. */
static int ws_launch(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                     uint32_t kernel, const struct launch *l, uint64_t id,
                     struct ws_buffers *b, struct ws_slot *slot,
                     struct ws_snapshot *s, int *tracked) {
  void **args = malloc(((size_t)kc->nparams + 2) * sizeof *args);
  slot->page_banks = ws_launch_banks(b->page_banks, l);
  if (!args || ws_slot_setup(ops, slot) ||
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
  uint32_t i = ws_slot_index(b, slot);
  void *header = ws_slot_header(b, i);
  args[kc->nparams] = &header;
  args[kc->nparams + 1] = ws_slot_staged(b, i);
  int err = pasta__run_timed(ops, real, kc->ws, l, args, kernel, 0);
  free(args);
  if (err) {
    /* The header copied up before it may not have run: send it again. */
    free(slot->sent);
    slot->sent = NULL;
    return err;
  }
  /* Behind the launch, on its stream now: the stream may be gone by the
   * time the batch is queued. */
  if (ops->event_record(slot->ran, l->stream)) {
    /* The slot is used again once the GPU is done with it, cleared. */
    ws_clear_now(ops, b, (size_t)i * b->stride, ws_slot_used(b, i));
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

/* The launch into the ring's next slot, gathered into the batch being
 * gathered when it runs on the same stream; a batch ends at the end of a
 * half of the ring. */
static int ws_launch_batched(ops_t *ops, pasta__launch_fn real,
                             const struct kernel *kc, uint32_t kernel,
                             const struct launch *l, uint64_t id,
                             struct ws_buffers *b, struct ws_snapshot *s,
                             int *tracked) {
  if (b->pending &&
      (b->stream != l->stream || !pthread_equal(b->thread, pthread_self())))
    ws_flush(ops, b, l->device);
  uint32_t i = b->next % WS_SLOTS;
  struct ws_slot *slot = &b->slots[i];
  ws_harvest(ops, b, l->device, slot);
  int err = ws_launch(ops, real, kc, kernel, l, id, b, slot, s, tracked);
  ++b->next;
  if (*tracked) {
    if (!b->pending)
      b->first = i;
    b->pending = 1;
    b->last = i;
    b->stream = l->stream;
    b->thread = pthread_self();
  }
  if (i % WS_BATCH == WS_BATCH - 1)
    ws_flush(ops, b, l->device);
  return err;
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
    err = ws_launch_batched(ops, real, kc, kernel, l, id, b, &s, tracked);
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
