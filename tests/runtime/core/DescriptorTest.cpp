// DescriptorTest.cpp: parsing descriptors and evaluating loop bounds from
// launch arguments.
#include "core/LaunchBounds.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace weft::rt;
using weft::detail::LaunchArg;
using weft::detail::RowsArg;

namespace {

const char *const Saxpy = "weft 8\nkernel k\nloc a.cpp:3:5\n"
                          "param in f32 x\nparam inout f32 y\n"
                          "param scalar i64 n\nparam scalar u8 c\n"
                          "level (lit 1) (sub (min (arg 2) (size 0)) (lit 1)) "
                          "2 lt\nmap 0 y 128 span 1\n"
                          "map 1 x 32 span 1 (lit 0) (arg 2) 1 le\n"
                          "reduce 3 max\nbuffer 8 (mul (arg 2) (lit 3))\n";

TEST(Descriptor, Parses) {
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(Saxpy, K, Error)) << Error;
  EXPECT_EQ(K.Name, "k");
  EXPECT_EQ(K.Location, "a.cpp:3:5");
  ASSERT_EQ(K.Params.size(), 4u);
  EXPECT_TRUE(K.Params[0].readsDevice());
  EXPECT_FALSE(K.Params[0].writesDevice());
  EXPECT_TRUE(K.Params[1].writesDevice());
  EXPECT_FALSE(K.Params[2].isSpan());
  EXPECT_EQ(K.Params[3].Type, ScalarType::U8);
  EXPECT_EQ(K.Params[3].Kind, ParamKind::ReductionTarget);
  ASSERT_EQ(K.Dimensions.size(), 2u);
  EXPECT_EQ(K.Dimensions[0].Axis, 1);
  EXPECT_EQ(K.Dimensions[0].Block, 128u);
  EXPECT_EQ(K.Dimensions[1].Depth, 1u);
  EXPECT_TRUE(K.Dimensions[1].Bounds.Inclusive);
  ASSERT_EQ(K.Reductions.size(), 1u);
  EXPECT_EQ(K.Reductions[0].Op, ReduceOp::Max);
  ASSERT_EQ(K.Buffers.size(), 1u);
  EXPECT_EQ(K.Buffers[0].ElementBytes, 8u);
  std::int64_t N = 5, Extent = 0;
  std::uint8_t C = 0;
  float X[1], Y[1];
  LaunchArg Args[] = {{X, 1, 4}, {Y, 1, 4}, {&N, 1, 8}, {&C, 1, 1}};
  ASSERT_TRUE(evaluateBound(K.Buffers[0].Extent, K, Args, 4, Extent, Error));
  EXPECT_EQ(Extent, 15);
  ASSERT_EQ(K.Levels.size(), 1u);
  EXPECT_EQ(K.Levels[0].Step, 2);
}

TEST(Descriptor, TripCountFromArguments) {
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(Saxpy, K, Error));
  float X[10] = {}, Y[10] = {};
  std::int64_t N = 7;
  std::uint8_t C = 0;
  LaunchArg Args[] = {{X, 10, 4}, {Y, 10, 4}, {&N, 1, 8}, {&C, 1, 1}};
  std::int64_t Lower = -1, Count = -1;
  ASSERT_TRUE(evaluateTripCount(K.Levels[0], K, Args, 4, Lower, Count, Error))
      << Error;
  EXPECT_EQ(Lower, 1);
  EXPECT_EQ(Count, 3); // i = 1, 3, 5 < min(7, 10) - 1
  N = 100;             // the span's size bounds it now: i = 1, 3, 5, 7 < 9
  ASSERT_TRUE(evaluateTripCount(K.Levels[0], K, Args, 4, Lower, Count, Error));
  EXPECT_EQ(Count, 4);
  N = -5;
  ASSERT_TRUE(evaluateTripCount(K.Levels[0], K, Args, 4, Lower, Count, Error));
  EXPECT_EQ(Count, 0);
}

TEST(Descriptor, InclusiveBound) {
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(
      "weft 8\nkernel k\nparam scalar i32 n\nlevel (lit 0) (arg 0) 1 le\n", K,
      Error));
  std::int32_t N = 9;
  LaunchArg Args[] = {{&N, 1, 4}};
  std::int64_t Lower, Count;
  ASSERT_TRUE(evaluateTripCount(K.Levels[0], K, Args, 1, Lower, Count, Error));
  EXPECT_EQ(Count, 10);
}

