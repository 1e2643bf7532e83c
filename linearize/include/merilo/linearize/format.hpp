// merilo/linearize/format.hpp — readable text for a check() result.
//
// `explain(result, total_calls, describe_call, describe_violation)` renders
// a `CheckResult` from `check` as a few lines for a test report: the verdict, the
// order (or the longest placed prefix, of `total_calls`), and at a dead end
// each thread's next call with the reason it could not go next, and which
// of them no valid order places anywhere (`Explanation::unplaceable`). The two callbacks turn a
// `CallRef` and a violation into text; the layout is merilo's.
//
// Example (from docs/examples/linearize_check.cpp, where it is compiled and
// its text checked; `threads` are the histories given to check(), 3 calls):
//
// clang-format off
//   std::string text = merilo::linearize::explain(
//       result, 3,
//       [&](merilo::linearize::CallRef c) {
//         const auto& call = threads[c.history][c.index];
//         return call.command.write ? "write " + std::to_string(call.command.value)
//                                   : "read -> " + std::to_string(call.response);
//       },
//       [](const std::string& v) { return v; });
// clang-format on
//
// which, for that stale read, is
//
//   not linearizable (4 evaluations, 3 ruled-out states)
//   placed 2 of 3 calls:
//       1. thread 0 #0  write 1
//       2. thread 1 #0  read -> 1
//   then no thread's next call can go next:
//          thread 1 #1  read -> 0  violates: read 0
//   no valid order places thread 1 #1 (read -> 0) anywhere
#ifndef MERILO_LINEARIZE_FORMAT_HPP
#define MERILO_LINEARIZE_FORMAT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>  // blocked_reason
#include <utility>
#include <vector>

#include <merilo/linearize/check.hpp>

namespace merilo::linearize {

namespace detail {
/// A check() result with every call and violation already turned into text;
/// formatted once, in src/format.cpp.
struct ResultText {
  struct Line {
    CallRef call;
    std::string text;
  };
  struct Next {
    CallRef call;
    std::string text;
    Blocked why = Blocked::violated;
    std::string reason;  // the violation, or the overtaking call
    CallRef overtaken_by;
    bool unplaceable = false;  // no valid order places it anywhere
  };
  Verdict verdict = Verdict::undecided;
  std::string error;
  std::uint64_t evaluations = 0;
  std::uint64_t cache_entries = 0;
  std::size_t total_calls = 0;
  std::vector<Line> placed;  // the order, or the prefix
  std::vector<Next> next;
};

[[nodiscard]] std::string format_result(const ResultText& text);
}  // namespace detail

/// Why a thread's next call could not go next at a dead end, in the words
/// every report uses: "violates: <violation>" (just "violates" when
/// `violation` is empty), "must follow <overtaker> (<overtaker_text>), which
/// returned before it was invoked", or "fits, but every way on from there
/// was ruled out". `violation` is read for `Blocked::violated`, the other
/// two for `Blocked::overtaken`.
[[nodiscard]] std::string blocked_reason(Blocked why, std::string_view violation,
                                         std::string_view overtaker,
                                         std::string_view overtaker_text);

/// A few lines describing `result` (see the top of this file).
/// `describe_call(CallRef) -> std::string` and
/// `describe_violation(const V&) -> std::string` supply the words; the
/// callbacks may throw only what `explain` may throw (it is a reporting
/// helper, not a merilo entry point).
template <class V, class DescribeCall, class DescribeViolation>
[[nodiscard]] std::string explain(const CheckResult<V>& result, std::size_t total_calls,
                                  DescribeCall&& describe_call,
                                  DescribeViolation&& describe_violation) {
  detail::ResultText text;
  text.verdict = result.verdict;
  text.error = result.error;
  text.evaluations = result.evaluations;
  text.cache_entries = result.cache_entries;
  text.total_calls = total_calls;
  const std::vector<CallRef>& placed =
      result.verdict == Verdict::linearizable ? result.order : result.explanation.prefix;
  for (const CallRef& c : placed) text.placed.push_back({c, describe_call(c)});
  for (const NextCall<V>& n : result.explanation.next) {
    detail::ResultText::Next entry{n.call,         describe_call(n.call),
                                   n.why,          {},
                                   n.overtaken_by, n.call == result.explanation.unplaceable};
    if (n.why == Blocked::violated && n.violation) entry.reason = describe_violation(*n.violation);
    if (n.why == Blocked::overtaken) entry.reason = describe_call(n.overtaken_by);
    text.next.push_back(std::move(entry));
  }
  return detail::format_result(text);
}

}  // namespace merilo::linearize

#endif  // MERILO_LINEARIZE_FORMAT_HPP
