// types.h: the integer types every section of device.h uses, first of
// namespace weft. Part of weft/device.h.
namespace weft {

typedef long long index_t;
typedef unsigned long long size_type;

/// The unsigned and signed integers of a size, for atomic steps on words.
template <unsigned Bytes> struct word_of;
template <> struct word_of<4> {
  typedef unsigned type;
  typedef int signed_type;
};
template <> struct word_of<8> {
  typedef unsigned long long type;
  typedef long long signed_type;
};

} // namespace weft
