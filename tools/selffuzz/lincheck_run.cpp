// lincheck_run.cpp — the bounded merilo-lincheck run the self-fuzzing
// targets share (lincheck_run.hpp).
#include "lincheck_run.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "lincheck.hpp"

namespace merilo::selffuzz {

void run_lincheck(const std::string& model, bool explain, std::size_t max_line_bytes,
                  const std::string& history, const std::string& format, bool independent) {
  lincheck::Args args;
  args.model = model;
  args.explain = explain;
  args.budget = 20'000;
  args.timeout_seconds = 1;
  args.cache_mb = 8;
  args.max_line_bytes = max_line_bytes;
  args.source = "fuzz";
  args.format = format;
  args.independent = independent;
  std::istringstream in(history);
  std::ostringstream out;
  std::ostringstream err;
  const int code = lincheck::run(args, in, out, err);
  if (code < lincheck::kLinearizable || code > lincheck::kBadInput) {
    std::fprintf(stderr,
                 "==merilo== ERROR: merilo-lincheck --model %s --format %s%s exited %d:\n%s%s\n",
                 model.c_str(), format.c_str(), independent ? " --independent" : "", code,
                 out.str().c_str(), err.str().c_str());
    std::abort();
  }
}

}  // namespace merilo::selffuzz
