//===- DivergenceFigures.cpp - Figures derived at read-back ---------------===//
//
// See DivergenceFigures.h.
//
//===----------------------------------------------------------------------===//
#include "DivergenceFigures.h"

#include "pasta/abi.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;
using namespace pasta;

// Counter To += Coeff * counter From, at read-back.
void pasta::derive(ModuleTables &T, uint32_t To, uint32_t From, int32_t Coeff) {
  T.Derived.push_back({To, From, Coeff});
}

// The figures of a block's sites that follow from the block's two counters
// (DivergencePlan::Block): each line's instructions, each branch's
// executions, and each access's requests and requested bytes when its
// address space is known (a generic one is split between spaces per lane,
// at run time).
void pasta::deriveFromBlock(ModuleTables &T, const DivergencePlan::Block &B,
                            const std::map<uint32_t, uint32_t> &InstsOf,
                            ArrayRef<DivergencePlan::Access> Accesses,
                            ArrayRef<DivergencePlan::Branch> Branches) {
  auto Figure = [&](uint32_t Row, unsigned Index) {
    return T.DivRows[Row].counter + Index;
  };
  for (auto [Row, Insts] : InstsOf) {
    derive(T, Figure(Row, PASTA_DIV_WARP_EXECS), B.Warps, Insts);
    derive(T, Figure(Row, PASTA_DIV_THREAD_EXECS), B.Threads, Insts);
  }
  for (const DivergencePlan::Branch &Br : Branches)
    derive(T, Figure(Br.Row, PASTA_DIV_BRANCHES), Br.Warps, 1);
  for (const DivergencePlan::Access &A : Accesses) {
    if (A.Space == PASTA_DIV_GENERIC)
      continue;
    derive(T,
           Figure(A.Row, A.Space == PASTA_DIV_SHARED
                             ? PASTA_DIV_REQUESTS_SHARED
                             : PASTA_DIV_REQUESTS_GLOBAL),
           A.Warps, 1);
    derive(T, Figure(A.Row, PASTA_DIV_BYTES), B.Threads, A.Size);
  }
}

// Whether __pasta_div_access_lanes takes an access like A at a base uniform
// in each row of lanes plus Stride bytes per thread index x: 0 (one element
// per row) or the size (consecutive elements), or a larger multiple of a
// power-of-2 size up to 32 (a column of a tile, a padded row) whose figures
// follow from the lane mask: for a shared load or store of at most 4
// bytes, a multiple of 4 (a word per lane, its bank a multiple of the
// stride's words past the first's); for a global one, 32 or more (a sector
// per lane) or a power of 2 (lanes per sector); for an atomic, any.
bool pasta::lanesHelperTakes(const DivergencePlan::Access &A, int64_t Stride) {
  if (Stride == 0 || Stride == int64_t(A.Size))
    return true;
  if (!isPowerOf2_32(A.Size) || A.Size > 32 || Stride < int64_t(A.Size) ||
      Stride % A.Size != 0 || Stride > INT32_MAX)
    return false;
  if (!A.Sectored)
    return A.Space != PASTA_DIV_GENERIC;
  if (A.Space == PASTA_DIV_SHARED)
    return A.Size <= 4 && Stride % 4 == 0;
  return A.Space == PASTA_DIV_GLOBAL &&
         (Stride >= 32 || isPowerOf2_64(uint64_t(Stride)));
}

// The figures of an access at a base uniform in each row of lanes plus
// Stride bytes per thread index x (lanesHelperTakes) that
// __pasta_div_access_lanes leaves to read-back (device_rt_div_rows.inc.c,
// pasta_div_lanes_derived): its distinct bytes (its size per active lane,
// or per execution for stride 0); for a global load or store the sectors
// and ideal sectors of a full warp from a 32-byte boundary per execution
// (one and ceil(size / 32) for stride 0; else the size for stride = size,
// and the stride, at most 32, for larger strides); for a shared one at a
// larger stride, the bank conflicts of a full warp (lanes whose words are
// a multiple of 32 words apart share a bank: gcd(stride / 4, 32) lanes per
// bank). The helper adds only the measured figures' difference from these,
// 0 for full warps of aligned rows.
void pasta::deriveLaneShaped(ModuleTables &T, const DivergencePlan::Access &A,
                             uint64_t Stride) {
  uint32_t Row = T.DivRows[A.Row].counter;
  bool Shared = A.Space == PASTA_DIV_SHARED;
  bool Wider = Stride != 0 && Stride != A.Size;
  derive(T,
         Row + (Shared ? PASTA_DIV_DISTINCT_SHARED : PASTA_DIV_DISTINCT_GLOBAL),
         Stride ? A.Threads : A.Warps, A.Size);
  if (!A.Sectored)
    return;
  if (Shared) {
    uint64_t Words = Stride / 4;
    uint64_t PerBank =
        Words ? uint64_t(1) << std::min(countr_zero(Words), 5) : 1;
    if (Wider && PerBank > 1)
      derive(T, Row + PASTA_DIV_BANK_CONFLICTS, A.Warps, PerBank - 1);
    return;
  }
  uint64_t Sectors = !Stride  ? 1
                     : !Wider ? A.Size
                              : std::min<uint64_t>(Stride, 32);
  derive(T, Row + PASTA_DIV_SECTORS, A.Warps, Sectors);
  derive(T, Row + PASTA_DIV_IDEAL_SECTORS, A.Warps,
         Stride ? A.Size : (A.Size + 31) / 32);
}

// Whether an access's measurement produces a figure: requests and bytes
// only in generic accesses (known spaces derive them from their block's
// counters, deriveFromBlock), the figures of the address space it is known
// to be in (generic: either), and sectors and bank conflicts for loads and
// stores only.
bool pasta::accessMeasures(const DivergencePlan::Access &A, unsigned Figure) {
  bool Global = A.Space != PASTA_DIV_SHARED;
  bool Shared = A.Space != PASTA_DIV_GLOBAL;
  switch (Figure) {
  case PASTA_DIV_REQUESTS_GLOBAL:
  case PASTA_DIV_REQUESTS_SHARED:
  case PASTA_DIV_BYTES: // known spaces: derived from the block's counters
    return A.Space == PASTA_DIV_GENERIC;
  case PASTA_DIV_DISTINCT_GLOBAL:
    return Global;
  case PASTA_DIV_DISTINCT_SHARED:
    return Shared;
  case PASTA_DIV_SECTORS:
  case PASTA_DIV_IDEAL_SECTORS:
    return Global && A.Sectored;
  case PASTA_DIV_BANK_CONFLICTS:
    return Shared && A.Sectored;
  default:
    return true;
  }
}

// The alignment a uniform move of every lane's address must keep for the
// access's figures to stay the same (UniformLoops.h): 32-byte sectors for a
// load or store that can be global, 4-byte bank words for one that can only
// be shared, nothing for atomics (requests and bytes only).
uint64_t pasta::figureGranule(const DivergencePlan::Access &A) {
  if (!A.Sectored)
    return 1;
  return A.Space == PASTA_DIV_SHARED ? 4 : 32;
}

// The most any figure of one warp-level execution of A can be, or differ
// from what the pass derives for it: bytes and distinct bytes are at most
// a lane's size per lane, sectors ceil(size / 32) + 1 per lane, bank
// conflicts one per lane, requests 1.
uint64_t pasta::mostPerExecution(const DivergencePlan::Access &A) {
  return MaxLanes * (uint64_t(A.Size) + 2);
}
