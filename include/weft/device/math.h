// math.h: <cmath>'s functions and <algorithm>'s min, max and clamp as
// kernels call them. The plugin maps std::sqrt, ::sqrtf, ... to weft::sqrt,
// with one overload per floating type, as in <cmath>; each dialect's
// WEFT_MATHn (library functions) and WEFT_EXACTn (those every GPU does in
// instructions) say how. Part of weft/device.h.
namespace weft {

// clang-format off
WEFT_EXACT1(sqrt) WEFT_EXACT1(fabs) WEFT_EXACT1(floor) WEFT_EXACT1(ceil)
WEFT_EXACT1(round) WEFT_EXACT1(trunc) WEFT_EXACT1(rint) WEFT_EXACT1(nearbyint)
WEFT_EXACT2(fmin) WEFT_EXACT2(fmax) WEFT_EXACT2(copysign)
WEFT_MATH1(cbrt) WEFT_MATH1(exp) WEFT_MATH1(exp2) WEFT_MATH1(expm1)
WEFT_MATH1(log) WEFT_MATH1(log2) WEFT_MATH1(log10) WEFT_MATH1(log1p)
WEFT_MATH1(sin) WEFT_MATH1(cos) WEFT_MATH1(tan) WEFT_MATH1(asin)
WEFT_MATH1(acos) WEFT_MATH1(atan) WEFT_MATH1(sinh) WEFT_MATH1(cosh)
WEFT_MATH1(tanh) WEFT_MATH1(asinh) WEFT_MATH1(acosh) WEFT_MATH1(atanh)
WEFT_MATH1(erf) WEFT_MATH1(erfc) WEFT_MATH1(tgamma) WEFT_MATH1(lgamma)
WEFT_MATH2(pow) WEFT_MATH2(atan2) WEFT_MATH2(fmod) WEFT_MATH2(hypot)
WEFT_MATH2(fdim) WEFT_MATH2(remainder)
#undef WEFT_MATH1
#undef WEFT_MATH2
#undef WEFT_EXACT1
#undef WEFT_EXACT2

// std::abs, std::min, std::max and std::clamp as <cmath>/<algorithm> define
// them for arithmetic types. (Formatting stays off to here: the macro lines
// above end in no semicolon, which clang-format reads as one statement.)
WEFT_DEVICE float abs(float X) { return fabs(X); }
// clang-format on
WEFT_DEVICE double abs(double X) { return fabs(X); }
WEFT_DEVICE int abs(int X) { return X < 0 ? -X : X; }
WEFT_DEVICE long abs(long X) { return X < 0 ? -X : X; }
WEFT_DEVICE long long abs(long long X) { return X < 0 ? -X : X; }
// Rounding to an integer, and classification, as <cmath> defines them
// (no fast math anywhere, so a NaN compares unequal to itself).
WEFT_DEVICE long lround(float X) { return (long)round(X); }
WEFT_DEVICE long lround(double X) { return (long)round(X); }
WEFT_DEVICE long long llround(float X) { return (long long)round(X); }
WEFT_DEVICE long long llround(double X) { return (long long)round(X); }
WEFT_DEVICE long lrint(float X) { return (long)rint(X); }
WEFT_DEVICE long lrint(double X) { return (long)rint(X); }
WEFT_DEVICE long long llrint(float X) { return (long long)rint(X); }
WEFT_DEVICE long long llrint(double X) { return (long long)rint(X); }
template <class T> WEFT_DEVICE bool isnan(T X) { return X != X; }
template <class T> WEFT_DEVICE bool isfinite(T X) { return X - X == X - X; }
template <class T> WEFT_DEVICE bool isinf(T X) {
  return X == X && !isfinite(X);
}
template <class T> WEFT_DEVICE bool signbit(T X) {
  return copysign(1.0, (double)X) < 0;
}
template <class T> WEFT_DEVICE const T &min(const T &A, const T &B) {
  return B < A ? B : A;
}
template <class T> WEFT_DEVICE const T &max(const T &A, const T &B) {
  return A < B ? B : A;
}
template <class T>
WEFT_DEVICE const T &clamp(const T &V, const T &Lo, const T &Hi) {
  return V < Lo ? Lo : (Hi < V ? Hi : V);
}

} // namespace weft
