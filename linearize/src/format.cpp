// format.cpp — report text for check() results and verdict names.
#include <merilo/linearize/format.hpp>
#include <merilo/linearize/model.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace merilo::linearize {

const char* name(Verdict v) noexcept {
  switch (v) {
    case Verdict::linearizable:
      return "linearizable";
    case Verdict::not_linearizable:
      return "not linearizable";
    case Verdict::undecided:
      return "undecided";
    case Verdict::usage_error:
      return "usage error";
    case Verdict::crashed:
      return "crashed";
  }
  return "out-of-range verdict";
}

namespace detail {

namespace {
std::string call_label(CallRef c) { return fmt::format("thread {} #{}", c.history, c.index); }
}  // namespace

std::string format_result(const ResultText& text) {
  std::string out;
  auto it = std::back_inserter(out);
  if (text.verdict == Verdict::usage_error || text.verdict == Verdict::crashed) {
    fmt::format_to(it, "{}: {}\n", name(text.verdict), text.error);
    return out;
  }
  fmt::format_to(it, "{} ({} evaluations, {} ruled-out states)\n", name(text.verdict),
                 text.evaluations, text.cache_entries);
  switch (text.verdict) {
    case Verdict::linearizable:
      fmt::format_to(it, "order:\n");
      break;
    case Verdict::not_linearizable:
      fmt::format_to(it, "placed {} of {} calls:\n", text.placed.size(), text.total_calls);
      break;
    case Verdict::undecided:
      fmt::format_to(it, "longest placed prefix, {} of {} calls:\n", text.placed.size(),
                     text.total_calls);
      break;
    case Verdict::usage_error:
    case Verdict::crashed:
      break;
  }
  std::size_t width = 0;
  for (const auto& line : text.placed) width = std::max(width, call_label(line.call).size());
  for (const auto& next : text.next) width = std::max(width, call_label(next.call).size());
  std::size_t n = 0;
  for (const auto& line : text.placed) {
    fmt::format_to(it, "  {:>3}. {:<{}}  {}\n", ++n, call_label(line.call), width, line.text);
  }
  if (text.placed.empty()) fmt::format_to(it, "  (none)\n");
  if (text.next.empty()) return out;
  fmt::format_to(it, "then no thread's next call can go next:\n");
  std::size_t text_width = 0;
  for (const auto& next : text.next) text_width = std::max(text_width, next.text.size());
  for (const auto& next : text.next) {
    fmt::format_to(it, "       {:<{}}  {:<{}}  ", call_label(next.call), width, next.text,
                   text_width);
    fmt::format_to(
        it, "{}\n",
        blocked_reason(next.why, next.reason, call_label(next.overtaken_by), next.reason));
  }
  for (const auto& next : text.next) {
    if (next.unplaceable) {
      fmt::format_to(it, "no valid order places {} ({}) anywhere\n", call_label(next.call),
                     next.text);
    }
  }
  return out;
}

}  // namespace detail

std::string blocked_reason(Blocked why, std::string_view violation, std::string_view overtaker,
                           std::string_view overtaker_text) {
  switch (why) {
    case Blocked::violated:
      return violation.empty() ? std::string("violates") : fmt::format("violates: {}", violation);
    case Blocked::overtaken:
      return fmt::format("must follow {} ({}), which returned before it was invoked", overtaker,
                         overtaker_text);
    case Blocked::explored:
      return "fits, but every way on from there was ruled out";
  }
  return "?";
}

}  // namespace merilo::linearize
