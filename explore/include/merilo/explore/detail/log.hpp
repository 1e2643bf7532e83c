// merilo/explore/detail/log.hpp — the explorer's progress lines and
// summary line (written in src/report.cpp).
//
// NOTE: included by explorer_inl.hpp only, after explore.hpp has declared
// the options and result types it uses.
#ifndef MERILO_EXPLORE_DETAIL_LOG_HPP
#define MERILO_EXPLORE_DETAIL_LOG_HPP

#include <chrono>
#include <cstddef>
#include <cstdio>

namespace merilo::explore::detail {

/// What a progress line says.
struct Progress {
  std::size_t states = 0;    // stored
  std::size_t depth = 0;     // the level being expanded
  std::size_t frontier = 0;  // worlds at that level
  std::size_t expanded = 0;  // of them, expanded so far
  std::size_t memory = 0;    // bytes, as ExploreResult::memory_bytes counts them
};

/// Progress lines (every second once a search has run a second: in place
/// on a terminal, plain lines otherwise) and the summary line.
class Log {
 public:
  explicit Log(std::FILE* out);
  /// Prints a progress line if one is due. Cheap when none is.
  void progress(const Progress& p);
  void summary(const ExploreResult& result);

 private:
  std::FILE* out_;
  bool terminal_;
  bool dirty_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_LOG_HPP
