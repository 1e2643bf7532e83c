// trace_page_main.cpp — writes the two trace pages the browser test opens:
// DIR/explore.html (the explorer's counterexample) and DIR/fuzz.html (a fuzz
// crash's), both of the mailbox system in its hostile form, whose every text
// carries markup that must not run (mailbox.hpp).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <merilo/core/html.hpp>
#include <merilo/explore/explore.hpp>
#include <merilo/explore/framework.hpp>
#include <merilo/explore/html.hpp>
#include <merilo/fuzz/target.hpp>

#include "mailbox.hpp"

namespace {

namespace ex = merilo::explore;
using Hostile = mailbox::System<true>;

int fail(const std::string& what) {
  std::fprintf(stderr, "trace_page_main: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return fail("usage: trace_page_main DIR");
  const std::string dir = argv[1];

  Hostile sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 100, .quiet = true});
  if (!r.violation.found()) return fail("the search found no violation");
  const std::string pinned = ex::pinned_test(merilo::core::Framework::googletest, "Mailbox", r.violation.kind,
                                             "mailbox::System<true>{}", r.violation.trace);
  std::string error = ex::write_trace_html(sys, r.violation.trace, dir + "/explore.html",
                                           {.title = "Mailbox: " + r.violation.summary(),
                                            .context = r.summary(),
                                            .pinned_test = pinned});
  if (!error.empty()) return fail(error);

  merilo::fuzz::Target<Hostile> target(Hostile{}, {.name = "Mailbox", .max_depth = 8},
                                       "mailbox::System<true>{}");
  const std::vector<std::uint8_t> input = {0x00, 0, 0, 0};  // send three times
  const merilo::fuzz::Run run = target.run(input);
  if (!run.violation.found()) return fail("the fuzz input broke no rule: " + run.summary());
  error = merilo::core::write_file(dir + "/fuzz.html", target.trace_html(run, input.size()));
  if (!error.empty()) return fail(error);
  std::printf("wrote %s/explore.html and %s/fuzz.html\n", dir.c_str(), dir.c_str());
  return 0;
}
