// merilo/fuzz/detail/target_inl.hpp — the body of Target<S>.
#ifndef MERILO_FUZZ_DETAIL_TARGET_INL_HPP
#define MERILO_FUZZ_DETAIL_TARGET_INL_HPP

#include <cstdlib>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <merilo/core/file.hpp>
#include <merilo/explore/framework.hpp>
#include <merilo/explore/html.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/fuzz/corpus.hpp>

namespace merilo::fuzz {

template <explore::System S>
Target<S>::Target(S sys, TargetOptions options, std::string system_expr)
    : sys_(std::move(sys)),
      options_(options),
      system_expr_(std::move(system_expr)),
      runner_(sys_, options.max_depth) {}

template <explore::System S>
int Target<S>::initialize(int* argc, char*** argv) {
  const bool args = argc != nullptr && argv != nullptr;
  const std::string dir = args ? detail::flag(*argc, *argv, "merilo_seed") : "";
  const std::string bound = args ? detail::flag(*argc, *argv, "merilo_max_states") : "";
  const std::string dict = args ? detail::flag(*argc, *argv, "merilo_dict") : "";
  std::string error = detail::parse_max_states(bound, options_.explore.max_states);
  if (error.empty()) error = detail::check_target(options_, !dir.empty());
  if (!error.empty()) detail::fail(error, 2);
  if (!dict.empty()) {
    const std::string written = write_dictionary(dict, static_cast<std::size_t>(sys_.kinds()));
    if (!written.empty()) detail::fail("ERROR: " + written + "\n", 2);
    detail::print_err("merilo fuzz: wrote the dictionary of " + std::string(options_.name) + " (" +
                      std::to_string(sys_.kinds()) + " kinds) to " + dict + "\n");
    if (dir.empty()) std::exit(0);
  }
  if (dir.empty()) return 0;
  const Seeded seeded = seed(dir);
  detail::print_err(seed_report(seeded, dir));
  std::exit(seeded.ok() ? 0 : 1);
}

template <explore::System S>
Run Target<S>::run(std::span<const std::uint8_t> input) {
  ++executions_;
  return runner_.run(input);
}

template <explore::System S>
int Target<S>::test_one_input(const std::uint8_t* data, std::size_t size) {
  // The runner's own Run, by reference: the hot path copies nothing.
  ++executions_;
  const Run& r = runner_.run(std::span<const std::uint8_t>(data, size));
  if (!r.error.empty()) detail::fail("ERROR: " + r.error + "\n", 2);
  if (r.violation.found()) {
    detail::print_err(report(r, size));
    std::abort();
  }
  return 0;
}

template <explore::System S>
std::string Target<S>::report(const Run& r, std::size_t input_size) {
  detail::CrashReport out{r, options_.name, input_size, executions_, {}, {}, {}, {}};
  const explore::Trace& trace = r.violation.trace;
  const explore::Replayed again = explore::replay(sys_, trace);
  if (again.violation.kind != r.violation.kind || again.violation.trace != trace) {
    out.replayed = again.summary();
  }
  out.table = explore::format(sys_, trace);
  out.test = explore::replay_test(
      "Replay", explore::replay_test_name(options_.name, r.violation.kind), system_expr_, trace);
  const std::string path =
      explore::detail::trace_html_path(explore::replay_test_name(options_.name, r.violation.kind));
  if (!path.empty()) {
    out.page =
        explore::detail::trace_html_line(path, core::write_file(path, trace_html(r, input_size)));
  }
  return detail::crash_report(out);
}

template <explore::System S>
std::string Target<S>::trace_html(const Run& r, std::size_t input_size) {
  return explore::trace_html(
      sys_, r.violation.trace,
      {.title = std::string(options_.name) + ": " + r.violation.summary(),
       .context = detail::crash_context(options_.name, r, input_size),
       .pinned_test = explore::replay_test(
           "Replay", explore::replay_test_name(options_.name, r.violation.kind), system_expr_,
           r.violation.trace)});
}

template <explore::System S>
Seeded Target<S>::seed(const std::string& dir) {
  Seeded out;
  out.error = detail::check_target(options_, true);
  if (!out.error.empty()) return out;
  out.search = explore::explore(sys_, options_.explore);
  if (!out.search.error.empty()) {
    out.error = out.search.error;
    return out;
  }
  if (out.search.violation.found()) return out;
  std::vector<std::vector<std::uint8_t>> inputs;
  inputs.reserve(out.search.tuple_traces.size());
  for (const explore::Trace& t : out.search.tuple_traces) {
    FuzzBytes b = to_fuzz_bytes(sys_, t);
    if (!b.ok()) {
      out.error = b.error;
      return out;
    }
    if (t.size() > options_.max_depth) ++out.too_long;
    inputs.push_back(std::move(b.bytes));
  }
  out.error = write_seeds(dir, inputs);
  if (out.error.empty()) out.written = inputs.size();
  return out;
}

template <explore::System S>
std::string Target<S>::seed_report(const Seeded& seeded, const std::string& dir) {
  if (!seeded.error.empty()) return "ERROR: " + seeded.error + "\n";
  std::string text = detail::seed_summary(options_.name, dir, seeded.written, seeded.too_long,
                                          options_.max_depth, seeded.search);
  const explore::Violation& v = seeded.search.violation;
  if (v.found()) {
    text += explore::format(sys_, v.trace);
    text += "\nPin it with this test, which fails while the bug is there:\n\n";
    text += explore::replay_test("Replay", explore::replay_test_name(options_.name, v.kind),
                                 system_expr_, v.trace);
  }
  return text;
}

}  // namespace merilo::fuzz

#endif  // MERILO_FUZZ_DETAIL_TARGET_INL_HPP
