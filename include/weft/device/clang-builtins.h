// clang-builtins.h: what the simulator and HIP (both compiled by clang)
// take from clang's builtins alike: fma, the infinities and the bit casts.
// Part of weft/device.h, after the dialects.
#if defined(WEFT_DIALECT_SIM) || defined(WEFT_DIALECT_HIP)
namespace weft {

WEFT_DEVICE float fma(float X, float Y, float Z) {
  return __builtin_fmaf(X, Y, Z);
}
WEFT_DEVICE double fma(double X, double Y, double Z) {
  return __builtin_fma(X, Y, Z);
}
WEFT_DEVICE float infinity_f() { return __builtin_huge_valf(); }
WEFT_DEVICE double infinity_d() { return __builtin_huge_val(); }
WEFT_DEVICE unsigned float_bits(float X) {
  return __builtin_bit_cast(unsigned, X);
}
WEFT_DEVICE float bits_float(unsigned X) {
  return __builtin_bit_cast(float, X);
}
WEFT_DEVICE unsigned long long double_bits(double X) {
  return __builtin_bit_cast(unsigned long long, X);
}
WEFT_DEVICE double bits_double(unsigned long long X) {
  return __builtin_bit_cast(double, X);
}

} // namespace weft
#endif
