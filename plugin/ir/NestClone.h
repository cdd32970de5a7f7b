// NestClone.h: deep copies of the nest IR, so that one recognized nest can
// be lowered two ways (rows held apart read through their offsets, or as
// rows of one length) without walking the AST again.
#ifndef WEFT_PLUGIN_IR_NESTCLONE_H
#define WEFT_PLUGIN_IR_NESTCLONE_H

#include "ir/NestIR.h"

namespace weft::ir {

/// A copy of S, its children, nested level and expressions and all.
StmtPtr cloneStmt(const Stmt &S);
/// A copy of L, its bounds and body and all.
Level cloneLevel(const Level &L);
/// A copy of F, its body and all.
Function cloneFunction(const Function &F);
/// A copy of N: its parameters, structs, levels, functions and the facts
/// its analyses recorded.
Nest cloneNest(const Nest &N);

} // namespace weft::ir

#endif
