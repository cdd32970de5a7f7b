// Descriptor.h: the contract between the plugin and the runtime: what the
// plugin embeds beside each kernel (its name, location, parameters, grid,
// reductions, buffers, tuning space, and the loop's other mappings) as a
// struct, with the one writer and the one parser of its text form.
//
// The text form is a line per fact, a key and its fields. Each kind of line
// is stated once, in DescriptorGrammar.cpp, which drives the writer, the
// parser and descriptorGrammar(), the listing docs/descriptor.md holds.
// Bounds, extents and sizes are BoundExpr S-expressions over the parameters.
#ifndef WEFT_CONTRACT_DESCRIPTOR_H
#define WEFT_CONTRACT_DESCRIPTOR_H

#include "contract/BoundExpr.h"
#include "contract/Vocabulary.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft::contract {

/// The version this plugin writes and this runtime reads. A program built
/// by another version is refused with a message saying which to rebuild.
constexpr int DescriptorVersion = 8;

struct ParamInfo {
  ParamKind Kind = ParamKind::Scalar;
  ScalarType Type = ScalarType::I32;
  std::string Name;
  std::size_t Bytes = 0; // the element's (or scalar's) size
  /// The plugin's "written everywhere" claim (the covers line): the
  /// outermost trip count times CoverCols is the span's size and CoverCols
  /// equals CoverStride. Absent when the plugin claims nothing.
  std::optional<BoundExpr> CoverCols, CoverStride;
  /// The rows line: the launch gathers the rows into one block and
  /// scatters it back.
  bool RowsApart = false;
  /// Of rows held apart, the parameter of their row offsets (-1: none, the
  /// rows are of one length).
  int RowOffsets = -1;
  /// The keeps line: staged, tiled, held in registers or in a resident
  /// block, so the kernel is right only where no other parameter's memory
  /// shares the span's and one of them is written.
  bool Kept = false;
  /// The apart line: the plugin found loops parallel, or reordered them,
  /// on a proof that takes the span's memory as its own (as restrict
  /// would), so the kernel is right only where no other parameter's memory
  /// shares the span's and one of them is written.
  bool Apart = false;
  /// The uniform line: a 64-bit scalar, the common length of rows held
  /// apart (-1 where their lengths differ), by which the kernel indexes
  /// them as one block of rows by columns: right only where it is not
  /// negative.
  bool OneLength = false;
  /// The extent line: the least and greatest subscripts of a pointer
  /// passed without its extent (weft::detail::pointerArg); the launch
  /// moves elements [0, HighestIndex] and runs the loop on the host where
  /// LowestIndex is below 0.
  std::optional<BoundExpr> LowestIndex, HighestIndex;
  /// The gather line: rows held as pointers that the launch gathers by the
  /// bounds of their subscripts (weft::detail::pointerArg passes the
  /// float **), setting parameter Columns to the rows' length.
  struct InferredRows {
    BoundExpr LowestRow, HighestRow, LowestColumn, HighestColumn;
    unsigned Columns = 0;
  };
  std::optional<InferredRows> Gathered;
  bool isSpan() const {
    return Kind != ParamKind::Scalar && Kind != ParamKind::ReductionTarget;
  }
  bool readsDevice() const {
    return Kind == ParamKind::In || Kind == ParamKind::InOut;
  }
  bool writesDevice() const {
    return Kind == ParamKind::Out || Kind == ParamKind::InOut;
  }
};

struct LevelInfo {
  BoundExpr Lower, Upper;
  std::int64_t Step = 1;
  bool Inclusive = false;
};

/// A level spread over one dimension of the grid.
struct DimensionInfo {
  unsigned Depth = 0;
  int Axis = 0; // 0, 1, 2 for x, y, z
  unsigned Block = 1;
  Degree Kind = Degree::Span;
  unsigned N = 1; // n of Span(n), k of Split(k)
  /// An inner Span level's bounds, to size its grid dimension; the
  /// outermost level's are the kernel's Levels[0].
  LevelInfo Bounds;
  bool hasBounds() const { return Depth > 0 && Kind == Degree::Span; }
};

