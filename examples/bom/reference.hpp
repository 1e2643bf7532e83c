// reference.hpp — the same roll-up as walk.hpp written as plain recursion,
// the oracle the tests, the explorer and the fuzzer compare the machine
// with.
//
// It shares no code with `bom::Walk`: it recurses on the C++ stack, keeps
// the path in a small array, and finds a cycle, an overflow or the call
// limit in the order the machine's steps meet them (a call is counted per
// line walked and once more when a part is complete, as the machine counts
// its steps), so the two agree on which refusal comes first and on how many
// calls were made before it.
//
//   const bom::Rolled r = bom::roll_up_recursively(bill, root, 1000);
//   if (r.refusal == bom::Refusal::none) use(r.total, r.need);
#ifndef MERILO_EXAMPLES_BOM_REFERENCE_HPP
#define MERILO_EXAMPLES_BOM_REFERENCE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <bom/bill.hpp>
#include <bom/walk.hpp>

namespace bom {

/// What `roll_up_recursively` computes.
struct Rolled {
  Refusal refusal = Refusal::none;              ///< Why it stopped early (`none`: it did not).
  std::uint64_t total = 0;                      ///< The root's subtotal, when not refused.
  std::array<std::uint64_t, kMaxParts> need{};  ///< How many of each part the root needs.
  std::uint64_t calls = 0;                      ///< Calls made, as the machine counts steps.
};

namespace detail {

// The recursion, with its path and counters.
class Recursion {
 public:
  Recursion(const Bill& bill, std::uint64_t call_limit) : bill_(bill), limit_(call_limit) {}

  // The subtotal of `p`, needed `need` times on this path; false on a
  // refusal. The visit that completes `p` is its caller's to count.
  bool subtotal(std::size_t p, std::uint64_t need, std::uint64_t& out) {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    path_[depth_++] = p;
    const Part& part = bill_.part(p);
    std::uint64_t sub = part.value;
    for (std::size_t l = 0; l < part.line_count; ++l) {
      // The visit that walks line l.
      if (!may_call()) return false;
      const Line& line = part.lines[l];
      const auto child = static_cast<std::size_t>(line.child);
      for (std::size_t i = 0; i < depth_; ++i) {
        if (path_[i] == child) return refuse(Refusal::cycle);
      }
      if (line.quantity > kMax / need) return refuse(Refusal::overflow);
      const std::uint64_t child_need = need * line.quantity;
      if (child_need > kMax - out_.need[child]) return refuse(Refusal::overflow);
      out_.need[child] += child_need;
      ++out_.calls;
      std::uint64_t child_sub = 0;
      if (!subtotal(child, child_need, child_sub)) return false;
      // The visit that completes the child and adds it to `p`.
      if (!may_call()) return false;
      if (child_sub != 0 && line.quantity > kMax / child_sub) return refuse(Refusal::overflow);
      if (line.quantity * child_sub > kMax - sub) return refuse(Refusal::overflow);
      sub += line.quantity * child_sub;
      ++out_.calls;
    }
    --depth_;
    out = sub;
    return true;
  }

  // The visit that completes the root.
  bool finish_root() {
    if (!may_call()) return false;
    ++out_.calls;
    return true;
  }

  Rolled& result() { return out_; }

 private:
  // A call is counted only once its visit succeeds, as the machine keeps
  // its count unchanged when it refuses a step.
  bool may_call() {
    if (out_.calls >= limit_) return refuse(Refusal::call_limit);
    return true;
  }
  bool refuse(Refusal r) {
    out_.refusal = r;
    return false;
  }

  const Bill& bill_;
  std::uint64_t limit_;
  Rolled out_{};
  std::array<std::size_t, kMaxParts> path_{};
  std::size_t depth_ = 0;
};

}  // namespace detail

/// The roll-up of `bill` from `root` (which must be a part of it), by plain
/// recursion, allowed `call_limit` calls.
[[nodiscard]] inline Rolled roll_up_recursively(const Bill& bill, std::size_t root,
                                                std::uint64_t call_limit) {
  detail::Recursion rec(bill, call_limit);
  rec.result().need[root] = 1;
  std::uint64_t total = 0;
  if (rec.subtotal(root, 1, total) && rec.finish_root()) rec.result().total = total;
  return rec.result();
}

}  // namespace bom

#endif  // MERILO_EXAMPLES_BOM_REFERENCE_HPP
