// span.h: the data a kernel reads and writes: captured spans, per-iteration
// arrays in preallocated buffers, shared memory. Part of weft/device.h.
namespace weft {

/// A captured std::span inside a kernel. The host passes {pointer, extent};
/// the layout is part of the runtime's launch ABI. operator[] is an lvalue
/// access (a write, or a read and a write); ld() is a pure read. The
/// simulator's checker tells the two apart.
template <class T> struct is_const_element { static const int value = 0; };
template <class T> struct is_const_element<const T> {
  static const int value = 1;
};

template <class T> struct dspan {
  T *Data;
  size_type Extent;
  WEFT_DEVICE T &operator[](index_t I) const {
    WEFT_SIM_SPAN_ACCESS(I, !is_const_element<T>::value);
    return Data[I];
  }
  WEFT_DEVICE T ld(index_t I) const {
    WEFT_SIM_SPAN_ACCESS(I, 0);
    return Data[I];
  }
  /// Element I's address for an array reduction's atomic update: checked
  /// against the extent, but (Write 2) not as a conflict between iterations,
  /// whose updates combine in any order.
  WEFT_DEVICE T *at(index_t I) const {
    WEFT_SIM_SPAN_ACCESS(I, 2);
    return Data + I;
  }
  WEFT_DEVICE size_type size() const { return Extent; }
  WEFT_DEVICE T *data() const { return Data; }
  /// The simulator's check of a read that shared memory serves.
  WEFT_DEVICE void check_read(index_t I) const { WEFT_SIM_SPAN_ACCESS(I, 0); }
  /// And of a write.
  WEFT_DEVICE void check_write(index_t I) const { WEFT_SIM_SPAN_ACCESS(I, 1); }
};

/// Elements I .. I + V - 1 of S into Out, those from Valid on as T(): one
/// V * sizeof(T)-byte load where all V are valid and the first is aligned
/// to it (a register tile's 128-bit loads), else one load per valid
/// element. The simulator takes the same path, each element checked: as
/// the current iteration's read (Access 0), or against the extent alone
/// (Access 2: a span the nest writes, whose reading iterations record
/// their own reads).
template <int V, class T, class E>
WEFT_DEVICE void load_run(T (&Out)[V], const dspan<E> &S, index_t I,
                          index_t Valid, int Access = 0) {
  // Aligned to the run where it is one load (V > 1: 4- and 8-byte
  // elements); a struct of any size otherwise.
  struct alignas(V > 1 ? V * sizeof(E) : alignof(E)) run {
    T Elements[V];
  };
  E *const Data = S.Data;
  const size_type Extent = S.Extent;
  (void)Extent;
  if (V > 1 && Valid >= V &&
      ((size_type)(Data + I) & (size_type)(V * sizeof(E) - 1)) == 0) {
    for (int J = 0; J < V; ++J)
      WEFT_SIM_SPAN_ACCESS(I + J, Access);
    const run R = load_whole_run<run>(Data + I);
    for (int J = 0; J < V; ++J)
      Out[J] = R.Elements[J];
    return;
  }
  for (int J = 0; J < V; ++J)
    Out[J] = J < Valid ? (T)(Access ? *S.at(I + J) : S.ld(I + J)) : T();
}

/// A per-iteration array in a buffer the runtime preallocated for all
/// iterations: element J at Base[J * Stride].
template <class T> struct strided {
  T *Base;
  index_t Stride;
  WEFT_DEVICE T &operator[](index_t J) const { return Base[J * Stride]; }
};

/// Shared memory: declare as `WEFT_SHARED weft::shared_array<T, N> Name;`.
/// 16-byte aligned, so that a register tile's fragments of four elements
/// load in one 128-bit instruction.
template <class T, unsigned N> struct shared_array {
  alignas(16) T Elements[N];
  WEFT_DEVICE T &operator[](index_t I) {
    WEFT_SIM_SHARED_ACCESS(&Elements[I], 1);
    return Elements[I];
  }
  WEFT_DEVICE T ld(index_t I) {
    WEFT_SIM_SHARED_ACCESS(&Elements[I], 0);
    return Elements[I];
  }
};

} // namespace weft