struct ReductionInfo {
  unsigned Param = 0;
  ReduceOp Op = ReduceOp::Add;
};

struct BufferInfo {
  std::size_t ElementBytes = 0;
  BoundExpr Extent; // elements per thread
};

/// Split(k) of depth 1: a second kernel combines the blocks' partials.
struct CombineInfo {
  std::string Name; // empty: no combining kernel
  unsigned Block = 256;
  std::vector<std::size_t> PartialBytes; // per split reduction
};

/// One parameter of a kernel's tuning space: a macro of its text.
struct TuneParam {
  std::string Macro;
  TuneRole Role = TuneRole::Text;
  int Target = 0;               // Block: the axis; SpanN: the level's depth
  std::vector<unsigned> Values; // the mapped value first
};

/// The space the runtime may search instead of the mapped configuration
/// (KTT's parameters and constraints): every parameter's values, the
/// static shared memory a configuration needs (checked against the
/// device's limit; threads per block are checked likewise), and whether
/// configurations may give a floating-point reduction different bits.
struct TuneInfo {
  std::vector<TuneParam> Params;
  std::optional<BoundExpr> SharedBytes;
  bool Reorders = false;
};

/// Mappings of one loop for different sizes: the scenarios the plugin
/// mapped the nest for; a launch takes the nearest one's mapping.
struct ChoiceInfo {
  std::vector<BoundExpr> Vary;
  struct Scenario {
    unsigned Mapping = 0;
    std::vector<std::int64_t> Values; // one per Vary
  };
  std::vector<Scenario> Scenarios;
};

/// A binary of a kernel's text built with the program (its default tuning
/// values, no defines) for one architecture: "sm_90" a cubin, "compute_90"
/// PTX for the driver to compile on newer GPUs, "gfx90a" a code object. Its
/// bytes are base64 within the loop's source, after the kernels' text.
struct ImageInfo {
  std::string Arch;
  std::size_t Offset = 0, Length = 0;
  /// The decoded bytes, which the runtime fills in (the descriptor has the
  /// place alone).
  std::string Data;
};

struct KernelInfo {
  std::string Name;
  std::string Location;
  std::string Function; // the function the loop is in, qualified
  std::vector<ParamInfo> Params;
  std::vector<LevelInfo> Levels;
  std::vector<DimensionInfo> Dimensions;
  std::vector<ReductionInfo> Reductions;
  std::vector<BufferInfo> Buffers;
  CombineInfo Combine;
  TuneInfo Tune;
  ChoiceInfo Choice;
  /// Where this kernel's text is in the loop's source; the whole when
  /// TextLength is 0.
  std::size_t TextOffset = 0, TextLength = 0;
  /// Its binaries built with the program (-fplugin-arg-weft-offload-arch).
  std::vector<ImageInfo> Images;
};

/// K indexes rows held apart as rows of one length (its uniform lines).
bool needsRowsOfOneLength(const KernelInfo &K);

/// One kernel's text form.
std::string writeDescriptor(const KernelInfo &K);
/// A loop's: its kernels, the first holding the choice among them.
std::string writeDescriptors(const std::vector<KernelInfo> &Kernels);

/// Parses one kernel's descriptor; on malformed text, or text of another
/// version, returns false and sets Error.
bool parseDescriptor(std::string_view Text, KernelInfo &Out,
                     std::string &Error);

/// Parses a loop's descriptor with its alternatives (Out[0] the first
/// kernel, which holds the choice among them), checking that the scenarios
/// name existing mappings and the texts lie within SourceLength bytes.
bool parseDescriptors(std::string_view Text, std::size_t SourceLength,
                      std::vector<KernelInfo> &Out, std::string &Error);

/// Every kind of line, in the order the writer prints them: its key, its
/// fields' syntax and its meaning (docs/descriptor.md is this text).
std::string descriptorGrammar();

/// The fields of the first line with Key in a descriptor, without parsing
/// the rest; empty when it has none.
std::string firstLine(std::string_view Text, std::string_view Key);
/// The loop's location ("file.cpp:12:3"), and the function it is in.
std::string descriptorLocation(std::string_view Text);
std::string descriptorFunction(std::string_view Text);

} // namespace weft::contract

#endif
