//===- DeviceRuntime.h - Link PASTA's device runtime ------------*- C++ -*-===//
#ifndef PASTA_PASSES_DEVICERUNTIME_H
#define PASTA_PASSES_DEVICERUNTIME_H

#include "Options.h"
#include "pasta/abi.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Module;
}

namespace pasta {

inline constexpr const char *DeviceFlushName = "__pasta_flush";
inline constexpr const char *DeviceFlushIndexedName = "__pasta_flush_indexed";
inline constexpr const char *DeviceFlushBitsName = "__pasta_flush_bits";
inline constexpr const char *DeviceFlushBitsPackedName =
    "__pasta_flush_bits_packed";
inline constexpr const char *CountLaunchName = "__pasta_count_launch";
inline constexpr const char *CountLaunchThreadsName =
    "__pasta_count_launch_threads";
inline constexpr const char *CountLaunchInlineName =
    "__pasta_count_launch_inline";
inline constexpr const char *CountLaunchThreadsInlineName =
    "__pasta_count_launch_threads_inline";
inline constexpr const char *CountGridStrideName = "__pasta_count_grid_stride";
inline constexpr const char *BankRowName = "__pasta_bank_row";
inline constexpr const char *FlushCounterName = "__pasta_flush_counter";
inline constexpr const char *FlushCounterFastName =
    "__pasta_flush_counter_fast";
inline constexpr const char *FlushIsFastName = "__pasta_flush_is_fast";
inline constexpr const char *FlushIsFullWarpName = "__pasta_flush_is_full_warp";
inline constexpr const char *FlushAnyName = "__pasta_flush_any";
// A function attribute: the cleanup after inlining runs on this divergence
// copy even where PASTA_CLEANUP leaves the others (DeviceRuntime.cpp).
inline constexpr const char *DivCleanupAttr = "pasta-div-cleanup";
inline constexpr const char *FirstBlockScaleName = "__pasta_first_block_scale";
inline constexpr const char *FlushScaledName = "__pasta_flush_scaled";
inline constexpr const char *FlushScaledInlineName =
    "__pasta_flush_scaled_inline";
inline constexpr const char *FlushScaledNonzeroName =
    "__pasta_flush_scaled_nonzero";
inline constexpr const char *FlushScaledFastName = "__pasta_flush_scaled_fast";
inline constexpr const char *WarpSumSmallName = "__pasta_warp_sum_small";
inline constexpr const char *WarpBitCountName = "__pasta_warp_bit_count";
inline constexpr const char *AddNonzeroName = "__pasta_add_nonzero";
inline constexpr const char *AddFromLaneZeroName = "__pasta_add_from_lane_zero";
inline constexpr const char *FlushBitsScaledName = "__pasta_flush_bits_scaled";
inline constexpr const char *FlushBitsScaledInlineName =
    "__pasta_flush_bits_scaled_inline";
inline constexpr const char *WarpOrName = "__pasta_warp_or";
inline constexpr const char *LaneIdName = "__pasta_lane_id";
inline constexpr const char *FlushBitFastName = "__pasta_flush_bit_fast";
inline constexpr const char *FlushBitLaneName = "__pasta_flush_bit_lane";
inline constexpr const char *CountLanesName = "__pasta_count_lanes";
inline constexpr const char *TailLanesName = "__pasta_tail_lanes";
inline constexpr const char *GatherLanesName = "__pasta_gather_lanes";
inline constexpr const char *FlushGroupName = "__pasta_flush_group";
inline constexpr const char *FlushGroupFastName = "__pasta_flush_group_fast";
inline constexpr const char *FlushHalfName = "__pasta_flush_half";
inline constexpr const char *FlushHalfFastName = "__pasta_flush_half_fast";

// Whether F is PASTA's own: a device runtime helper (or, linked, one of
// its internal functions), all named with the "__pasta" prefix.
inline bool isRuntimeFunction(const llvm::Function &F) {
  return F.getName().starts_with("__pasta");
}

// Marks an alloca the device runtime's inlined helpers load and store (the
// working-set caches, the trace masks): linkDeviceRuntime makes it a
// register once they are inlined. A mark, not a name: clang drops value
// names outside debug builds of LLVM.
void markRuntimeSlot(llvm::AllocaInst *Slot);

// Links the device runtime bitcode embedded in the plugin into M (only the
// functions M calls), makes it internal to M, gives it M's target CPU and
// features, and inlines its always_inline helpers; the copies Which names
// then get a short cleanup pipeline. Returns false (after a diagnostic) if
// the embedded bitcode could not be used.
bool linkDeviceRuntime(llvm::Module &M, pasta_target Target,
                       llvm::FunctionAnalysisManager &FAM,
                       Options::Cleanup Which);

} // namespace pasta

#endif
