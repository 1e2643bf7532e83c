// merilo/parallel/shrink.hpp — the smaller cases a failing case is shrunk
// toward, in the order they are tried.
//
// `shrink_candidates(c)` lists, in order:
//
//   1. drop a branch (only while there are more than two),
//   2. merge two branches i < j (branch j appended to branch i),
//   3. delete one command from a branch,
//   4. delete one command from the prefix,
//   5. delete two neighbouring commands from the prefix (a pair such as a
//      push and the pop after it, neither of which can go alone),
//   6. delete two neighbouring commands from a branch (the same pairs: in
//      a race each alone may change what the other branch can see, and
//      the smaller case may then fail only with more preemptions than the
//      search of a candidate allows, see shrink_inl.hpp),
//   7. move a branch's first command to the end of the prefix.
//
// Branches left empty are removed, so a candidate may race fewer than two
// branches: it is kept only while it still fails with the original tag, so
// a failure in the prefix shrinks to the prefix alone. `check` tries each
// candidate that is admissible (see parallel.hpp) and keeps the first that
// fails the same way, then starts over from the kept one.
//
// Example:
//
//   Case<int> c{.prefix = {1}, .branches = {{2, 3}, {4}}};
//   auto next = merilo::parallel::shrink_candidates(c);
//   // next[0] merges: {1} | {2, 3, 4}; next[1] deletes 2: {1} | {3} {4}; ...
#ifndef MERILO_PARALLEL_SHRINK_HPP
#define MERILO_PARALLEL_SHRINK_HPP

#include <cstddef>  // std::size_t
#include <vector>

#include <merilo/parallel/spec.hpp>  // Case

namespace merilo::parallel {

/// The shrink candidates of `c`, in the order `check` tries them (see the
/// top of this file).
template <class Cmd>
[[nodiscard]] std::vector<Case<Cmd>> shrink_candidates(const Case<Cmd>& c) {
  std::vector<Case<Cmd>> out;
  const std::size_t n = c.branches.size();
  const auto drop_empty = [](Case<Cmd>& x) {
    std::erase_if(x.branches, [](const std::vector<Cmd>& b) { return b.empty(); });
  };
  if (n > kMinBranches) {
    for (std::size_t i = 0; i < n; ++i) {
      Case<Cmd> x = c;
      x.branches.erase(x.branches.begin() + static_cast<std::ptrdiff_t>(i));
      out.push_back(std::move(x));
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      Case<Cmd> x = c;
      x.branches[i].insert(x.branches[i].end(), c.branches[j].begin(), c.branches[j].end());
      x.branches.erase(x.branches.begin() + static_cast<std::ptrdiff_t>(j));
      out.push_back(std::move(x));
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < c.branches[i].size(); ++k) {
      Case<Cmd> x = c;
      x.branches[i].erase(x.branches[i].begin() + static_cast<std::ptrdiff_t>(k));
      drop_empty(x);
      out.push_back(std::move(x));
    }
  }
  for (std::size_t k = 0; k < c.prefix.size(); ++k) {
    Case<Cmd> x = c;
    x.prefix.erase(x.prefix.begin() + static_cast<std::ptrdiff_t>(k));
    out.push_back(std::move(x));
  }
  for (std::size_t k = 0; k + 1 < c.prefix.size(); ++k) {
    Case<Cmd> x = c;
    const auto at = x.prefix.begin() + static_cast<std::ptrdiff_t>(k);
    x.prefix.erase(at, at + 2);
    out.push_back(std::move(x));
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k + 1 < c.branches[i].size(); ++k) {
      Case<Cmd> x = c;
      const auto at = x.branches[i].begin() + static_cast<std::ptrdiff_t>(k);
      x.branches[i].erase(at, at + 2);
      drop_empty(x);
      out.push_back(std::move(x));
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (c.branches[i].empty()) continue;
    Case<Cmd> x = c;
    x.prefix.push_back(c.branches[i].front());
    x.branches[i].erase(x.branches[i].begin());
    drop_empty(x);
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace merilo::parallel

#endif  // MERILO_PARALLEL_SHRINK_HPP
