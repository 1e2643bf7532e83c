// merilo/sync/detail/mem_order.hpp — the two memory-model types that
// merilo::sync's atomics (sync.hpp) need, apart from the model itself
// (memory_model.hpp), so the header production code includes stays light.
#ifndef MERILO_SYNC_DETAIL_MEM_ORDER_HPP
#define MERILO_SYNC_DETAIL_MEM_ORDER_HPP

#include <cstdint>  // std::uint8_t, std::uint64_t

namespace merilo::sync::detail {

/// std::memory_order, as the model names it. consume is treated as
/// acquire (as every compiler does).
enum class MemOrder : std::uint8_t { relaxed, consume, acquire, release, acq_rel, seq_cst };

/// What a committed compare-exchange did.
struct CasResult {
  bool success = false;    ///< The expected value was found and the desired one written.
  std::uint64_t read = 0;  ///< The value found.
};

}  // namespace merilo::sync::detail

#endif  // MERILO_SYNC_DETAIL_MEM_ORDER_HPP
