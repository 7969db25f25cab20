//===- FrontendPlugin.cpp - libpasta-frontend.so, loaded by -fplugin= -----===//
//
// A clang frontend plugin that lets clang read CUDA written for nvcc: the
// main file and every user header it includes are rewritten in memory where
// they hold what nvcc's front end reads and clang's does not (NvccSyntax.h:
// launches written `<< < ... >> >`, `#define X #pragma ...`). Files on disk
// are never touched, and files without such text are left as read.
// It adds itself before clang's own action, which runs as usual.
//
//===----------------------------------------------------------------------===//

#include "NvccSyntax.h"
#include "OwnBuiltins.h"

#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace clang;

namespace {

// Takes the builtin meaning off the target builtins that Text declares as
// functions of its own (OwnBuiltins.h: VanitySearch's `__rdtsc`), before
// clang reads the declaration.
void ownBuiltinsOf(Preprocessor &PP, llvm::StringRef Text) {
  Builtin::Context &Builtins = PP.getBuiltinInfo();
  for (const std::string &Name :
       pasta::declaredFunctionNames(Text, PP.getLangOpts())) {
    IdentifierTable &Table = PP.getIdentifierTable();
    auto Entry = Table.find(Name);
    IdentifierInfo *II = Entry == Table.end() ? nullptr : Entry->second;
    unsigned ID = II ? II->getBuiltinID() : 0;
    if (ID && (Builtins.isTSBuiltin(ID) || Builtins.isAuxBuiltinID(ID)))
      II->clearBuiltinID();
  }
}

// Gives clang the rewritten text of File in place of the one on disk, where
// it needs one.
void rewriteNvccSyntaxOf(Preprocessor &PP, FileEntryRef File) {
  SourceManager &SM = PP.getSourceManager();
  std::optional<llvm::MemoryBufferRef> Text =
      SM.getMemoryBufferForFileOrNone(File);
  if (!Text)
    return;
  ownBuiltinsOf(PP, Text->getBuffer());
  std::optional<std::string> Rewritten =
      pasta::rewriteNvccSyntax(Text->getBuffer());
  if (!Rewritten)
    return;
  SM.overrideFileContents(
      File, llvm::MemoryBuffer::getMemBufferCopy(*Rewritten, File.getName()));
}

// Every user header, as the preprocessor finds it and before it reads it.
class RewriteUserHeaders : public PPCallbacks {
public:
  explicit RewriteUserHeaders(Preprocessor &PP) : PP(PP) {}

  void InclusionDirective(SourceLocation, const Token &, StringRef, bool,
                          CharSourceRange, OptionalFileEntryRef File, StringRef,
                          StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind FileType) override {
    if (!File || FileType != SrcMgr::C_User || !Seen.insert(*File).second)
      return;
    rewriteNvccSyntaxOf(PP, *File);
  }

private:
  Preprocessor &PP;
  llvm::DenseSet<FileEntryRef> Seen;
};

class RewriteNvccSyntaxAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    const LangOptions &Lang = CI.getLangOpts();
    if ((Lang.CUDA || Lang.HIP) && CI.hasPreprocessor())
      rewriteNvccSyntax(CI.getPreprocessor());
    return std::make_unique<ASTConsumer>();
  }

  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  static void rewriteNvccSyntax(Preprocessor &PP) {
    SourceManager &SM = PP.getSourceManager();
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      rewriteNvccSyntaxOf(PP, *Main);
    PP.addPPCallbacks(std::make_unique<RewriteUserHeaders>(PP));
  }
};

} // namespace

static FrontendPluginRegistry::Add<RewriteNvccSyntaxAction>
    RewriteNvccSyntax("pasta-nvcc-syntax",
                      "read CUDA written for nvcc: launches written "
                      "`<< < ... >> >`, #pragma in macros");
