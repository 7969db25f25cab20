//===- GridIndices.h - Intrinsics that read a thread's place ----*- C++ -*-===//
//
// Which intrinsic reads which index of a thread's place in the grid, on
// both targets: its index within the block, the block's index, the block's
// size and the grid's (AMDGPU reads the sizes from the dispatch packet, not
// through intrinsics). The analyses that ask what a value is built from
// (access classes, uniform loops, bounds checks, blocks alike in every
// thread block) each ask it here.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_GRIDINDICES_H
#define PASTA_PASSES_GRIDINDICES_H

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

namespace pasta {

enum class GridIndex { None, Thread, Block, BlockSize, GridSize };

struct GridRead {
  GridIndex Index = GridIndex::None;
  unsigned Dim = 0; // x, y, z: 0, 1, 2
};

inline GridRead gridRead(llvm::Intrinsic::ID ID) {
  using namespace llvm;
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::amdgcn_workitem_id_x:
    return {GridIndex::Thread, 0};
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::amdgcn_workitem_id_y:
    return {GridIndex::Thread, 1};
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::amdgcn_workitem_id_z:
    return {GridIndex::Thread, 2};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::amdgcn_workgroup_id_x:
    return {GridIndex::Block, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::amdgcn_workgroup_id_y:
    return {GridIndex::Block, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::amdgcn_workgroup_id_z:
    return {GridIndex::Block, 2};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    return {GridIndex::BlockSize, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    return {GridIndex::BlockSize, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return {GridIndex::BlockSize, 2};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    return {GridIndex::GridSize, 0};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    return {GridIndex::GridSize, 1};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return {GridIndex::GridSize, 2};
  default:
    return {};
  }
}

// threadIdx.x: the index that differs between the lanes of a warp.
inline bool readsThreadX(llvm::Intrinsic::ID ID) {
  GridRead R = gridRead(ID);
  return R.Index == GridIndex::Thread && R.Dim == 0;
}

// For tid.x & M (M + 1 a power of 2 up to 32) or tid.x % M (M a power of 2
// up to 32), a lane's place in a group of lanes that every warp of 32-lane
// rows holds whole: the group's size (M + 1, or M); else 0.
inline uint64_t laneGroup(const llvm::Value *V) {
  using namespace llvm;
  using namespace llvm::PatternMatch;
  const Value *X;
  const APInt *M;
  uint64_t Group;
  if (match(V, m_And(m_Value(X), m_APInt(M))))
    Group = M->getZExtValue() + 1;
  else if (match(V, m_URem(m_Value(X), m_APInt(M))))
    Group = M->getZExtValue();
  else
    return 0;
  const auto *II = dyn_cast<IntrinsicInst>(X);
  return II && readsThreadX(II->getIntrinsicID()) && Group <= 32 &&
                 isPowerOf2_64(Group)
             ? Group
             : 0;
}

} // namespace pasta

#endif
