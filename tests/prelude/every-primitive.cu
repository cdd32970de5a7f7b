// every-primitive.cu: one kernel calling every function of the prelude
// (math for float and double, warp exchanges and votes, atomics, barriers,
// reductions), compiled by every kernel compiler the tests use.
#include <weft/device.h>

template <class T> WEFT_DEVICE T everyMathFunction(T X) {
  T R = X;
  R += weft::sqrt(X) + weft::cbrt(X) + weft::exp(X) + weft::exp2(X) +
       weft::expm1(X) + weft::log(X) + weft::log2(X);
  R += weft::log10(X) + weft::log1p(X) + weft::sin(X) + weft::cos(X) +
       weft::tan(X) + weft::asin(X) + weft::acos(X);
  R += weft::atan(X) + weft::sinh(X) + weft::cosh(X) + weft::tanh(X) +
       weft::asinh(X) + weft::acosh(X);
  R += weft::atanh(X) + weft::erf(X) + weft::erfc(X) + weft::tgamma(X) +
       weft::lgamma(X) + weft::fabs(X);
  R += weft::floor(X) + weft::ceil(X) + weft::round(X) + weft::trunc(X) +
       weft::abs(X);
  R += weft::pow(X, R) + weft::atan2(X, R) + weft::fmod(X, R) +
       weft::fmin(X, R) + weft::fmax(X, R);
  R += weft::hypot(X, R) + weft::copysign(X, R) + weft::min(X, R) +
       weft::max(X, R);
  return R + weft::fma(X, R, X) + weft::clamp(R, X, X);
}

template <class T> WEFT_DEVICE T everyWarpExchange(T V) {
  V += weft::shfl(V, 1u) + weft::shfl_down(V, 2u) + weft::shfl_xor(V, 4u);
  V = weft::warp_allreduce<weft::reduce_add>(V, 32);
  return weft::warp_allreduce<weft::reduce_max>(V, weft::warp_size());
}

WEFT_KERNEL(weft_every_primitive, 256)
(weft::dspan<float> F, weft::dspan<double> D, weft::dspan<int> I,
 weft::dspan<unsigned long long> U) {
  WEFT_SHARED weft::shared_array<double, 256> Scratch;
  const weft::index_t T = weft::global_id_x();
  const bool In = T < (weft::index_t)F.size();
  const float X = In ? F.ld(T) : 1.0f;
  const double Y = In ? D.ld(T) : 1.0;
  const int Z = In ? I.ld(T) : 1;
  const float A = everyMathFunction(X) + everyWarpExchange(X);
  weft::begin_iteration(T);
  weft::inner_level(true);
  weft::begin_inner_iteration(T % 8);
  weft::inner_level(false);
  const double B = everyMathFunction(Y) + everyWarpExchange(Y) +
                   weft::block_allreduce<weft::reduce_min>(
                       Y, Scratch, weft::linear_thread()) +
                   weft::axis_allreduce<weft::reduce_add>(
                       Y, Scratch, weft::thread_idx(0), 1, 256);
  const int C = everyWarpExchange(Z) + weft::abs(Z) + (int)weft::lane_id();
  const unsigned long long Votes =
      weft::ballot(A > 0) + weft::all(B > 0) + weft::any(C > 0);
  weft::warp_sync();
  weft::barrier();
  // argmax / argmin keys, on float and int values, finished in place.
  float BestF = A;
  int BestI = C, AtF = 0, AtI = 0;
  weft::arg_finish<true, true>(weft::arg_key<true, true>(A, T), BestF, AtF);
  weft::arg_finish<false, false>(weft::arg_key<false, false>(C, T), BestI,
                                 AtI);
  // and on double and 64-bit integer values: key128, across lanes and the
  // block as two halves.
  double BestD = B;
  long long BestL = C, AtD = 0, AtL = 0;
  weft::key128 KeyD = weft::warp_allreduce<weft::reduce_max>(
      weft::arg_key<true, false>(B, T), weft::warp_size());
  KeyD = weft::combine<weft::reduce_max>(KeyD, weft::shfl(KeyD, 0));
  KeyD = weft::combine<weft::reduce_max>(KeyD, weft::shfl_down(KeyD, 1));
  weft::arg_finish<true, false>(KeyD, BestD, AtD);
  weft::arg_finish<false, true>(
      weft::identity<weft::reduce_min, weft::key128>() <
              weft::arg_key<false, true>((long long)C, T)
          ? weft::arg_key<false, true>((long long)C, T)
          : weft::identity<weft::reduce_min, weft::key128>(),
      BestL, AtL);
  if (In) {
    F[T] = A + weft::identity<weft::reduce_mul, float>() + BestF + AtF +
           BestI + AtI;
    D[T] = B + weft::identity<weft::reduce_min, double>() + BestD + AtD +
           BestL + AtL;
    I[T] = C;
  }
  weft::atomic_add(&F[0], 1.0f);
  weft::atomic_add(&I[0], 1);
  weft::atomic_min(&I[1], C);
  weft::atomic_max(&I[1], C);
  weft::atomic_exch(&I[2], C);
  weft::atomic_cas(&I[3], 0, C);
  weft::atomic_add(&U[0], Votes);
}
