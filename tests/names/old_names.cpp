// old_names.cpp — the names issue 21 retired still compile, as the same
// types and functions as the new ones, and each says what to use instead
// (tests/names/CMakeLists.txt compiles this file twice: with deprecation
// warnings off it must compile; with them as errors it must name the new
// name). docs/design/one-vocabulary.md lists the renames.
#include <string>
#include <type_traits>

#include <merilo/explore/replay.hpp>
#include <merilo/explore/violation.hpp>
#include <merilo/fuzz/run.hpp>
#include <merilo/linearize/models.hpp>
#include <merilo/parallel/failure.hpp>
#include <merilo/parallel/spec.hpp>
#include <merilo/statem/statem.hpp>

namespace statem = merilo::statem;
namespace parallel = merilo::parallel;
namespace lin = merilo::linearize;

// Settings are `<EntryPoint>Options`; the failure fields without the
// command lists are `FailureInfo` in both testers.
static_assert(std::is_same_v<statem::CheckConfig, statem::CheckOptions>);
static_assert(std::is_same_v<parallel::CheckConfig, parallel::CheckOptions>);
static_assert(std::is_same_v<parallel::FailureCore, parallel::FailureInfo>);

// A user's old call sites, written as they were.
std::string old_call_sites() {
  const statem::CheckConfig config{.seed = 1, .test_count = 2};
  const parallel::CheckConfig parallel_config{.seed = 1, .test_count = 3};
  const parallel::FailureCore core{};
  std::string out = std::to_string(config.test_count + parallel_config.test_count + core.run);
  out += lin::describe(lin::RegisterCmd::write(3));
  out += lin::describe(lin::RegisterResponse::of(4));
  out += lin::describe(lin::RegisterModel{});
  out += merilo::explore::Violation{}.describe();
  out += merilo::explore::Replayed{}.describe();
  out += merilo::fuzz::Run{}.describe();
  return out;
}

// The new names print the same text as the old ones did.
std::string new_call_sites() {
  std::string out = merilo_describe(lin::RegisterCmd::write(3));
  out += merilo::explore::Violation{}.summary();
  return out;
}
