// LoopRewriter.h: replaces a marked loop in the AST by
// `if (!weft::detail::launch(descriptor, source, captures...)) <loop>`.
#ifndef WEFT_PLUGIN_REWRITE_LOOPREWRITER_H
#define WEFT_PLUGIN_REWRITE_LOOPREWRITER_H

#include "recognize/NestRecognizer.h"

#include "clang/AST/Decl.h"
#include "clang/Sema/Sema.h"

namespace weft::rewrite {

/// Builds the replacement of Original (the loop, or the attributed statement
/// around it) inside function FD; Site names the launch (its first
/// kernel's name). Returns null after a diagnostic.
clang::Stmt *buildLaunch(clang::Sema &S, clang::FunctionDecl *FD,
                         clang::Stmt *Original,
                         const recognize::RecognizedNest &Nest,
                         const std::string &Descriptor,
                         const std::string &Source, llvm::StringRef Site);

} // namespace weft::rewrite

#endif
