// ContractTest.cpp: the descriptor's text form round-trips through its
// parser and writer; other versions are refused with a message that says
// what to rebuild; the bound language evaluates and refuses overflow.
#include "contract/Descriptor.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace weft::contract;

namespace {

const std::string Header = "weft " + std::to_string(DescriptorVersion) + "\n";

TEST(Contract, EveryLineRoundTrips) {
  const std::string Text =
      Header +
      "kernel k0\nloc dir/a b.cpp:3:5\n"
      "param in f32 x\nparam inout bytes12 y\nparam scalar i64 n\n"
      "param scalar u8 total\n"
      "covers 1 (arg 2) (mul (arg 2) (lit 1))\n"
      "level (lit 1) (sub (min (arg 2) (size 0)) (lit -1)) 2 le\n"
      "map 0 y 128 span 1\nmap 1 x 32 span 4 (lit 0) (arg 2) 1 lt\n"
      "reduce 3 max\ncombine k0_combine 256\nsplit 8\nsplit 4\n"
      "tune WEFT_BLOCK_Y y 128 64\ntune WEFT_TM n1 4 2 8\n"
      "tune WEFT_STAGING text 1 0\n"
      "shared (add (mul (tune 0) (lit 4)) (max (lit 1) (tune 2)))\nreorders\n"
      "buffer 8 (mul (arg 2) (lit 3))\ntext 0 10\n"
      "vary (arg 2)\nvary (size 0)\nscenario 0 128 128\nscenario 1 65536 8\n"
      "alternative\n" +
      Header + "kernel k1\nloc a.cpp:1:1\nparam in f32 x\n" +
      "level (lit 0) (neg (div (rem (arg 0) (lit 3)) (max (lit 1) (lit 2)))) "
      "1 lt\nmap 0 x 256 all 0\ntext 10 5\n";
  std::vector<KernelInfo> K;
  std::string Error;
  ASSERT_TRUE(parseDescriptors(Text, 15, K, Error)) << Error;
  ASSERT_EQ(K.size(), 2u);
  EXPECT_EQ(K[0].Params[1].Type, ScalarType::Bytes);
  EXPECT_EQ(K[0].Params[1].Bytes, 12u);
  EXPECT_EQ(K[0].Params[3].Kind, ParamKind::ReductionTarget);
  EXPECT_EQ(K[0].Location, "dir/a b.cpp:3:5");
  EXPECT_EQ(K[0].Dimensions[1].N, 4u);
  EXPECT_EQ(writeDescriptors(K), Text);
}

TEST(Contract, OtherVersionsSayWhatToRebuild) {
  KernelInfo K;
  std::string Error;
  EXPECT_FALSE(parseDescriptor("weft " + std::to_string(DescriptorVersion - 1) +
                                   "\nkernel k\nlevel (lit 0) (lit 1) 1 lt\n",
                               K, Error));
  EXPECT_NE(Error.find("older weft plugin"), std::string::npos) << Error;
  EXPECT_NE(Error.find("rebuild the program"), std::string::npos) << Error;
  EXPECT_FALSE(parseDescriptor("weft " + std::to_string(DescriptorVersion + 1) +
                                   "\nkernel k\nlevel (lit 0) (lit 1) 1 lt\n",
                               K, Error));
  EXPECT_NE(Error.find("newer weft plugin"), std::string::npos) << Error;
  EXPECT_FALSE(parseDescriptor("kernel k\nweft 1\n", K, Error));
  EXPECT_NE(Error.find("version"), std::string::npos) << Error;
}

TEST(Contract, MalformedLinesAreRefused) {
  for (const char *Line :
       {"level (lit 0) (lit 1) 1 lt extra", "map 0 x 64 span 1 junk",
        "param in f32", "param in bytes0 x", "param in bytes1x y",
        "reduce 0 add", "text 4 0", "scenario 0 12", "map 0 w 64 span 1",
        "level (lit 99999999999999999999) (lit 1) 1 lt",
        "level (arg -1) (lit 1) 1 lt"}) {
    KernelInfo K;
    std::string Error;
    EXPECT_FALSE(parseDescriptor(
        Header + "kernel k\nlevel (lit 0) (lit 1) 1 lt\n" + Line + "\n", K,
        Error))
        << Line;
    EXPECT_NE(Error.find("malformed"), std::string::npos) << Line;
  }
}

// The grammar's listing is what docs/descriptor.md shows, between its
// first ``` fence and the next: the docs cannot drift from the parser.
TEST(Contract, GrammarIsTheDocumentedOne) {
  std::ifstream In(WEFT_SOURCE_DIR "/docs/descriptor.md");
  std::stringstream Doc;
  Doc << In.rdbuf();
  const std::string Text = Doc.str();
  const std::size_t Open = Text.find("```\n");
  ASSERT_NE(Open, std::string::npos) << "docs/descriptor.md has no listing";
  const std::size_t Close = Text.find("```", Open + 4);
  ASSERT_NE(Close, std::string::npos);
  EXPECT_EQ(Text.substr(Open + 4, Close - Open - 4), descriptorGrammar())
      << "docs/descriptor.md's listing should be:\n"
      << descriptorGrammar();
  EXPECT_NE(descriptorGrammar().find(
                "\nmap <depth> <x|y|z> <block> <span|all|split> <n> [<lo> "
                "<hi> <step> <lt|le>]\n"),
            std::string::npos);
  EXPECT_NE(descriptorGrammar().find("\nrows <param> [<offsets>]\n"),
            std::string::npos);
}

TEST(Contract, BoundsEvaluateAndRefuseOverflow) {
  std::size_t Pos = 0;
  std::optional<BoundExpr> E =
      parseBound("(add (mul (arg 0) (lit 3)) (size 1))", Pos);
  ASSERT_TRUE(E);
  auto Leaf = [](const BoundExpr &L, std::int64_t &V, std::string &) {
    V = L.Kind == BoundExpr::Arg ? 5 : 7;
    return true;
  };
  std::int64_t V = 0;
  std::string Error;
  ASSERT_TRUE(evaluateBound(*E, Leaf, V, Error)) << Error;
  EXPECT_EQ(V, 22);
  const BoundExpr Big = BoundExpr::binary(
      BoundExpr::Mul, BoundExpr::literal(INT64_MAX / 2), BoundExpr::literal(3));
  EXPECT_FALSE(evaluateBound(Big, Leaf, V, Error));
  EXPECT_NE(Error.find("overflow"), std::string::npos);
  EXPECT_FALSE(
      evaluateBound(BoundExpr::binary(BoundExpr::Div, BoundExpr::literal(1),
                                      BoundExpr::literal(0)),
                    Leaf, V, Error));
}

} // namespace
