// staging.h: what kernels hold in shared memory or registers: a block's
// gather of span elements, staged ranges, halo windows, a thread's slice of
// a column, a resident block of a matrix. The simulator checks that each
// read from them is the span element the loop reads. Part of weft/device.h.
namespace weft {

/// Copies span elements into shared memory: for E = First, First + Step, ...
/// below Count, the span's element Place(E), where it lies inside the span,
/// to Buffer[Slot(E)]. A thread issues eight loads before it stores any, so
/// that it waits for memory once per eight elements: a load and its store
/// in one branch each wait a round trip to L2 (a 32 x 32 block on one warp:
/// 32 round trips of some 600 cycles, about 10 us, by estimate).
template <class T, unsigned N, class Span, class Place, class Slot>
WEFT_DEVICE void gather(shared_array<T, N> &Buffer, Span Source, index_t First,
                        index_t Step, index_t Count, Place PlaceOf,
                        Slot SlotOf) {
  constexpr int Batch = 8;
  for (index_t E0 = First; E0 < Count; E0 += Batch * Step) {
    T Values[Batch];
    bool Inside[Batch];
    WEFT_UNROLL
    for (int U = 0; U < Batch; ++U) {
      const index_t E = E0 + U * Step;
      const index_t G = E < Count ? PlaceOf(E) : -1;
      Inside[U] = G >= 0 && G < (index_t)Source.size();
      Values[U] = Inside[U] ? Source.data()[G] : T();
    }
    WEFT_UNROLL
    for (int U = 0; U < Batch; ++U)
      if (Inside[U])
        Buffer[SlotOf(E0 + U * Step)] = Values[U];
  }
}

/// Elements [Lo, Lo + Count) of a read-only span that the whole block reads:
/// loaded into shared memory together when staging is on and they fit,
/// read in place otherwise (the same choice in every thread of the block).
template <class T, unsigned Capacity, class Span> struct staged {
  shared_array<T, Capacity> &Buffer;
  Span Source;
  index_t Lo, Count;
  bool InShared;
  WEFT_DEVICE staged(shared_array<T, Capacity> &Buffer, Span Source, index_t Lo,
                     index_t Count, bool Enabled)
      : Buffer(Buffer), Source(Source), Lo(Lo), Count(Count),
        InShared(Enabled && Count > 0 && Count <= (index_t)Capacity) {}
  /// Every thread of the block calls it; a barrier must follow.
  WEFT_DEVICE void load(unsigned Thread, unsigned Threads) const {
    if (!InShared)
      return;
    // Only elements inside the span: the loop may never read the others.
    const index_t First = Lo;
    gather(
        Buffer, Source, Thread, Threads, Count,
        [=](index_t I) { return First + I; }, [](index_t I) { return I; });
  }
  /// Inside the range from shared memory; anything else from the span.
  WEFT_DEVICE T ld(index_t I) const {
    WEFT_SIM_ONLY(Source.check_read(I)); // as WEFT_SPAN_READ
    return InShared && I >= Lo && I - Lo < Count ? Buffer.ld(I - Lo)
                                                 : Source.ld(I);
  }
};

/// A window of a span (a halo tile): Rows x Cols elements, element (r, c)
/// at Lo + r * RowStride + c * ColStride, loaded by the block into shared
/// memory where it fits, enabled.
template <class T, unsigned Capacity, class Span> struct window {
  shared_array<T, Capacity> &Buffer;
  Span Source;
  index_t Lo, Rows, Cols, RowStride, ColStride;
  bool InShared;
  WEFT_DEVICE window(shared_array<T, Capacity> &Buffer, Span Source, index_t Lo,
                     index_t Rows, index_t Cols, index_t RowStride,
                     index_t ColStride, bool Enabled)
      : Buffer(Buffer), Source(Source), Lo(Lo), Rows(Rows), Cols(Cols),
        RowStride(RowStride), ColStride(ColStride),
        InShared(Enabled && Rows > 0 && Cols > 0 &&
                 Rows * Cols <= (index_t)Capacity) {}
  /// Every thread of the block calls it; a barrier must follow.
  WEFT_DEVICE void load(unsigned Thread, unsigned Threads) const {
    if (!InShared)
      return;
    // Only elements inside the span: the loop may never read the others.
    const index_t First = Lo, Width = Cols, Down = RowStride,
                  Across = ColStride;
    gather(
        Buffer, Source, Thread, Threads, Rows * Cols,
        [=](index_t I) {
          const index_t R = I / Width;
          return First + R * Down + (I - R * Width) * Across;
        },
        [](index_t I) { return I; });
  }
  /// Whether a thread Column columns past the window's first (the block's
  /// first round of the level: Column < Block) reads every element from
  /// the window (ld_in), as its sizing ensures.
  WEFT_DEVICE bool first_round(index_t Column, index_t Block) const {
    return InShared && (size_type)Column < (size_type)Block;
  }
  /// Element I of the span, which is (R, C) of the window, where
  /// first_round said the window holds it. The simulator checks that it
  /// does, and that (R, C) is element I.
  template <class Index>
  WEFT_DEVICE T ld_in(index_t R, index_t C, Index I) const {
    WEFT_SIM_ONLY(Source.check_read(I()); check_window_element(
                      Lo, Rows, Cols, RowStride, ColStride, R, C, I()));
    return Buffer.ld(R * Cols + C);
  }
  /// Element I of the span, which is (R, C) of the window: from shared
  /// memory where the window holds it (a later round of the level's
  /// iterations lies outside), else from the span.
  template <class Index> WEFT_DEVICE T ld(index_t R, index_t C, Index I) const {
    WEFT_SIM_ONLY(Source.check_read(I())); // as WEFT_SPAN_READ
    if (InShared && (size_type)R < (size_type)Rows &&
        (size_type)C < (size_type)Cols)
      return Buffer.ld(R * Cols + C);
    return Source.ld(I());
  }
};

/// The elements of a span that one thread alone works through in an
/// iteration (its column of a matrix, down a bounded loop over the rows):
/// element W of the span's Anchor + W * Stride, W in [Lo, Lo + Count),
/// held in the thread's column of a shared array (W - Lo at
/// [(W - Lo) * Threads + Thread]: a warp's threads in different banks), so
/// that a chain of reads after writes runs at shared memory's latency.
/// Writes go through to the span as well: the iteration's other reads of
/// the span, left in place, see them there. PerThread elements a thread fit.
template <class T, unsigned PerThread, unsigned Threads, class Span>
struct thread_slice {
  shared_array<T, PerThread * Threads> &Buffer;
  Span Source;
  index_t Anchor, Stride, Lo, Count;
  unsigned Thread;
  WEFT_DEVICE bool fits() const { return Count <= (index_t)PerThread; }
  /// The thread's elements from the span (those inside it: the loops may
  /// never reach the others), unrecorded by the simulator's checker: the
  /// iteration's reads record their own.
  WEFT_DEVICE void load() const {
    const index_t First = Anchor + Lo * Stride, Step = Stride;
    const unsigned Column = Thread;
    gather(
        Buffer, Source, 0, 1, Count,
        [=](index_t W) { return First + W * Step; },
        [=](index_t W) { return W * Threads + Column; });
  }
  /// Span element I, which is element W of the slice.
  template <class Index> WEFT_DEVICE T ld(index_t W, Index I) const {
    WEFT_SIM_ONLY(Source.check_read(I());
                  check_slice_element(Anchor, Stride, Lo, Count, W, I()));
    return Buffer.ld((W - Lo) * Threads + Thread);
  }
  /// Element W, for an assignment whose value through() stores to the
  /// span's element I as well.
  template <class Index> WEFT_DEVICE T &at(index_t W, Index I) const {
    WEFT_SIM_ONLY(check_slice_element(Anchor, Stride, Lo, Count, W, I()));
    return Buffer[(W - Lo) * Threads + Thread];
  }
  WEFT_DEVICE T through(index_t I, T V) const {
    Source[I] = V;
    return V;
  }
  /// Nothing: every write went through (register_slice's may wait).
  WEFT_DEVICE void store() const {}
};

/// A thread_slice held in the thread's registers: PerThread values, the
/// slice's length, each use naming a constant one once the loops along the
/// slice unroll whole (weft unrolls them where it chooses this), so that
/// the array never leaves registers. Its values (and which of them were
/// written) are the kernel's own, apart from the struct: the
/// span's stores must not seem to reach the struct's fields (which the
/// slots are computed from) for the GPU compiler to keep either in
/// registers (which of them were written: a mask, whose bits the unrolled
/// loops set to constants). Writes go through to the span at once, or where
/// Deferred (weft proved the iteration's other accesses of the span apart from
/// the slice, while Apart holds) at store(): no store then stands between the
/// loads of the unrolled loops, which the compiler may issue early.
template <class T, unsigned PerThread, class Span> struct register_slice {
  static_assert(PerThread <= 64, "a register slice's writes are 64 bits");
  T (&Values)[PerThread];
  unsigned long long &Written; // bit W: Values[W] written
  Span Source;
  index_t Anchor, Stride, Lo, Count;
  bool Deferred, Apart;
  WEFT_DEVICE bool fits() const {
    return Count <= (index_t)PerThread && (!Deferred || Apart);
  }
  /// The thread's elements inside the span, all loads issued together,
  /// unrecorded by the simulator's checker as thread_slice's.
  WEFT_DEVICE void load() const {
    const index_t First = Anchor + Lo * Stride;
    WEFT_UNROLL
    for (unsigned W = 0; W < PerThread; ++W) {
      const index_t G = First + (index_t)W * Stride;
      Values[W] = (index_t)W < Count && G >= 0 && G < (index_t)Source.size()
                      ? Source.data()[G]
                      : T();
    }
  }
  template <class Index> WEFT_DEVICE T ld(index_t W, Index I) const {
    WEFT_SIM_ONLY(Source.check_read(I());
                  check_slice_element(Anchor, Stride, Lo, Count, W, I()));
    return Values[W - Lo];
  }
  template <class Index> WEFT_DEVICE T &at(index_t W, Index I) const {
    WEFT_SIM_ONLY(check_slice_element(Anchor, Stride, Lo, Count, W, I()));
    if (Deferred)
      Written |= 1ull << (W - Lo);
    return Values[W - Lo];
  }
  WEFT_DEVICE T through(index_t I, T V) const {
    if (!Deferred)
      Source[I] = V;
    return V;
  }
  /// The deferred writes, at the iteration's end.
  WEFT_DEVICE void store() const {
    if (!Deferred)
      return;
    WEFT_UNROLL
    for (unsigned W = 0; W < PerThread; ++W)
      if ((Written >> W) & 1u)
        Source[Anchor + (Lo + (index_t)W) * Stride] = Values[W];
  }
};

/// A block of a matrix that a sequential nest's block of threads holds in
/// shared memory for its whole loop: element (R, C) of the span's
/// R * Stride + C, R in [RowLo, RowLo + Rows), C in [ColLo, ColLo + Cols),
/// at [(R - RowLo) * pitch() + C - ColLo]. Loaded before the loop and stored
/// after it, every thread calling (a barrier between); the loop's reads and
/// writes find their element there. Capacity elements fit: Rows * pitch().
template <class T, unsigned Capacity, class Span> struct resident_block {
  shared_array<T, Capacity> &Buffer;
  Span Source;
  index_t Stride, RowLo, Rows, ColLo, Cols;
  /// An odd row pitch: a warp's threads down a column (lud's column of L)
  /// fall in 32 different banks, not all in one.
  WEFT_DEVICE index_t pitch() const { return Cols | 1; }
  /// Columns no wider than the stride: each element of the block is a
  /// different element of the span.
  WEFT_DEVICE bool fits() const {
    return Rows <= 0 || Cols <= 0 ||
           (Rows * pitch() <= (index_t)Capacity && Cols <= Stride);
  }
  /// The elements inside the span (the loop may never reach the others),
  /// unrecorded by the simulator's checker: the loop's reads record their
  /// own.
  WEFT_DEVICE void load(unsigned Thread, unsigned Threads) const {
    const resident_block &Block = *this;
    gather(
        Buffer, Source, Thread, Threads, Rows * Cols,
        [&](index_t E) { return Block.place(E); },
        [&](index_t E) { return Block.slot(E); });
  }
  /// Back to the span: the block's threads alone touch it meanwhile.
  WEFT_DEVICE void store(unsigned Thread, unsigned Threads) const {
    for (index_t E = Thread; E < Rows * Cols; E += Threads) {
      const index_t G = place(E);
      if (G >= 0 && G < (index_t)Source.size())
        Source.data()[G] = Buffer.ld(slot(E));
    }
  }
  /// Span element I, which is (R, C).
  template <class Index> WEFT_DEVICE T ld(index_t R, index_t C, Index I) const {
    WEFT_SIM_ONLY(Source.check_read(I()); check_block_element(
                      RowLo, Rows, ColLo, Cols, Stride, R, C, I()));
    return Buffer.ld((R - RowLo) * pitch() + C - ColLo);
  }
  template <class Index>
  WEFT_DEVICE T &at(index_t R, index_t C, Index I) const {
    WEFT_SIM_ONLY(Source.check_write(I()); check_block_element(
                      RowLo, Rows, ColLo, Cols, Stride, R, C, I()));
    return Buffer[(R - RowLo) * pitch() + C - ColLo];
  }

private:
  /// Element E of the block in row-major order: its place in the span and
  /// its slot in shared memory.
  WEFT_DEVICE index_t place(index_t E) const {
    const index_t R = E / Cols;
    return (RowLo + R) * Stride + ColLo + (E - R * Cols);
  }
  WEFT_DEVICE index_t slot(index_t E) const {
    const index_t R = E / Cols;
    return R * pitch() + (E - R * Cols);
  }
};

} // namespace weft