TEST(Descriptor, BadBoundsAreErrors) {
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(parseDescriptor("weft 8\nkernel k\nparam scalar f32 a\n"
                              "param scalar i32 z\n"
                              "level (lit 0) (div (lit 4) (arg 1)) 1 lt\n",
                              K, Error));
  float A = 1;
  std::int32_t Z = 0;
  LaunchArg Args[] = {{&A, 1, 4}, {&Z, 1, 4}};
  std::int64_t V;
  EXPECT_FALSE(evaluateBound(K.Levels[0].Upper, K, Args, 2, V, Error));
  EXPECT_NE(Error.find("division by zero"), std::string::npos);
  BoundExpr FloatArg{BoundExpr::Arg, 0, {}};
  EXPECT_FALSE(evaluateBound(FloatArg, K, Args, 2, V, Error));
  EXPECT_NE(Error.find("not an integer"), std::string::npos);
  BoundExpr Missing{BoundExpr::Size, 5, {}};
  EXPECT_FALSE(evaluateBound(Missing, K, Args, 2, V, Error));
}

TEST(Descriptor, CombiningKernelAndTuning) {
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(
      parseDescriptor("weft 8\nkernel k\nloc a.cpp:1:1\n"
                      "level (lit 0) (lit 9) 1 lt\n"
                      "map 0 y 1 span 1\nmap 1 x 128 split 6\n"
                      "combine k_combine 256\nsplit 8\nsplit 4\n"
                      "tune WEFT_BLOCK_Y y 128 64 256\n"
                      "tune WEFT_TILE text 32 16\ntune WEFT_TM n0 4 2 8\n"
                      "shared (mul (tune 1) (lit 4))\nreorders\n",
                      K, Error))
      << Error;
  EXPECT_EQ(K.Combine.Name, "k_combine");
  EXPECT_EQ(K.Combine.Block, 256u);
  EXPECT_EQ(K.Combine.PartialBytes, (std::vector<std::size_t>{8, 4}));
  ASSERT_EQ(K.Tune.Params.size(), 3u);
  EXPECT_EQ(K.Tune.Params[0].Macro, "WEFT_BLOCK_Y");
  EXPECT_EQ(K.Tune.Params[0].Role, weft::contract::TuneRole::Block);
  EXPECT_EQ(K.Tune.Params[0].Target, 1);
  EXPECT_EQ(K.Tune.Params[0].Values, (std::vector<unsigned>{128, 64, 256}));
  EXPECT_EQ(K.Tune.Params[1].Role, weft::contract::TuneRole::Text);
  EXPECT_EQ(K.Tune.Params[2].Role, weft::contract::TuneRole::SpanN);
  EXPECT_EQ(K.Tune.Params[2].Target, 0);
  ASSERT_TRUE(K.Tune.SharedBytes.has_value());
  EXPECT_EQ(weft::contract::writeBound(*K.Tune.SharedBytes),
            "(mul (tune 1) (lit 4))");
  EXPECT_TRUE(K.Tune.Reorders);
  // The text form round-trips.
  KernelInfo Again;
  ASSERT_TRUE(parseDescriptor(weft::contract::writeDescriptor(K), Again, Error))
      << Error;
  EXPECT_EQ(weft::contract::writeDescriptor(Again),
            weft::contract::writeDescriptor(K));
}

// Rows held apart: the span's argument is a RowsArg; the line round-trips
// and names a span.
TEST(Descriptor, RowsApart) {
  const char *const Text =
      "weft 8\nkernel k\nloc a.cpp:1:1\n"
      "param inout f32 m\nparam in u64 m_rows\n"
      "rows 0 1\nlevel (lit 0) (sub (size 1) (lit 1)) 1 lt\n";
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(Text, K, Error)) << Error;
  EXPECT_TRUE(K.Params[0].RowsApart);
  EXPECT_EQ(K.Params[0].RowOffsets, 1);
  EXPECT_FALSE(K.Params[1].RowsApart);
  EXPECT_NE(weft::contract::writeDescriptor(K).find("\nrows 0 1\n"),
            std::string::npos);
  KernelInfo Again;
  ASSERT_TRUE(
      parseDescriptor(weft::contract::writeDescriptor(K), Again, Error));
  EXPECT_TRUE(Again.Params[0].RowsApart);
  for (const char *Bad :
       {"weft 8\nkernel k\nparam scalar i32 n\nrows 0\n",
        "weft 8\nkernel k\nparam inout f32 m\nrows 1\n",
        "weft 8\nkernel k\nparam inout f32 m\nrows 0 1\n",
        "weft 8\nkernel k\nparam inout f32 m\nrows\n",
        "weft 8\nkernel k\nparam inout f32 m\nrows 0 0\n",
        "weft 8\nkernel k\nparam inout f32 m\nparam in u64 r\nrows 0 2\n",
        "weft 8\nkernel k\nparam inout f32 m\nparam inout u64 r\nrows 0 1\n",
        "weft 8\nkernel k\nparam inout f32 m\nparam in u32 r\nrows 0 1\n"}) {
    KernelInfo B;
    EXPECT_FALSE(parseDescriptor(Bad, B, Error)) << Bad;
  }
}

