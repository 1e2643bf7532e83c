// mpi_report.cpp — the distributed explorer's own text: the usage errors of
// options it cannot run, and its summary line.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include <merilo/explore/detail/mpi_comm.hpp>
#include <merilo/explore/mpi.hpp>

namespace merilo::explore {

double MpiResult::bytes_per_transition() const noexcept {
  if (transitions == 0) return 0;
  return static_cast<double>(bytes_sent) / static_cast<double>(transitions);
}

std::string MpiResult::summary() const {
  std::string line = search.summary();
  if (!search.error.empty() || search.states == 0) return line;
  std::size_t most = 0;
  double total = 0;
  for (std::size_t b : peak_rss) {
    most = std::max(most, b);
    total += static_cast<double>(b);
  }
  const double mean = peak_rss.empty() ? 0 : total / static_cast<double>(peak_rss.size());
  return line + fmt::format(
                    " ({:.2f}s, {:.0f} states/s, ranks={}, peak RSS/rank {:.1f} MB max {:.1f} MB "
                    "mean, {:.1f} B/transition sent)",
                    search.seconds,
                    static_cast<double>(search.states) / std::max(search.seconds, 1e-9), ranks,
                    static_cast<double>(most) / 1e6, mean / 1e6, bytes_per_transition());
}

namespace detail::mpi {

std::string check_mpi_options(const ExploreOptions& options, bool trivial_world) {
  if (!trivial_world) {
    return "merilo: explore_mpi needs a trivially copyable world: worlds travel between ranks as "
           "bytes";
  }
  if (options.threads != 1) {
    return fmt::format(
        "merilo: explore_mpi runs one thread per rank, but ExploreOptions::threads is {}; run "
        "more ranks instead",
        options.threads);
  }
  if (options.mode == Mode::replay) {
    return "merilo: explore_mpi sends worlds to their owners and needs Mode::restore (or "
           "automatic), not Mode::replay";
  }
  if (options.compact_bits != 0 || options.compact_bytes != 0) {
    return "merilo: explore_mpi keeps exact fingerprints; hash compaction (compact_bits, "
           "compact_bytes) is for explore()";
  }
  if (options.graph != nullptr) {
    return "merilo: explore_mpi does not fill a TupleGraph; run explore() for the graph";
  }
  if (ranks() > kMaxRanks) {
    return fmt::format(
        "merilo: explore_mpi runs on at most {} ranks (one per visited-set shard), not {}",
        kMaxRanks, ranks());
  }
  return {};
}

void print_summary(std::FILE* out, const MpiResult& r) {
  if (out == nullptr) return;
  if (isatty(fileno(out)) != 0) fmt::print(out, "\r\x1b[K");
  fmt::print(out, "{}\n", r.summary());
  std::fflush(out);
}

}  // namespace detail::mpi
}  // namespace merilo::explore
