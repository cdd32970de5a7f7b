// reduce.h: reductions: the operators of contract/ReduceOps.def, their
// identities and combines, argmax and argmin keys, an array element's
// atomic update, and a value combined over a warp, a block or one axis of
// it. Part of weft/device.h.
namespace weft {

// The operators of contract/ReduceOps.def, in its order (the embedded and
// installed copies of this header have the list written in).
enum reduce_op {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  Device,
#include "../../../contract/ReduceOps.def"
};

template <class T> struct numeric_limits {
  // Integers: two's complement.
  static WEFT_DEVICE T highest() {
    return (T)(T(-1) < T(0) ? ~((T)1 << (sizeof(T) * 8 - 1)) : ~T(0));
  }
  static WEFT_DEVICE T lowest() {
    return (T)(T(-1) < T(0) ? ((T)1 << (sizeof(T) * 8 - 1)) : T(0));
  }
};
template <> struct numeric_limits<float> {
  static WEFT_DEVICE float highest() { return infinity_f(); }
  static WEFT_DEVICE float lowest() { return -infinity_f(); }
};
template <> struct numeric_limits<double> {
  static WEFT_DEVICE double highest() { return infinity_d(); }
  static WEFT_DEVICE double lowest() { return -infinity_d(); }
};
template <> struct numeric_limits<bool> {
  static WEFT_DEVICE bool highest() { return true; }
  static WEFT_DEVICE bool lowest() { return false; }
};

/// The key of an argmax or argmin over 64-bit values (see arg_key): the
/// value's order, then the index, compared as one 128-bit number. A struct
/// rather than __int128, which NVRTC takes only with --device-int128; it
/// crosses lanes as two 64-bit halves.
struct key128 {
  unsigned long long hi, lo;
};
WEFT_DEVICE bool operator<(key128 A, key128 B) {
  return A.hi < B.hi || (A.hi == B.hi && A.lo < B.lo);
}
WEFT_DEVICE bool operator==(key128 A, key128 B) {
  return A.hi == B.hi && A.lo == B.lo;
}
template <> struct numeric_limits<key128> {
  static WEFT_DEVICE key128 highest() { return {~0ull, ~0ull}; }
  static WEFT_DEVICE key128 lowest() { return {0ull, 0ull}; }
};
WEFT_DEVICE key128 shfl(key128 V, unsigned Src) {
  return {shfl(V.hi, Src), shfl(V.lo, Src)};
}
WEFT_DEVICE key128 shfl_down(key128 V, unsigned Delta) {
  return {shfl_down(V.hi, Delta), shfl_down(V.lo, Delta)};
}
WEFT_DEVICE key128 shfl_xor(key128 V, unsigned Mask) {
  return {shfl_xor(V.hi, Mask), shfl_xor(V.lo, Mask)};
}

// reduction(argmax: v, at) and argmin reduce one 64-bit key per element:
// the value's bits in an order that compares as the values do (high half)
// and its index (low half, inverted where the best key must pick the lowest
// of tied indices), so that the max (min) of the keys is the arg reduction.
WEFT_DEVICE unsigned arg_order(float V) {
  const unsigned U = float_bits(V + 0.0f); // -0 is +0, as `>` sees them
  return (U & 0x80000000u) ? ~U : (U | 0x80000000u);
}
WEFT_DEVICE float arg_value(unsigned O, float) {
  return bits_float((O & 0x80000000u) ? (O & 0x7fffffffu) : ~O);
}
template <class T> WEFT_DEVICE unsigned arg_order(T V) { // integers <= 32 bits
  return T(-1) < T(0) ? (unsigned)(int)V ^ 0x80000000u : (unsigned)V;
}
template <class T> WEFT_DEVICE T arg_value(unsigned O, T) {
  return T(-1) < T(0) ? (T)(int)(O ^ 0x80000000u) : (T)O;
}
// Values of 64 bits (double, long, long long) take a key of two 64-bit
// halves: the value's order, then the index.
WEFT_DEVICE unsigned long long arg_order64(double V) {
  const unsigned long long U = double_bits(V + 0.0);
  return (U >> 63) ? ~U : (U | (1ull << 63));
}
WEFT_DEVICE double arg_value64(unsigned long long O, double) {
  return bits_double((O >> 63) ? (O & ~(1ull << 63)) : ~O);
}
template <class T> WEFT_DEVICE unsigned long long arg_order64(T V) {
  return T(-1) < T(0) ? (unsigned long long)(long long)V ^ (1ull << 63)
                      : (unsigned long long)V;
}
template <class T> WEFT_DEVICE T arg_value64(unsigned long long O, T) {
  return T(-1) < T(0) ? (T)(long long)(O ^ (1ull << 63)) : (T)O;
}
/// The key of value V at Index, for argmax (Max) or argmin, ties to the
/// first index (First: `x > v`) or the last (`x >= v`). A NaN never wins.
/// 64 bits for values of at most 32 bits, a key128 for wider ones.
template <bool Max, bool First, class T, class I>
WEFT_DEVICE auto arg_key(T V, I Index) {
  if constexpr (sizeof(T) > 4) {
    if (V != V)
      return Max ? key128{0ull, 0ull} : key128{~0ull, ~0ull};
    const unsigned long long Low =
        Max == First ? ~(unsigned long long)Index : (unsigned long long)Index;
    return key128{arg_order64(V), Low};
  } else {
    if (V != V)
      return Max ? 0ull : ~0ull;
    const unsigned Low = Max == First ? ~(unsigned)Index : (unsigned)Index;
    return ((unsigned long long)arg_order(V) << 32) | Low;
  }
}
// A reduced key's value, and its index bits as stored (see arg_key).
template <class T> WEFT_DEVICE T arg_best(unsigned long long Key, T V) {
  return arg_value((unsigned)(Key >> 32), V);
}
template <class T> WEFT_DEVICE T arg_best(key128 Key, T V) {
  return arg_value64(Key.hi, V);
}
WEFT_DEVICE unsigned arg_low(unsigned long long Key) { return (unsigned)Key; }
WEFT_DEVICE unsigned long long arg_low(key128 Key) { return Key.lo; }
/// An inner level's reduced key into V and At, where it beats V as the
/// loop's comparison says. A key nothing was reduced into (the identity of
/// max, or of min) changes nothing.
template <bool Max, bool First, class K, class T, class I>
WEFT_DEVICE void arg_finish(K Key, T &V, I &At) {
  if (Key == (Max ? numeric_limits<K>::lowest() : numeric_limits<K>::highest()))
    return;
  const T Best = arg_best(Key, V);
  const auto Low = Max == First ? ~arg_low(Key) : arg_low(Key);
  if (Max ? (First ? V < Best : !(Best < V))
          : (First ? Best < V : !(V < Best))) {
    V = Best;
    At = (I)Low;
  }
}

template <class T> WEFT_DEVICE T identity_Zero() { return T(0); }
template <class T> WEFT_DEVICE T identity_One() { return T(1); }
template <class T> WEFT_DEVICE T identity_AllOnes() { return T(~0ull); }
template <class T> WEFT_DEVICE T identity_Highest() {
  return numeric_limits<T>::highest();
}
template <class T> WEFT_DEVICE T identity_Lowest() {
  return numeric_limits<T>::lowest();
}

/// The value that leaves any other unchanged under Op.
template <int Op, class T> WEFT_DEVICE T identity() {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  if constexpr (Op == Device)                                                  \
    return identity_##Identity<T>();                                           \
  else
#include "../../../contract/ReduceOps.def"
  return T(0);
}

template <int Op, class T> WEFT_DEVICE T combine(T A, T B) {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  if constexpr (Op == Device)                                                  \
    return (T)(Combine);                                                       \
  else
#include "../../../contract/ReduceOps.def"
  return A;
}

// reduction(op: a) of an array: each update of an element is one atomic
// step. The GPUs add, take minima and maxima of integers, and and, or and
// xor words in one instruction (integers as the unsigned word of their size
// where only the bits matter); the rest loop on a compare-and-swap.
template <class T> struct atomic_word {
  typedef typename word_of<sizeof(T)>::type type;
  static const bool floating = false;
  WEFT_DEVICE static type bits(T V) { return (type)V; }
  WEFT_DEVICE static T value(type W) { return (T)W; }
};
template <> struct atomic_word<float> {
  typedef unsigned type;
  static const bool floating = true;
  WEFT_DEVICE static type bits(float V) { return float_bits(V); }
  WEFT_DEVICE static float value(type W) { return bits_float(W); }
};
template <> struct atomic_word<double> {
  typedef unsigned long long type;
  static const bool floating = true;
  WEFT_DEVICE static type bits(double V) { return double_bits(V); }
  WEFT_DEVICE static double value(type W) { return bits_double(W); }
};

template <int Op, class T> WEFT_DEVICE void combine_by_cas(T *A, T V) {
  typedef atomic_word<T> Word;
  typename Word::type *W = (typename Word::type *)A;
  typename Word::type Old = atomic_load(W);
  while (true) {
    const typename Word::type New =
        Word::bits(combine<Op>(Word::value(Old), V));
    if (New == Old)
      return; // a minimum that is already smaller, say
    const typename Word::type Seen = atomic_cas(W, Old, New);
    if (Seen == Old)
      return;
    Old = Seen;
  }
}

template <int Op, class T> WEFT_DEVICE void combine_into(T *A, T V) {
  typedef atomic_word<T> Word;
  typedef typename word_of<sizeof(T)>::type U;
  if constexpr (Op == reduce_add && Word::floating)
    atomic_add(A, V);
  else if constexpr (Op == reduce_add)
    atomic_add((U *)A, (U)V);
  else if constexpr ((Op == reduce_min || Op == reduce_max) && !Word::floating)
    atomic_min_max_integer<Op == reduce_min>(A, V);
  else if constexpr (Op == reduce_and)
    atomic_and((U *)A, (U)V);
  else if constexpr (Op == reduce_or)
    atomic_or((U *)A, (U)V);
  else if constexpr (Op == reduce_xor)
    atomic_xor((U *)A, (U)V);
  else
    combine_by_cas<Op>(A, V);
}

/// Every lane of a warp gets V combined over the warp's Width lanes
/// (a butterfly: every lane computes the same tree, so the same result).
template <int Op, class T> WEFT_DEVICE T warp_allreduce(T V, unsigned Width) {
  for (unsigned Offset = Width / 2; Offset > 0; Offset /= 2)
    V = combine<Op>(V, shfl_xor(V, Offset));
  return V;
}

/// A helper that waits at barriers takes its call site in the simulator,

/// Every thread of the block gets V combined over the block's N threads,
/// through shared memory; all threads must call it.
template <int Op, class T, unsigned N>
WEFT_DEVICE T block_allreduce(T V, shared_array<T, N> &Scratch,
                              unsigned Thread WEFT_CALL_SITE) {
  Scratch[Thread] = V;
  barrier(WEFT_AT_CALL_SITE);
  for (unsigned Width = N / 2; Width > 0; Width /= 2) {
    if (Thread < Width)
      Scratch[Thread] =
          combine<Op>(Scratch.ld(Thread), Scratch.ld(Thread + Width));
    barrier(WEFT_AT_CALL_SITE);
  }
  const T R = Scratch.ld(0);
  barrier(WEFT_AT_CALL_SITE);
  return R;
}

/// Combines V across the Count threads along one axis of the block (a power
/// of two, Stride apart in linear_thread() order; Lane: the thread's index
/// along it), each group of them apart; every thread of the block calls it,
/// and each gets its group's result.
template <int Op, class T, unsigned N>
WEFT_DEVICE T axis_allreduce(T V, shared_array<T, N> &Scratch, unsigned Lane,
                             unsigned Stride, unsigned Count WEFT_CALL_SITE) {
  const unsigned Me = linear_thread();
  Scratch[Me] = V;
  barrier(WEFT_AT_CALL_SITE);
  for (unsigned Width = Count / 2; Width > 0; Width /= 2) {
    if (Lane < Width)
      Scratch[Me] =
          combine<Op>(Scratch.ld(Me), Scratch.ld(Me + Width * Stride));
    barrier(WEFT_AT_CALL_SITE);
  }
  const T R = Scratch.ld(Me - Lane * Stride);
  barrier(WEFT_AT_CALL_SITE);
  return R;
}
} // namespace weft