// The keeps and apart lines: a span the kernel keeps copies of, and one the
// proof of loops found parallel takes as an array of its own.
TEST(Descriptor, SpansKeptOrTakenApart) {
  for (const std::string Key : {"keeps", "apart"}) {
    const auto Flag = Key == "keeps" ? &weft::contract::ParamInfo::Kept
                                     : &weft::contract::ParamInfo::Apart;
    const auto Other = Key == "keeps" ? &weft::contract::ParamInfo::Apart
                                      : &weft::contract::ParamInfo::Kept;
    KernelInfo K;
    std::string Error;
    ASSERT_TRUE(parseDescriptor("weft 8\nkernel k\nparam inout f32 c\n"
                                "param scalar i32 n\nparam in f32 a\n" +
                                    Key + " 0\n" + Key +
                                    " 2\nlevel (lit 0) (arg 1) 1 lt\n",
                                K, Error))
        << Error;
    EXPECT_TRUE(K.Params[0].*Flag);
    EXPECT_TRUE(K.Params[2].*Flag);
    EXPECT_FALSE(K.Params[2].*Other);
    EXPECT_NE(weft::contract::writeDescriptor(K).find("\n" + Key + " 0\n" +
                                                      Key + " 2\n"),
              std::string::npos);
    for (const std::string Bad :
         {"param scalar i32 n\n" + Key + " 0\n",
          "param in f32 a\n" + Key + " 1\n", "param in f32 a\n" + Key + "\n",
          "param in f32 a\n" + Key + " x\n",
          "param in f32 a\n" + Key + " 0 0\n"}) {
      KernelInfo B;
      EXPECT_FALSE(parseDescriptor("weft 8\nkernel k\n" + Bad, B, Error))
          << Bad;
      EXPECT_NE(Error.find("bad " + Key), std::string::npos) << Error;
    }
  }
}

TEST(Descriptor, GridCoverageClaim) {
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(parseDescriptor("weft 8\nkernel k\nloc a.cpp:1:1\n"
                              "param scalar i32 cols\nparam inout f32 out\n"
                              "covers 1 (arg 0) (mul (arg 0) (lit 1))\n"
                              "level (lit 0) (lit 9) 1 lt\n",
                              K, Error))
      << Error;
  EXPECT_FALSE(K.Params[0].CoverCols);
  ASSERT_TRUE(K.Params[1].CoverCols);
  ASSERT_TRUE(K.Params[1].CoverStride);
  KernelInfo Bad;
  EXPECT_FALSE(parseDescriptor("weft 8\nkernel k\nparam inout f32 out\n"
                               "covers 3 (arg 0) (arg 0)\n"
                               "level (lit 0) (lit 9) 1 lt\n",
                               Bad, Error));
}

