// target_test.cpp — the libFuzzer glue: seeding, the crash report, the
// abort that lets the fuzzer keep an input, and the replay driver.
#include <merilo/fuzz/corpus.hpp>
#include <merilo/fuzz/target.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "fixtures.hpp"

namespace {

namespace fz = merilo::fuzz;
namespace fs = std::filesystem;
using merilo::explore::Trace;
using Bytes = std::vector<std::uint8_t>;

fixtures::Recorder small(std::uint8_t poison = 0xFF) {
  fixtures::Recorder sys;
  sys.stop_at = 3;
  sys.poison = poison;
  return sys;
}

fz::TargetOptions options(std::size_t max_states = 1000) {
  return {.name = "Recorder", .max_depth = 8, .explore = {.max_states = max_states, .quiet = true}};
}

std::string fresh_dir(const std::string& name) {
  // Unique per process: several build trees may run these tests at once.
  const fs::path p =
      fs::path(::testing::TempDir()) / ("merilo_fuzz_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(p);
  return p.string();
}

void write_file(const fs::path& p, const Bytes& b) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

TEST(FuzzTarget, SeedsOneInputPerTupleFromTheShortestTraces) {
  fz::Target<fixtures::Recorder> target(small(), options(), "fixtures::Recorder{}");
  const std::string dir = fresh_dir("seeds");
  const fz::Seeded s = target.seed(dir);
  ASSERT_TRUE(s.ok()) << s.error;
  EXPECT_TRUE(s.search.complete);
  ASSERT_EQ(s.search.tuples, (std::vector<std::string>{"r:0", "r:1", "r:2"}));
  EXPECT_EQ(s.written, 3u);
  std::string error;
  const std::vector<fz::InputFile> files = fz::read_inputs(dir, error);
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_EQ(files.size(), 3u);
  for (std::size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(fs::path(files[i].path).filename().string(), "merilo-seed-000" + std::to_string(i));
    EXPECT_EQ(files[i].bytes, fz::to_fuzz_bytes(4, s.search.tuple_traces[i]).bytes);
  }
  // Each seed replays its trace: the shortest route to its tuple.
  EXPECT_EQ(s.search.tuple_traces[2], (Trace{0, 0}));
  const fz::Run r = target.run(files[2].bytes);
  EXPECT_EQ(Trace(r.trace.begin(), r.trace.begin() + 2), (Trace{0, 0}));
  EXPECT_EQ(r.input_steps, 2u);
}

TEST(FuzzTarget, SeedingAgainReplacesOnlyItsOwnSeeds) {
  const std::string dir = fresh_dir("reseed");
  fs::create_directories(dir);
  write_file(fs::path(dir) / "merilo-seed-0099", {1, 2, 3});
  write_file(fs::path(dir) / "found-by-libfuzzer", {0, 3});
  fz::Target<fixtures::Recorder> target(small(), options());
  ASSERT_TRUE(target.seed(dir).ok());
  EXPECT_FALSE(fs::exists(fs::path(dir) / "merilo-seed-0099"));
  EXPECT_TRUE(fs::exists(fs::path(dir) / "found-by-libfuzzer"));
  EXPECT_TRUE(fs::exists(fs::path(dir) / "merilo-seed-0002"));
}

TEST(FuzzTarget, SeedingThatFindsAViolationWritesNothingAndReportsIt) {
  fz::Target<fixtures::Recorder> target(small(2), options(), "fixtures::Recorder{}");
  const std::string dir = fresh_dir("violation");
  const fz::Seeded s = target.seed(dir);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.search.violation.trace, (Trace{2}));
  EXPECT_EQ(s.written, 0u);
  EXPECT_FALSE(fs::exists(dir));
  const std::string text = target.seed_report(s, dir);
  EXPECT_NE(text.find("ERROR: seeding fuzz target Recorder: the search found invariant \"sound\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("#1 kind 2"), std::string::npos) << text;
  EXPECT_NE(text.find("TEST(Replay, Recorder_invariant)"), std::string::npos) << text;
}

TEST(FuzzTarget, SeedingNeedsAnExploreBound) {
  fz::Target<fixtures::Recorder> target(small(), {.name = "R", .max_depth = 5});
  const fz::Seeded s = target.seed(fresh_dir("nobound"));
  EXPECT_NE(s.error.find("seeding needs TargetOptions::explore.max_states"), std::string::npos)
      << s.error;
}

TEST(FuzzTarget, SeedingWarnsAboutSeedsLongerThanMaxDepth) {
  fixtures::Recorder sys;
  sys.stop_at = 3;
  fz::Target<fixtures::Recorder> target(
      sys, {.name = "R", .max_depth = 1, .explore = {.max_states = 1000, .quiet = true}});
  const std::string dir = fresh_dir("toolong");
  const fz::Seeded s = target.seed(dir);
  ASSERT_TRUE(s.ok()) << s.error;
  EXPECT_EQ(s.too_long, 1u);  // the trace {0, 0} to r:2
  EXPECT_NE(target.seed_report(s, dir).find("1 seeds are longer than max_depth=1"),
            std::string::npos);
}

TEST(FuzzTarget, TheReportHasTheTraceAndAPasteReadyReplayTest) {
  fz::Target<fixtures::Recorder> target(small(3), options(), "fixtures::Recorder{}");
  const Bytes input = {0x00, 1, 3};
  const fz::Run r = target.run(input);
  ASSERT_TRUE(r.violation.found());
  const std::string text = target.report(r, input.size());
  EXPECT_NE(text.find("==merilo== ERROR: fuzz target Recorder found invariant \"sound\" at step 2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("input of 3 bytes: 2 steps from its choices, 0 drained"), std::string::npos)
      << text;
  EXPECT_NE(text.find("#1 kind 1 | r:1\n#2 kind 3 | r:2\nVIOLATION"), std::string::npos) << text;
  EXPECT_NE(text.find("TEST(Replay, Recorder_invariant) {\n  auto sys = fixtures::Recorder{};\n"
                      "  merilo::testing::expect_replay_ok(sys, merilo::explore::Trace{1, 3});"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("WARNING"), std::string::npos) << text;
}

TEST(FuzzTarget, TheCrashsTraceIsAPageWithTheRuleAndThePinnedTest) {
  fz::Target<fixtures::Recorder> target(small(3), options(), "fixtures::Recorder{}");
  const Bytes input = {0x00, 1, 3};
  const fz::Run r = target.run(input);
  ASSERT_TRUE(r.violation.found());
  const std::string page = target.trace_html(r, input.size());
  EXPECT_NE(page.find("fuzz target Recorder: an input of 3 bytes, 2 steps from its choices"),
            std::string::npos);
  EXPECT_NE(page.find("<tr class=\"step broke\" data-step=\"2\">"), std::string::npos);
  EXPECT_NE(page.find("VIOLATION invariant &quot;sound&quot; at step 2"), std::string::npos);
  EXPECT_NE(page.find("<pre id=\"pinned\">TEST(Replay, Recorder_invariant) {"), std::string::npos);
}

TEST(FuzzTarget, TheReportWritesThePageWhereMeriloTraceHtmlSays) {
  fz::Target<fixtures::Recorder> target(small(3), options(), "fixtures::Recorder{}");
  const Bytes input = {0x00, 1, 3};
  const fz::Run r = target.run(input);
  ASSERT_TRUE(r.violation.found());
  EXPECT_EQ(target.report(r, input.size()).find("trace as a page"), std::string::npos);
  const std::string dir = fresh_dir("trace-html");
  fs::create_directories(dir);
  ::setenv("MERILO_TRACE_HTML", dir.c_str(), 1);
  const std::string text = target.report(r, input.size());
  ::unsetenv("MERILO_TRACE_HTML");
  const std::string path = dir + "/Recorder_invariant.html";
  EXPECT_NE(text.find("The trace as a page: " + path), std::string::npos) << text;
  std::ifstream in(path);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(page, target.trace_html(r, input.size()));
}

TEST(FuzzTarget, TheCrashPageReplacesASymbolicLinkAndLeavesItsTargetUntouched) {
  fz::Target<fixtures::Recorder> target(small(3), options(), "fixtures::Recorder{}");
  const Bytes input = {0x00, 1, 3};
  const fz::Run r = target.run(input);
  ASSERT_TRUE(r.violation.found());
  const std::string dir = fresh_dir("trace-html-link");
  fs::create_directories(dir);
  const std::string source = dir + "/recorder.cpp";
  const std::string path = dir + "/Recorder_invariant.html";
  { std::ofstream(source) << "int main() {}\n"; }
  fs::create_symlink(source, path);
  ::setenv("MERILO_TRACE_HTML", dir.c_str(), 1);
  const std::string text = target.report(r, input.size());
  ::unsetenv("MERILO_TRACE_HTML");
  EXPECT_NE(text.find("The trace as a page: " + path), std::string::npos) << text;
  std::ifstream in(source);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()),
            "int main() {}\n");
  EXPECT_FALSE(fs::is_symlink(path));
}

TEST(FuzzTarget, TheCrashPageRefusesADirectoryAtItsPath) {
  fz::Target<fixtures::Recorder> target(small(3), options(), "fixtures::Recorder{}");
  const Bytes input = {0x00, 1, 3};
  const fz::Run r = target.run(input);
  ASSERT_TRUE(r.violation.found());
  const std::string dir = fresh_dir("trace-html-dir");
  const std::string path = dir + "/Recorder_invariant.html";
  fs::create_directories(path);
  ::setenv("MERILO_TRACE_HTML", dir.c_str(), 1);
  const std::string text = target.report(r, input.size());
  ::unsetenv("MERILO_TRACE_HTML");
  EXPECT_NE(text.find("The trace page was not written: cannot write " + path + ": Is a directory"),
            std::string::npos)
      << text;
}

TEST(FuzzTarget, TheReportWarnsWhenTheTraceDoesNotBreakTheRuleAgainFromReset) {
  // A system with state outside its world: the fuzzer's run breaks the
  // rule, the report's replay from reset does not. The report must say so,
  // since its pasted test would then pass while the bug is there.
  std::size_t resets = 0;
  fixtures::Recorder sys = small(3);
  sys.resets = &resets;
  fz::Target<fixtures::Recorder> target(sys, options(), "fixtures::Recorder{}");
  const Bytes input = {0x00, 1, 3};
  const std::size_t before = resets;
  const fz::Run r = target.run(input);
  ASSERT_EQ(resets, before + 1);
  ASSERT_EQ(resets % 2, 1u) << "the run must see an odd count of resets";
  ASSERT_TRUE(r.violation.found()) << r.summary();
  const std::string text = target.report(r, input.size());
  EXPECT_GT(resets, before + 1) << "the report replays from reset";
  EXPECT_NE(text.find("==merilo== WARNING: replaying this trace from reset did not break the "
                      "same rule: "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(the system is not deterministic: state outside its world leaked in)"),
            std::string::npos)
      << text;
  // The rest of the report is still there.
  EXPECT_NE(text.find("found invariant \"sound\" at step 2"), std::string::npos) << text;
  EXPECT_NE(text.find("TEST(Replay, Recorder_invariant)"), std::string::npos) << text;
}

TEST(FuzzTarget, ACrashReportsTraceReplaysToTheSameCrash) {
  // Regression: the trace of a crash left out the step that threw, so the
  // report replayed a clean trace, warned "not deterministic" (false), and
  // the pasted replay test passed while the bug was there.
  fixtures::Recorder sys = small();
  sys.throwing = 2;
  fz::Target<fixtures::Recorder> target(sys, options(), "fixtures::Recorder{}");
  const Bytes input = {0x00, 1, 2};
  const fz::Run r = target.run(input);
  ASSERT_EQ(r.violation.kind, merilo::explore::ViolationKind::crash);
  EXPECT_EQ(r.violation.trace, (Trace{1, 2}));
  const std::string text = target.report(r, input.size());
  EXPECT_NE(text.find("found crash at step 2: an exception escaped apply: boom"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("WARNING"), std::string::npos) << text;
  EXPECT_NE(text.find("VIOLATION crash at step 2"), std::string::npos) << text;
  EXPECT_NE(text.find("TEST(Replay, Recorder_crash)"), std::string::npos) << text;
  EXPECT_NE(text.find("merilo::explore::Trace{1, 2});"), std::string::npos) << text;
  // The pasted test's trace does fail while the bug is there.
  EXPECT_EQ(merilo::explore::replay(sys, r.violation.trace).violation.kind,
            merilo::explore::ViolationKind::crash);
}

TEST(FuzzTarget, TestOneInputReturnsZeroWhenNoRuleBreaks) {
  fz::Target<fixtures::Recorder> target(small(), options());
  const Bytes input = {0x00, 1, 2};
  EXPECT_EQ(target.test_one_input(input.data(), input.size()), 0);
  EXPECT_EQ(target.executions(), 1u);
}

TEST(FuzzTargetDeathTest, TestOneInputPrintsTheReportAndAbortsOnAViolation) {
  fz::Target<fixtures::Recorder> target(small(3), options());
  const Bytes input = {0x00, 3};
  EXPECT_DEATH(target.test_one_input(input.data(), input.size()),
               "found invariant \"sound\" at step 1(.|\n)*#1 kind 3(.|\n)*TEST\\(Replay");
}

TEST(FuzzTargetDeathTest, InitializeRefusesAMissingMaxDepth) {
  fz::Target<fixtures::Recorder> target(small(), {.name = "R"});
  int argc = 1;
  char arg0[] = "target";
  char* args[] = {arg0, nullptr};
  char** argv = args;
  EXPECT_EXIT(target.initialize(&argc, &argv), ::testing::ExitedWithCode(2),
              "max_depth is required");
}

void seed_through_initialize(std::string flag) {
  fz::Target<fixtures::Recorder> target(small(), options());
  int argc = 2;
  char arg0[] = "target";
  char* args[] = {arg0, flag.data(), nullptr};
  char** argv = args;
  target.initialize(&argc, &argv);
}

TEST(FuzzTargetDeathTest, InitializeWithMeriloSeedSeedsAndExits) {
  const std::string dir = fresh_dir("init");
  EXPECT_EXIT(seed_through_initialize("-merilo_seed=" + dir), ::testing::ExitedWithCode(0),
              "seeded Recorder with 3 inputs");
  EXPECT_TRUE(fs::exists(fs::path(dir) / "merilo-seed-0000"));
}

TEST(FuzzTarget, TheDictionaryHoldsEveryKindsChoiceAsAVarint) {
  const std::string text = fz::dictionary(130);
  EXPECT_NE(text.find("kind_0=\"\\x00\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("kind_3=\"\\x03\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("kind_127=\"\\x7F\"\n"), std::string::npos) << text;
  // 128 and up take two bytes: the low seven bits with the high bit set.
  EXPECT_NE(text.find("kind_129=\"\\x81\\x01\"\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("kind_130"), std::string::npos) << text;
}

TEST(FuzzTargetDeathTest, InitializeWithMeriloDictWritesTheDictionaryAndExits) {
  const std::string dir = fresh_dir("dict");
  fs::create_directories(dir);
  const std::string file = dir + "/recorder.dict";
  EXPECT_EXIT(seed_through_initialize("-merilo_dict=" + file), ::testing::ExitedWithCode(0),
              "wrote the dictionary of Recorder \\(4 kinds\\)");
  std::ifstream f(file);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, fz::dictionary(4));
  EXPECT_EXIT(seed_through_initialize("-merilo_dict=" + dir + "/no/such/dir/x.dict"),
              ::testing::ExitedWithCode(2), "cannot write dictionary");
}

TEST(FuzzTargetDeathTest, MeriloMaxStatesOverridesTheSeedingBound) {
  const std::string dir = fresh_dir("bound");
  auto seed_with = [&](std::string bound) {
    fz::Target<fixtures::Recorder> target(small(), options());
    std::string seed = "-merilo_seed=" + dir;
    int argc = 3;
    char arg0[] = "target";
    char* args[] = {arg0, seed.data(), bound.data(), nullptr};
    char** argv = args;
    target.initialize(&argc, &argv);
  };
  EXPECT_EXIT(seed_with("-merilo_max_states=2"), ::testing::ExitedWithCode(0),
              "seeded Recorder with 2 inputs.*complete=false depth=0 states=2");
  EXPECT_EXIT(seed_with("-merilo_max_states=lots"), ::testing::ExitedWithCode(2),
              "-merilo_max_states=lots is not a number of worlds");
  // One past what a size_t holds (2^64 on 64-bit targets, 2^32 on 32-bit).
  const std::string too_big =
      std::to_string(static_cast<unsigned long long>(std::numeric_limits<std::size_t>::max())) +
      "0";
  EXPECT_EXIT(seed_with("-merilo_max_states=" + too_big), ::testing::ExitedWithCode(2),
              "is not a number of worlds");
}

TEST(FuzzTarget, FlagsAreReadByExactName) {
  char arg0[] = "t";
  char a1[] = "-merilo_seed_x=1";
  char a2[] = "-merilo_seed=dir";
  char* argv[] = {arg0, a1, a2, nullptr};
  EXPECT_EQ(fz::detail::flag(3, argv, "merilo_seed"), "dir");
  EXPECT_EQ(fz::detail::flag(2, argv, "merilo_seed"), "");
}

TEST(FuzzTarget, InitializeWithoutTheSeedFlagOnlyChecksTheOptions) {
  fz::Target<fixtures::Recorder> target(small(), options());
  int argc = 2;
  char arg0[] = "target";
  char arg1[] = "-runs=10";
  char* args[] = {arg0, arg1, nullptr};
  char** argv = args;
  EXPECT_EQ(target.initialize(&argc, &argv), 0);
}

// A global target for the replay driver, as the macro makes one.
fz::Target<fixtures::Recorder>& global_target() {
  static fz::Target<fixtures::Recorder> t(small(3), options(), "fixtures::Recorder{}");
  return t;
}
int test_one(const std::uint8_t* d, std::size_t n) { return global_target().test_one_input(d, n); }

TEST(FuzzReplayDriver, ReplaysEveryFileOfADirectory) {
  const std::string dir = fresh_dir("driver");
  fs::create_directories(dir);
  write_file(fs::path(dir) / "a", {0x00, 1, 1});
  write_file(fs::path(dir) / "b", {0x00, 0});
  write_file(fs::path(dir) / "c", {});
  const auto before = global_target().executions();
  std::string d = dir;
  char arg0[] = "driver";
  char flag[] = "-runs=0";
  char* argv[] = {arg0, flag, d.data(), nullptr};
  EXPECT_EQ(fz::replay_main(3, argv, nullptr, test_one), 0);
  EXPECT_EQ(global_target().executions() - before, 3u);
}

TEST(FuzzReplayDriver, RefusesNoInputsAndMissingPaths) {
  char arg0[] = "driver";
  char* none[] = {arg0, nullptr};
  EXPECT_EQ(fz::replay_main(1, none, nullptr, test_one), 2);
  char missing[] = "/nonexistent/merilo/input";
  char* bad[] = {arg0, missing, nullptr};
  EXPECT_EQ(fz::replay_main(2, bad, nullptr, test_one), 2);
  const std::string dir = fresh_dir("empty");
  fs::create_directories(dir);
  std::string d = dir;
  char* empty[] = {arg0, d.data(), nullptr};
  EXPECT_EQ(fz::replay_main(2, empty, nullptr, test_one), 2);
}

TEST(FuzzReplayDriverDeathTest, ACrashingFileReproducesTheSameTrace) {
  const std::string dir = fresh_dir("crash");
  fs::create_directories(dir);
  // The mask keeps kind 0 out: choice 9 is 9 % 3 -> kind 1, then 3 (the
  // poison) is taken as it is.
  write_file(fs::path(dir) / "crash-1", {0b0001, 9, 3});
  std::string f = (fs::path(dir) / "crash-1").string();
  char arg0[] = "driver";
  char* argv[] = {arg0, f.data(), nullptr};
  EXPECT_DEATH(fz::replay_main(2, argv, nullptr, test_one),
               "Running: .*crash-1(.|\n)*#1 kind 1 \\| r:1\n#2 kind 3 \\| r:2\nVIOLATION");
}

}  // namespace
