// batch.cpp — many files: expand directories, run a pool of workers that
// each take the next file, print the results in order as they arrive.
#include "batch.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <sstream>
#include <system_error>
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <merilo/core/text.hpp>

namespace merilo::lincheck {

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int code = kInternalError;
  std::string out;
  std::string err;
};

// One file, its output kept to be printed in order.
Outcome check_one(Args args, const std::string& file) {
  Outcome o;
  std::ostringstream out;
  std::ostringstream err;
  args.source = file == "-" ? "<stdin>" : core::printable(file);
  args.input = file;
  if (file == "-") {
    o.code = run(args, std::cin, out, err);
  } else {
    std::error_code ec;
    std::ifstream in;
    if (fs::is_directory(file, ec)) {
      fmt::print(err, "merilo-lincheck: cannot read {}: {}\n", args.source, std::strerror(EISDIR));
      o.code = kBadInput;
    } else if (in.open(file); !in) {
      fmt::print(err, "merilo-lincheck: cannot open {}\n", args.source);
      o.code = kBadInput;
    } else {
      o.code = run(args, in, out, err);
    }
  }
  o.out = out.str();
  o.err = err.str();
  return o;
}

}  // namespace

Expanded expand(const std::vector<std::string>& arguments) {
  Expanded e;
  bool stdin_taken = false;
  for (const std::string& a : arguments) {
    std::error_code ec;
    if (a == "-") {
      if (stdin_taken) {
        e.error = "- (standard input) can be given only once";
        return e;
      }
      stdin_taken = true;
      e.files.push_back(a);
      continue;
    }
    if (!fs::is_directory(a, ec)) {
      e.files.push_back(a);
      continue;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(a, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      const std::string ext = p.extension().string();
      if ((ext == ".jsonl" || ext == ".edn") && it->is_regular_file(ec))
        found.push_back(p.string());
    }
    if (ec) {
      e.error = fmt::format("cannot list {}: {}", core::printable(a), ec.message());
      return e;
    }
    if (found.empty()) {
      e.error = fmt::format("{} holds no *.jsonl or *.edn files", core::printable(a));
      return e;
    }
    std::sort(found.begin(), found.end());
    e.files.insert(e.files.end(), found.begin(), found.end());
  }
  return e;
}

int run_files(const Args& args, const std::vector<std::string>& files, unsigned jobs,
              std::ostream& out, std::ostream& err) {
  std::vector<std::promise<Outcome>> promises(files.size());
  std::vector<std::future<Outcome>> results;
  results.reserve(files.size());
  for (auto& p : promises) results.push_back(p.get_future());
  std::atomic<std::size_t> next{0};
  auto work_one = [&](std::size_t i) {
    try {
      promises[i].set_value(check_one(args, files[i]));
    } catch (const std::exception& e) {  // run() never throws; memory for the output might
      promises[i].set_value(
          Outcome{kInternalError, "",
                  fmt::format("merilo-lincheck: internal error: {}\n", core::printable(e.what()))});
    }
  };
  auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) work_one(i);
  };
  // With one job this thread checks each file and prints it; with more,
  // `jobs` helpers check and this thread prints, in order, as they finish.
  std::vector<std::thread> pool;
  const std::size_t helpers = jobs > 1 ? std::min<std::size_t>(jobs, files.size()) : 0;
  for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  int worst = kLinearizable;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (helpers == 0) work_one(i);
    Outcome o = results[i].get();
    worst = std::max(worst, o.code);
    if (files.size() > 1 && !o.out.empty()) {
      fmt::print(out, "{}: ", files[i] == "-" ? "<stdin>" : core::printable(files[i]));
    }
    out << o.out;
    err << o.err;
    out.flush();
    err.flush();
  }
  for (auto& t : pool) t.join();
  return worst;
}

}  // namespace merilo::lincheck
