// complex.h: std::complex<float> and <double> in kernels, as
// weft::complex<T>. Part of weft/device.h.
namespace weft {

/// std::complex<float> and std::complex<double> as the plugin maps them: the
/// same layout (the real part first), the operators and functions of
/// <complex>. Division scales as Smith's algorithm does (the host's library
/// may round the last bit differently).
template <class T> struct complex { T re, im; };
template <class T> WEFT_DEVICE complex<T> operator+(complex<T> A) { return A; }
template <class T> WEFT_DEVICE complex<T> operator-(complex<T> A) {
  return {-A.re, -A.im};
}
template <class T>
WEFT_DEVICE complex<T> operator+(complex<T> A, complex<T> B) {
  return {A.re + B.re, A.im + B.im};
}
template <class T>
WEFT_DEVICE complex<T> operator-(complex<T> A, complex<T> B) {
  return {A.re - B.re, A.im - B.im};
}
template <class T>
WEFT_DEVICE complex<T> operator*(complex<T> A, complex<T> B) {
  return {A.re * B.re - A.im * B.im, A.re * B.im + A.im * B.re};
}
template <class T>
WEFT_DEVICE complex<T> operator/(complex<T> A, complex<T> B) {
  if (fabs(B.re) >= fabs(B.im)) {
    const T R = B.im / B.re, D = B.re + B.im * R;
    return {(A.re + A.im * R) / D, (A.im - A.re * R) / D};
  }
  const T R = B.re / B.im, D = B.re * R + B.im;
  return {(A.re * R + A.im) / D, (A.im * R - A.re) / D};
}
// With a real operand on either side.
#define WEFT_COMPLEX_REAL(Op)                                                  \
  template <class T> WEFT_DEVICE complex<T> operator Op(complex<T> A, T B) {   \
    return A Op complex<T>{B, T(0)};                                           \
  }                                                                            \
  template <class T> WEFT_DEVICE complex<T> operator Op(T A, complex<T> B) {   \
    return complex<T>{A, T(0)} Op B;                                           \
  }                                                                            \
  template <class T>                                                           \
  WEFT_DEVICE complex<T> &operator Op##=(complex<T> &A, complex<T> B) {        \
    return A = A Op B;                                                         \
  }                                                                            \
  template <class T>                                                           \
  WEFT_DEVICE complex<T> &operator Op##=(complex<T> &A, T B) {                 \
    return A = A Op complex<T>{B, T(0)};                                       \
  }
WEFT_COMPLEX_REAL(+)
WEFT_COMPLEX_REAL(-)
WEFT_COMPLEX_REAL(/)
#undef WEFT_COMPLEX_REAL
// A real factor scales both parts (as <complex> does).
template <class T> WEFT_DEVICE complex<T> operator*(complex<T> A, T B) {
  return {A.re * B, A.im * B};
}
template <class T> WEFT_DEVICE complex<T> operator*(T A, complex<T> B) {
  return {A * B.re, A * B.im};
}
template <class T>
WEFT_DEVICE complex<T> &operator*=(complex<T> &A, complex<T> B) {
  return A = A * B;
}
template <class T> WEFT_DEVICE complex<T> &operator*=(complex<T> &A, T B) {
  return A = A * B;
}
template <class T> WEFT_DEVICE bool operator==(complex<T> A, complex<T> B) {
  return A.re == B.re && A.im == B.im;
}
template <class T> WEFT_DEVICE bool operator!=(complex<T> A, complex<T> B) {
  return !(A == B);
}
template <class T> WEFT_DEVICE T real(complex<T> Z) { return Z.re; }
template <class T> WEFT_DEVICE T imag(complex<T> Z) { return Z.im; }
template <class T> WEFT_DEVICE void set_real(complex<T> &Z, T V) { Z.re = V; }
template <class T> WEFT_DEVICE void set_imag(complex<T> &Z, T V) { Z.im = V; }
template <class T> WEFT_DEVICE T abs(complex<T> Z) { return hypot(Z.re, Z.im); }
template <class T> WEFT_DEVICE T arg(complex<T> Z) { return atan2(Z.im, Z.re); }
template <class T> WEFT_DEVICE T norm(complex<T> Z) {
  return Z.re * Z.re + Z.im * Z.im;
}
template <class T> WEFT_DEVICE complex<T> conj(complex<T> Z) {
  return {Z.re, -Z.im};
}
template <class T> WEFT_DEVICE complex<T> polar(T Rho, T Theta = T(0)) {
  return {Rho * cos(Theta), Rho * sin(Theta)};
}
template <class T> WEFT_DEVICE complex<T> exp(complex<T> Z) {
  return polar(exp(Z.re), Z.im);
}
template <class T> WEFT_DEVICE complex<T> log(complex<T> Z) {
  return {log(abs(Z)), arg(Z)};
}
template <class T> WEFT_DEVICE complex<T> sqrt(complex<T> Z) {
  if (Z.re == T(0) && Z.im == T(0))
    return {T(0), Z.im};
  const T Root = sqrt((fabs(Z.re) + abs(Z)) / T(2));
  if (Z.re >= T(0))
    return {Root, Z.im / (T(2) * Root)};
  return {fabs(Z.im) / (T(2) * Root), copysign(Root, Z.im)};
}
template <class T> WEFT_DEVICE complex<T> pow(complex<T> Z, complex<T> W) {
  return Z == complex<T>{T(0), T(0)} ? Z : exp(W * log(Z));
}
template <class T> WEFT_DEVICE complex<T> pow(complex<T> Z, T W) {
  return Z == complex<T>{T(0), T(0)} ? Z : exp(W * log(Z));
}
template <class T> WEFT_DEVICE complex<T> pow(T Z, complex<T> W) {
  return Z == T(0) ? complex<T>{T(0), T(0)} : exp(W * log(Z));
}
template <class T> WEFT_DEVICE complex<T> log10(complex<T> Z) {
  return log(Z) / T(2.30258509299404568401799145468436421);
}
template <class T> WEFT_DEVICE complex<T> sin(complex<T> Z) {
  return {sin(Z.re) * cosh(Z.im), cos(Z.re) * sinh(Z.im)};
}
template <class T> WEFT_DEVICE complex<T> cos(complex<T> Z) {
  return {cos(Z.re) * cosh(Z.im), -(sin(Z.re) * sinh(Z.im))};
}
template <class T> WEFT_DEVICE complex<T> tan(complex<T> Z) {
  return sin(Z) / cos(Z);
}
template <class T> WEFT_DEVICE complex<T> sinh(complex<T> Z) {
  return {sinh(Z.re) * cos(Z.im), cosh(Z.re) * sin(Z.im)};
}
template <class T> WEFT_DEVICE complex<T> cosh(complex<T> Z) {
  return {cosh(Z.re) * cos(Z.im), sinh(Z.re) * sin(Z.im)};
}
template <class T> WEFT_DEVICE complex<T> tanh(complex<T> Z) {
  return sinh(Z) / cosh(Z);
}

} // namespace weft
