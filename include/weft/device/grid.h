// grid.h: a thread's place in its block and in the grid, from the
// dialect's indices. Part of weft/device.h.
namespace weft {

WEFT_DEVICE index_t global_id_x() {
  return (index_t)block_idx(0) * block_dim(0) + thread_idx(0);
}
WEFT_DEVICE index_t global_size_x() {
  return (index_t)grid_dim(0) * block_dim(0);
}
WEFT_DEVICE unsigned linear_thread() {
  return thread_idx(0) +
         block_dim(0) * (thread_idx(1) + block_dim(1) * thread_idx(2));
}
WEFT_DEVICE unsigned long long linear_block() {
  return block_idx(0) +
         (unsigned long long)grid_dim(0) *
             (block_idx(1) + (unsigned long long)grid_dim(1) * block_idx(2));
}
WEFT_DEVICE unsigned block_threads() {
  return block_dim(0) * block_dim(1) * block_dim(2);
}
/// The thread's index in the whole grid, x fastest.
WEFT_DEVICE index_t global_thread() {
  return (index_t)linear_block() * block_threads() + linear_thread();
}
WEFT_DEVICE index_t global_threads() {
  return (index_t)grid_dim(0) * grid_dim(1) * grid_dim(2) * block_threads();
}

} // namespace weft