// Rows held as pointers without their extent: the launch gathers rows [0,
// highest row] of elements [0, highest column], each from its row pointer,
// and passes their length as the columns scalar; crossed bounds gather
// nothing; a subscript below 0 is an error (the call runs on the host).
TEST(Descriptor, RowsGatheredBySubscripts) {
  KernelInfo K;
  std::string Error;
  const std::string Text = "weft 8\nkernel k\nloc a.cpp:1:1\n"
                           "param scalar i32 n\nparam inout f32 w\n"
                           "param scalar i64 w_columns\nrows 1\n"
                           "gather 1 2 (sub (lit 1) (arg 0)) (arg 0) (lit 0) "
                           "(add (arg 0) (lit 1))\n"
                           "level (lit 0) (arg 0) 1 lt\n";
  ASSERT_TRUE(parseDescriptor(Text, K, Error)) << Error;
  ASSERT_TRUE(K.Params[1].Gathered);
  EXPECT_EQ(K.Params[1].Gathered->Columns, 2u);
  EXPECT_NE(writeDescriptor(K).find("gather 1 2 (sub (lit 1) (arg 0)) (arg 0) "
                                    "(lit 0) (add (arg 0) (lit 1))\n"),
            std::string::npos);
  float Row0[4] = {}, Row1[4] = {}, Row2[4] = {};
  float *Rows[] = {Row0, Row1, Row2};
  std::int32_t N = 1;
  std::int64_t Placeholder = 0;
  const LaunchArg Args[] = {
      {&N, 1, 4}, {Rows, 0, sizeof(float *)}, {&Placeholder, 1, 8}};
  SizedArguments Sized;
  // Rows 0 to 1 of columns 0 to 2.
  const LaunchArg *A = sizedArgs(K, Args, 3, Sized, Error);
  ASSERT_TRUE(A) << Error;
  const auto &Gathered = *static_cast<const RowsArg *>(A[1].Data);
  ASSERT_EQ(Gathered.NumRows, 2u);
  EXPECT_EQ(Gathered.Rows[0].Data, Row0);
  EXPECT_EQ(Gathered.Rows[1].Data, Row1);
  EXPECT_EQ(Gathered.Rows[1].Count, 3u);
  EXPECT_EQ(A[1].Count, 6u);
  EXPECT_EQ(A[1].ElementSize, 4u);
  EXPECT_EQ(*static_cast<const std::int64_t *>(A[2].Data), 3);
  EXPECT_EQ(Args[1].Count, 0u); // the call's own are left as they are
  EXPECT_EQ(Placeholder, 0);
  N = 0; // rows 1 to 0: none
  A = sizedArgs(K, Args, 3, Sized, Error);
  ASSERT_TRUE(A) << Error;
  EXPECT_EQ(static_cast<const RowsArg *>(A[1].Data)->NumRows, 0u);
  EXPECT_EQ(A[1].Count, 0u);
  N = 2; // rows -1 to 2: before where the rows start
  EXPECT_FALSE(sizedArgs(K, Args, 3, Sized, Error));
  EXPECT_NE(Error.find("the rows of 'w' are indexed from (-1, 0)"),
            std::string::npos)
      << Error;
  for (const char *Bad :
       {"gather 1 2 (lit 0) (lit 1) (lit 0)\n",            // a bound short
        "gather 1 0 (lit 0) (lit 1) (lit 0) (lit 1)\n",    // columns an i32
        "gather 2 1 (lit 0) (lit 1) (lit 0) (lit 1)\n",    // a scalar's rows
        "gather 1 3 (lit 0) (lit 1) (lit 0) (lit 1)\n"}) { // no such param
    KernelInfo Refused;
    EXPECT_FALSE(parseDescriptor(std::string("weft 8\nkernel k\n"
                                             "param scalar i32 n\n"
                                             "param inout f32 w\n"
                                             "param scalar i64 c\nrows 1\n") +
                                     Bad + "level (lit 0) (arg 0) 1 lt\n",
                                 Refused, Error))
        << Bad;
  }
  // Without the rows line the rows are not held apart.
  KernelInfo NotApart;
  EXPECT_FALSE(parseDescriptor("weft 8\nkernel k\nparam scalar i32 n\n"
                               "param inout f32 w\nparam scalar i64 c\n"
                               "gather 1 2 (lit 0) (lit 1) (lit 0) (lit 1)\n"
                               "level (lit 0) (arg 0) 1 lt\n",
                               NotApart, Error));
}

