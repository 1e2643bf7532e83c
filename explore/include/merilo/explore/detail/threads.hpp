// merilo/explore/detail/threads.hpp — running one job on the search's
// threads, the calling thread among them.
//
// NOTE: included by explorer_inl.hpp only, after explore.hpp has declared
// the options and result types it uses.
#ifndef MERILO_EXPLORE_DETAIL_THREADS_HPP
#define MERILO_EXPLORE_DETAIL_THREADS_HPP

#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

#include <merilo/core/reentry.hpp>

namespace merilo::explore::detail {

/// Runs `work(t)` on threads 0..n-1, the calling thread being 0, and
/// rethrows the first exception of merilo's own (out of memory) any raised.
template <class F>
void run_on_threads(std::size_t n, F&& work) {
  std::vector<std::exception_ptr> failures(n);
  auto guarded = [&](std::size_t t) {
    core::EntryGuard guard;
    try {
      work(t);
    } catch (...) {
      failures[t] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> threads;
    threads.reserve(n - 1);
    for (std::size_t t = 1; t < n; ++t) threads.emplace_back(guarded, t);
    guarded(0);
  }
  for (auto& f : failures) {
    if (f) std::rethrow_exception(f);
  }
}

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_THREADS_HPP
