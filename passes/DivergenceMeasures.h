//===- DivergenceMeasures.h - The measuring code of one copy ----*- C++ -*-===//
//
// The code a divergence copy (Divergence.h) measures its planned blocks,
// segments, branches and accesses with, and its registers' flushes: one
// CopyMeasures per copy, filled by createDivergenceVariants
// (DivergenceEmission.cpp), which finds the planned instructions in the
// copy.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_DIVERGENCEMEASURES_H
#define PASTA_PASSES_DIVERGENCEMEASURES_H

#include "Divergence.h"
#include "ModuleTables.h"
#include "UniformLoops.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <memory>
#include <utility>

namespace pasta {

// The runtime's measuring helpers (device_rt.c, "Divergence mode").
struct DivHelpers {
  llvm::FunctionCallee Access, AccessLanes, Branch, Switch, Block, Add, BankRow,
      AllLanes, Uniform, RowWidth;
  // The access helpers out of line, their figures written to an array.
  llvm::FunctionCallee AccessOut, AccessLanesOut;
  // The branch, switch and block helpers for code outside loops: they add
  // to the counters themselves.
  llvm::FunctionCallee BranchAdd, SwitchAdd, BlockAdd;
  // A kernel entry's warps and threads, added once per launch.
  llvm::FunctionCallee CountLaunch;
};

// A planned access in a divergence copy: its pointer there.
struct AccessSite {
  const DivergencePlan::Access *A;
  llvm::Instruction *I;
  llvm::Value *Ptr;
};

// One divergence copy being instrumented (DivergenceMeasures.cpp says
// where each figure goes). Its blocks, segments and branches first, then
// its accesses block by block; then measureAccesses and emitFlushes, once.
class CopyMeasures {
public:
  CopyMeasures(llvm::Function &Copy, ModuleTables &T, UniformLoops &Loops,
               const DivHelpers &H, uint32_t DrainVisits);
  ~CopyMeasures();

  // The counters of Planned's block (in the copy: BB), measured at its top.
  void addBlock(llvm::BasicBlock &BB, const DivergencePlan::Block &Planned);
  // The warp executions after a call (DivergencePlan::Segment).
  void addSegment(llvm::Instruction &Call, uint32_t Warps);
  // A conditional branch or switch's divergent executions.
  void addBranch(llvm::Instruction &Term, uint32_t Row);
  // The accesses of one block, in order.
  void planAccesses(llvm::ArrayRef<AccessSite> Sites);
  void measureAccesses();
  // The registers' flushes at every return.
  void emitFlushes();
  // Access groups planned, and how many of them are lane-shaped (a known
  // stride per thread index x: UniformLoops::laneStride).
  std::pair<unsigned, unsigned> accessGroups() const;

private:
  class Impl;
  std::unique_ptr<Impl> P;
};

} // namespace pasta

#endif
