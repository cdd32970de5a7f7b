// SharedMemoryTest.cpp: which arguments sharing memory a kernel is wrong on:
// a written span beside one the kernel keeps copies of, rows held apart
// beside a span inside them or rows of their own, spans that loops the
// plugin found parallel take apart, but not spans read alone,
// nor plain spans (they share one device copy), nor neighbours that touch.
#include "launch/SharedMemory.h"

#include <gtest/gtest.h>

#include <vector>

using namespace weft::rt;
using weft::detail::LaunchArg;
using weft::detail::RowPiece;
using weft::detail::RowsArg;

namespace {

ParamInfo span(ParamKind Kind, const char *Name, bool Kept = false) {
  ParamInfo P;
  P.Kind = Kind;
  P.Type = ScalarType::F32;
  P.Name = Name;
  P.Bytes = sizeof(float);
  P.Kept = Kept;
  return P;
}

LaunchArg arg(const float *Data, std::size_t Count) {
  return {Data, Count, sizeof(float)};
}

std::string conflict(const std::vector<ParamInfo> &Params,
                     const std::vector<LaunchArg> &Args) {
  KernelInfo K;
  K.Params = Params;
  std::vector<MemoryPiece> Pieces;
  return sharedMemoryConflict(K, Args.data(), Args.size(), Pieces);
}

TEST(SharedMemory, KeptSpanBesideAWrittenOne) {
  std::vector<float> V(100), W(100);
  const std::vector<ParamInfo> Params = {span(ParamKind::InOut, "acc", true),
                                         span(ParamKind::In, "in")};
  EXPECT_EQ(conflict(Params, {arg(V.data(), 100), arg(V.data(), 100)}),
            "the kernel writes 'acc' and keeps copies of it in shared memory "
            "or registers, and this call passes 'in' over the same memory");
  // Part of it; the tail of one the head of the other.
  EXPECT_NE(conflict(Params, {arg(V.data(), 50), arg(V.data() + 49, 51)}), "");
  EXPECT_NE(conflict(Params, {arg(V.data() + 49, 51), arg(V.data(), 50)}), "");
  // Touching is not sharing; apart, empty.
  EXPECT_EQ(conflict(Params, {arg(V.data(), 50), arg(V.data() + 50, 50)}), "");
  EXPECT_EQ(conflict(Params, {arg(V.data(), 100), arg(W.data(), 100)}), "");
  EXPECT_EQ(conflict(Params, {arg(V.data(), 100), arg(V.data(), 0)}), "");
  // The kept one read, the other written.
  EXPECT_EQ(
      conflict({span(ParamKind::In, "a", true), span(ParamKind::Out, "c")},
               {arg(V.data(), 100), arg(V.data() + 10, 10)}),
      "the kernel writes 'c' and keeps copies of 'a' in shared memory "
      "or registers, and this call passes them over the same memory");
}

TEST(SharedMemory, SpansTakenApartByFoundLoops) {
  std::vector<float> V(100), W(100);
  auto apart = [](ParamKind Kind, const char *Name) {
    ParamInfo P = span(Kind, Name);
    P.Apart = true;
    return P;
  };
  const std::vector<ParamInfo> Params = {apart(ParamKind::Out, "out"),
                                         apart(ParamKind::In, "in")};
  EXPECT_EQ(conflict(Params, {arg(V.data() + 1, 99), arg(V.data(), 99)}),
            "the kernel writes 'out' in loops the plugin found parallel or "
            "reordered taking 'out' and 'in' as two arrays, and this call "
            "passes them over the same memory");
  EXPECT_EQ(conflict(Params, {arg(V.data(), 100), arg(W.data(), 100)}), "");
  // Read alone, they may share.
  EXPECT_EQ(conflict({apart(ParamKind::In, "a"), apart(ParamKind::In, "b")},
                     {arg(V.data(), 100), arg(V.data(), 100)}),
            "");
  // A kept copy says so first.
  EXPECT_EQ(
      conflict({apart(ParamKind::InOut, "c"), span(ParamKind::In, "a", true)},
               {arg(V.data(), 100), arg(V.data(), 100)}),
      "the kernel writes 'c' and keeps copies of 'a' in shared memory "
      "or registers, and this call passes them over the same memory");
}

TEST(SharedMemory, ReadsAndPlainSpansMayShare) {
  std::vector<float> V(100);
  // A * A: both kept, neither written.
  EXPECT_EQ(
      conflict({span(ParamKind::In, "a", true), span(ParamKind::In, "b", true),
                span(ParamKind::Out, "c")},
               {arg(V.data(), 50), arg(V.data(), 50), arg(V.data() + 50, 50)}),
      "");
  // Written, but nothing kept: one device copy serves both.
  EXPECT_EQ(conflict({span(ParamKind::InOut, "out"), span(ParamKind::In, "in")},
                     {arg(V.data(), 100), arg(V.data(), 100)}),
            "");
  // A kept one beside a third that shares only with a read one.
  EXPECT_EQ(
      conflict({span(ParamKind::In, "a", true), span(ParamKind::In, "b"),
                span(ParamKind::Out, "c")},
               {arg(V.data(), 40), arg(V.data(), 60), arg(V.data() + 60, 40)}),
      "");
  // Found past a long read-only piece that starts first.
  EXPECT_NE(
      conflict(
          {span(ParamKind::In, "all"), span(ParamKind::In, "a", true),
           span(ParamKind::Out, "c")},
          {arg(V.data(), 100), arg(V.data() + 10, 10), arg(V.data() + 15, 10)}),
      "");
}

ParamInfo Read(ParamInfo P) {
  P.Kind = ParamKind::In;
  return P;
}

TEST(SharedMemory, RowsHeldApart) {
  std::vector<float> A(10), B(10), C(10), D(10);
  const RowPiece Pieces[] = {{A.data(), 10}, {B.data(), 10}, {C.data(), 10}};
  const RowsArg Rows{Pieces, 3};
  ParamInfo R = span(ParamKind::InOut, "rows");
  R.RowsApart = true;
  const LaunchArg RowsArgument{&Rows, 30, sizeof(float)};
  // A span inside one of the rows, one of them written.
  EXPECT_EQ(conflict({R, span(ParamKind::In, "first")},
                     {RowsArgument, arg(B.data() + 2, 3)}),
            "the kernel writes 'rows' and gathers its rows into a copy of "
            "their own, and this call passes 'first' over the same memory");
  EXPECT_EQ(conflict({span(ParamKind::InOut, "out"), Read(R)},
                     {arg(A.data() + 5, 5), RowsArgument}),
            "the kernel writes 'out' and gathers the rows of 'rows' into a "
            "copy of their own, and this call passes them over the same "
            "memory");
  EXPECT_EQ(conflict({R, span(ParamKind::In, "other")},
                     {RowsArgument, arg(D.data(), 10)}),
            "");
  // A vector's rows (row offsets beside them): cannot overlap one another,
  // so the spans are checked against them one by one.
  ParamInfo Vectors = R;
  Vectors.Name = "table";
  Vectors.RowOffsets = 2;
  EXPECT_EQ(conflict({Vectors, span(ParamKind::In, "first"),
                      span(ParamKind::In, "offsets")},
                     {RowsArgument, arg(C.data() + 9, 1), arg(D.data(), 4)}),
            "the kernel writes 'table' and gathers its rows into a copy of "
            "their own, and this call passes 'first' over the same memory");
  EXPECT_EQ(conflict({Vectors, span(ParamKind::In, "other"),
                      span(ParamKind::In, "offsets")},
                     {RowsArgument, arg(D.data(), 10), arg(D.data(), 4)}),
            "");
  // Two parameters of rows sharing one (sorted together).
  const RowPiece Others[] = {{D.data(), 10}, {B.data() + 5, 5}};
  const RowsArg OtherRows{Others, 2};
  EXPECT_EQ(conflict({Read(R), Vectors},
                     {RowsArgument, {&OtherRows, 15, sizeof(float)}}),
            "the kernel writes 'table' and gathers its rows into a copy of "
            "their own, and this call passes 'rows' over the same memory");
  // Rows that are one row twice.
  const RowPiece Twice[] = {{A.data(), 10}, {A.data(), 10}};
  const RowsArg Repeated{Twice, 2};
  EXPECT_EQ(conflict({R}, {{&Repeated, 20, sizeof(float)}}),
            "the kernel writes 'rows', and this call passes rows of it that "
            "overlap one another");
  EXPECT_EQ(conflict({Read(R), span(ParamKind::Out, "out")},
                     {{&Repeated, 20, sizeof(float)}, arg(D.data(), 10)}),
            "");
}

} // namespace
