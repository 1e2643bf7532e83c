// report_test.cpp — the report's layout: the race as aligned columns in
// order of invocation with instants from the first call, the evidence, and
// the reproduce lines at the end.
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/failure.hpp>

namespace {

namespace parallel = merilo::parallel;
using Failure = parallel::Failure<int, int>;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

Failure raced() {
  Failure f;
  f.seed = 7;
  f.run = 3;
  f.branches = 2;
  f.max_prefix = 6;
  f.max_branch = 4;
  f.violation = {std::string(parallel::kNotLinearizableTag), "no order fits"};
  f.original_violation = f.violation;
  f.evidence = parallel::Evidence::raced;
  f.explanation = "not linearizable (2 evaluations)\nplaced 1 of 3 calls:";
  f.original = {.prefix = {9}, .branches = {{1, 2}, {3}}};
  f.shrunk = f.original;
  f.prefix_responses = {90};
  // Branch 0 calls at 1..3 us and 5..6 us; branch 1 at 2..2.5 us.
  f.histories = {{{1, 10, 1'000'000, 1'003'000}, {2, 20, 1'005'000, 1'006'000}},
                 {{3, 30, 1'002'000, 1'002'500}}};
  return f;
}

TEST(ParallelReport, TheRaceIsAnAlignedTimelineInOrderOfInvocation) {
  const std::vector<std::string> lines = lines_of(parallel::report(raced()));
  std::size_t head = 0;
  while (head < lines.size() && lines[head].find("branch 0 ") == std::string::npos) ++head;
  ASSERT_LT(head + 3, lines.size());
  const std::vector<std::string> rows(lines.begin() + static_cast<std::ptrdiff_t>(head + 1),
                                      lines.begin() + static_cast<std::ptrdiff_t>(head + 4));
  // Rows in order of invocation: branch 0's first call, branch 1's, branch 0's second.
  EXPECT_NE(rows[0].find("[      0.0 ..       3.0] 1 -> 10"), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find("[      2.0 ..       2.5] 3 -> 30"), std::string::npos) << rows[1];
  EXPECT_NE(rows[2].find("[      5.0 ..       6.0] 2 -> 20"), std::string::npos) << rows[2];
  // Every row puts the column separator where the header does, and branch
  // 1's calls start after it.
  const std::size_t bar = lines[head].find(" |");
  ASSERT_NE(bar, std::string::npos);
  for (const std::string& row : rows) EXPECT_EQ(row.find(" |"), bar) << row;
  EXPECT_GT(rows[1].find('['), bar);
  EXPECT_LT(rows[0].find('['), bar);
}

TEST(ParallelReport, ItShowsThePrefixTheCheckerAndEndsWithTheReproduceLines) {
  const std::string text = parallel::report(raced());
  EXPECT_NE(text.find("run 3 of seed 7 failed: statem.not_linearizable"), std::string::npos);
  EXPECT_NE(text.find("0. 9 -> 90"), std::string::npos) << text;
  EXPECT_NE(text.find("  placed 1 of 3 calls:"), std::string::npos) << text;
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_GE(lines.size(), 2U);
  EXPECT_EQ(lines[lines.size() - 2],
            "  merilo::parallel::check_run(spec, {.seed = 7, .branches = 2, .max_prefix = 6, "
            ".max_branch = 4}, 3);");
  EXPECT_NE(lines.back().find("generate_case(spec, {.seed = 7"), std::string::npos);
}

TEST(ParallelReport, APrefixFailurePointsAtItsStepAndATimeoutSaysTheSystemWasLeftAlive) {
  Failure f = raced();
  f.evidence = parallel::Evidence::in_prefix;
  f.prefix_step = 0;
  f.histories.clear();
  EXPECT_NE(parallel::report(f).find("0. 9 -> 90   <-- failed here"), std::string::npos)
      << parallel::report(f);

  f.evidence = parallel::Evidence::unrecorded;
  f.unfinished = {1};
  f.system_left_alive = true;
  const std::string text = parallel::report(f);
  EXPECT_NE(text.find("still running at the deadline: branch 1"), std::string::npos) << text;
  EXPECT_NE(text.find("left alive"), std::string::npos) << text;
}

}  // namespace
