//===- Scopes.h - Control-flow scopes (C.A.T.S.) ----------------*- C++ -*-===//
//
// A function's C.A.T.S. scopes: the function itself (a kernel is a parallel
// scope), its natural loops, and its structured conditionals. A conditional
// is a branch whose region (the blocks it reaches before its immediate
// post-dominator) stays inside its loop: no break, continue or return
// leaves it, so every entry is matched by an exit on an edge into the
// merge block. Other branches are not scopes.
//
// instrument() places enter and exit events: function entry and returns,
// loop entry and exit edges (with each execution's trip count), and
// conditional branches and the edges into their merge blocks. Edges that
// carry several events get them innermost exit first, outermost entry first,
// so the events nest.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_SCOPES_H
#define PASTA_PASSES_SCOPES_H

#include "pasta/abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"

#include <functional>
#include <vector>

namespace pasta {

struct Scope {
  pasta_scope_kind Kind = PASTA_SCOPE_FUNC;
  uint32_t Parent = PASTA_NONE; // local index of the enclosing scope
  uint32_t Nesting = 0;         // scopes enclosing it
  uint32_t LoopDepth = 0;       // loops enclosing it, itself included
  uint32_t Line = 0, Col = 0;
  // Where the scope starts (a scope inlined from a header is there, not in
  // the function's file); empty when unknown.
  llvm::StringRef Dir, File;
  uint32_t Id = 0;                   // stable (see assignIds)
  llvm::BasicBlock *Head = nullptr;  // entry block, loop header or branch block
  llvm::BasicBlock *Merge = nullptr; // conditionals: the post-dominator
  llvm::Loop *L = nullptr;
  // Blocks inside the scope (all of them for the function; a conditional's
  // branch block itself is outside).
  llvm::SmallPtrSet<const llvm::BasicBlock *, 8> Blocks;
};

// Where instrument() asks for code: the builder is positioned at the event.
struct ScopeHooks {
  std::function<void(llvm::IRBuilder<> &)> Prologue; // once, at entry
  std::function<void(llvm::IRBuilder<> &, uint32_t Local)> Enter;
  // Trips: i32 iterations of this loop execution (times a latch ran); null
  // for other scopes.
  std::function<void(llvm::IRBuilder<> &, uint32_t Local, llvm::Value *Trips)>
      Exit;
  // Optional: at a landing pad, whose innermost scope is Local: an
  // exception skipped the exits of the scopes it unwound.
  std::function<void(llvm::IRBuilder<> &, uint32_t Local)> Resume;
};

class FunctionScopes {
public:
  // StableName names the function in scope ids (the original's name for a
  // kernel copy, so that both get the same ids). The dominator trees and
  // loops come from FAM, and must be F's current ones.
  FunctionScopes(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                 bool IsKernel, llvm::StringRef StableName);

  const std::vector<Scope> &scopes() const { return Scopes; }
  // The innermost scope an instruction of BB belongs to (0: the function).
  uint32_t innermost(const llvm::BasicBlock *BB) const;
  // Adds the events and invalidates F's analyses: this object is done
  // afterwards (its scopes' blocks and loops are stale).
  void instrument(const ScopeHooks &H);

private:
  void addLoops(llvm::Loop *L);
  void addConditional(llvm::BasicBlock *B);
  void linkParents();
  void assignIds(llvm::StringRef StableName);

  llvm::Function &F;
  llvm::FunctionAnalysisManager &FAM;
  llvm::DominatorTree &DT;
  llvm::PostDominatorTree &PDT;
  llvm::LoopInfo &LI;
  std::vector<Scope> Scopes;
};

} // namespace pasta

#endif