// A pointer passed without its extent: the launch sizes it by its
// subscripts' bounds, [0, highest]; no iteration indexes it where the
// bounds cross; a subscript below 0 is an error (the call runs on the host).
TEST(Descriptor, PointersSizedBySubscripts) {
  KernelInfo K;
  std::string Error;
  ASSERT_TRUE(parseDescriptor("weft 8\nkernel k\nloc a.cpp:1:1\n"
                              "param scalar i32 n\nparam inout f32 p\n"
                              "param in f32 q\n"
                              "extent 1 (sub (lit 1) (arg 0)) (sub (arg 0) "
                              "(lit 1))\nlevel (lit 0) (arg 0) 1 lt\n",
                              K, Error))
      << Error;
  ASSERT_TRUE(K.Params[1].HighestIndex);
  EXPECT_FALSE(K.Params[2].HighestIndex);
  EXPECT_NE(writeDescriptor(K).find("extent 1 (sub (lit 1) (arg 0)) "
                                    "(sub (arg 0) (lit 1))\n"),
            std::string::npos);
  float P[8] = {}, Q[3] = {};
  std::int32_t N = 6;
  const LaunchArg Args[] = {{&N, 1, 4}, {P, 0, 4}, {Q, 3, 4}};
  SizedArguments Sized;
  N = 1; // subscripts 0 to 0
  const LaunchArg *A = sizedArgs(K, Args, 3, Sized, Error);
  ASSERT_TRUE(A) << Error;
  EXPECT_EQ(A[1].Count, 1u);
  EXPECT_EQ(A[1].Data, P);
  EXPECT_EQ(A[2].Count, 3u);    // stated: as passed
  EXPECT_EQ(Args[1].Count, 0u); // the call's own are left as they are
  N = 0;                        // 1 to -1: no subscript
  A = sizedArgs(K, Args, 3, Sized, Error);
  ASSERT_TRUE(A) << Error;
  EXPECT_EQ(A[1].Count, 0u);
  N = 6; // -5 to 5: before where p points
  EXPECT_FALSE(sizedArgs(K, Args, 3, Sized, Error));
  EXPECT_NE(Error.find("pointer 'p' is indexed from -5"), std::string::npos)
      << Error;
  // A bound reading the size of a pointer sized here would read none.
  KernelInfo Cross;
  ASSERT_TRUE(parseDescriptor("weft 8\nkernel k\nparam scalar i32 n\n"
                              "param inout f32 p\nparam in f32 q\n"
                              "extent 1 (lit 0) (size 2)\n"
                              "extent 2 (lit 0) (arg 0)\n"
                              "level (lit 0) (arg 0) 1 lt\n",
                              Cross, Error))
      << Error;
  EXPECT_FALSE(sizedArgs(Cross, Args, 3, Sized, Error));
  EXPECT_NE(Error.find("reads the size of a pointer without one"),
            std::string::npos)
      << Error;
  // Nothing to size: the arguments themselves.
  KernelInfo Plain;
  ASSERT_TRUE(parseDescriptor(Saxpy, Plain, Error));
  EXPECT_EQ(sizedArgs(Plain, Args, 3, Sized, Error), Args);
  for (const char *Bad : {"extent 0 (lit 0) (lit 1)\n", // a scalar
                          "extent 1 (lit 0)\n", "extent 9 (lit 0) (lit 1)\n",
                          "extent 1 (lit 0) (lit 1) (lit 2)\n"})
    EXPECT_FALSE(parseDescriptor(std::string("weft 8\nkernel k\n"
                                             "param scalar i32 n\n"
                                             "param inout f32 p\n") +
                                     Bad + "level (lit 0) (lit 1) 1 lt\n",
                                 K, Error))
        << Bad;
}

TEST(Descriptor, MalformedIsRejected) {
  for (const char *Text :
       {"", "kernel k\nlevel (lit 0) (lit 1) 1 lt\n",
        "weft 1\nkernel k\nlevel (lit 0) (lit 1) 1 lt\n",
        "weft 9\nkernel k\nlevel (lit 0) (lit 1) 1 lt\n", "weft 8\nkernel k\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 0 lt\n",
        "weft 8\nkernel k\nlevel (lit 0) (pow 1 2) 1 lt\n",
        "weft 8\nkernel k\nparam sideways f32 x\nlevel (lit 0) (lit 1) 1 lt\n",
        "weft 8\nkernel k\nparam in f16 x\nlevel (lit 0) (lit 1) 1 lt\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 1 lt\ntune WEFT_BLOCK_X w "
        "64\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 1 lt\ntune WEFT_BLOCK_X x\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 1 lt\ntune WEFT_BLOCK_X x 0\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 1 lt\ntune X;rm x 64\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 1 lt\ntune WEFT_T text 1\n"
        "shared (tune 1)\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 1 lt\ntune WEFT_T text 1\n"
        "shared (arg 0)\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 1 lt\nsplit 8\n",
        "weft 8\nkernel k\nlevel (lit 0) (lit 1) 1 lt\ncombine k2 0\n"}) {
    KernelInfo K;
    std::string Error;
    EXPECT_FALSE(parseDescriptor(Text, K, Error)) << Text;
    EXPECT_FALSE(Error.empty());
  }
}

} // namespace
