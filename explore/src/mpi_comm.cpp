// mpi_comm.cpp — the distributed explorer's collectives over MPI_COMM_WORLD,
// the MPI session, and each rank's peak memory.
#include <sys/resource.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <mpi.h>

#include <merilo/explore/detail/mpi_comm.hpp>
#include <merilo/explore/mpi.hpp>

namespace merilo::explore {

MpiSession::MpiSession(int& argc, char**& argv) {
  int done = 0;
  MPI_Finalized(&done);
  int ready = 0;
  MPI_Initialized(&ready);
  if (done == 0 && ready == 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    owns_ = true;
  }
}

MpiSession::~MpiSession() {
  if (owns_) MPI_Finalize();
}

unsigned MpiSession::rank() const { return detail::mpi::rank(); }
unsigned MpiSession::ranks() const { return detail::mpi::ranks(); }

}  // namespace merilo::explore

namespace merilo::explore::detail::mpi {

namespace {
int as_count(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::length_error("merilo: one MPI exchange would carry more than 2 GiB from one rank");
  }
  return static_cast<int>(n);
}
std::uint64_t reduce(std::uint64_t v, MPI_Op op) {
  std::uint64_t out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_UINT64_T, op, MPI_COMM_WORLD);
  return out;
}
}  // namespace

bool initialized() {
  int ready = 0;
  int done = 0;
  MPI_Initialized(&ready);
  MPI_Finalized(&done);
  return ready != 0 && done == 0;
}

unsigned rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return static_cast<unsigned>(r);
}

unsigned ranks() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return static_cast<unsigned>(n);
}

Received exchange(std::vector<Bytes>& out, std::uint64_t* sent) {
  const std::size_t n = out.size();
  const unsigned me = rank();
  std::vector<int> send_counts(n);
  std::vector<int> send_offsets(n);
  std::size_t total = 0;
  for (std::size_t r = 0; r < n; ++r) {
    send_counts[r] = as_count(out[r].size());
    send_offsets[r] = as_count(total);
    total += out[r].size();
    if (r != me && sent != nullptr) *sent += out[r].size();
  }
  Bytes send;
  send.reserve(total);
  for (auto& b : out) {
    send.insert(send.end(), b.begin(), b.end());
    Bytes().swap(b);
  }
  std::vector<int> recv_counts(n);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  Received in;
  in.offsets.assign(n + 1, 0);
  std::vector<int> recv_offsets(n);
  for (std::size_t r = 0; r < n; ++r) {
    recv_offsets[r] = as_count(in.offsets[r]);
    in.offsets[r + 1] = in.offsets[r] + static_cast<std::size_t>(recv_counts[r]);
  }
  in.data.resize(in.offsets[n]);
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_UNSIGNED_CHAR,
                in.data.data(), recv_counts.data(), recv_offsets.data(), MPI_UNSIGNED_CHAR,
                MPI_COMM_WORLD);
  return in;
}

std::uint64_t sum(std::uint64_t v) { return reduce(v, MPI_SUM); }
std::uint64_t min(std::uint64_t v) { return reduce(v, MPI_MIN); }
std::uint64_t max(std::uint64_t v) { return reduce(v, MPI_MAX); }

std::uint64_t sum_before(std::uint64_t v) {
  std::uint64_t out = 0;
  MPI_Exscan(&v, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return rank() == 0 ? 0 : out;
}

void broadcast(Bytes& bytes, unsigned root) {
  auto size = static_cast<std::uint64_t>(bytes.size());
  MPI_Bcast(&size, 1, MPI_UINT64_T, static_cast<int>(root), MPI_COMM_WORLD);
  bytes.resize(static_cast<std::size_t>(size));
  MPI_Bcast(bytes.data(), as_count(bytes.size()), MPI_UNSIGNED_CHAR, static_cast<int>(root),
            MPI_COMM_WORLD);
}

std::vector<Bytes> gather_all(const Bytes& mine) {
  const std::size_t n = ranks();
  int count = as_count(mine.size());
  std::vector<int> counts(n);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> offsets(n);
  std::size_t total = 0;
  for (std::size_t r = 0; r < n; ++r) {
    offsets[r] = as_count(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  Bytes all(total);
  MPI_Allgatherv(mine.data(), count, MPI_UNSIGNED_CHAR, all.data(), counts.data(), offsets.data(),
                 MPI_UNSIGNED_CHAR, MPI_COMM_WORLD);
  std::vector<Bytes> out(n);
  for (std::size_t r = 0; r < n; ++r) {
    const auto* at = all.data() + offsets[r];
    out[r].assign(at, at + counts[r]);
  }
  return out;
}

std::size_t peak_rss_bytes() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return static_cast<std::size_t>(u.ru_maxrss) * 1024;  // kilobytes on Linux
}

}  // namespace merilo::explore::detail::mpi
