// merilo/explore/detail/mpi_comm.hpp — the few MPI collectives the
// distributed explorer uses, on byte buffers, compiled once in
// src/mpi_comm.cpp so that <mpi.h> stays out of every header.
//
// NOTE: every function here is collective over MPI_COMM_WORLD: every rank
// calls it, in the same order, or the program hangs.
#ifndef MERILO_EXPLORE_DETAIL_MPI_COMM_HPP
#define MERILO_EXPLORE_DETAIL_MPI_COMM_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace merilo::explore::detail::mpi {

/// Bytes on their way to or from other ranks.
using Bytes = std::vector<unsigned char>;

/// Appends trivially copyable values and strings to a byte buffer.
class Writer {
 public:
  explicit Writer(Bytes& out) : out_(&out) {}
  /// Appends the bytes of each of `vs`, in order (one resize for all: a
  /// successor's record is written at once).
  template <class... Ts>
  void put(const Ts&... vs) {
    static_assert((std::is_trivially_copyable_v<Ts> && ...),
                  "only trivially copyable values go on the wire");
    std::size_t at = out_->size();
    out_->resize(at + (sizeof(Ts) + ...));
    ((std::memcpy(out_->data() + at, &vs, sizeof(Ts)), at += sizeof(Ts)), ...);
  }
  /// Appends a length-prefixed string.
  void put_string(const std::string& s) {
    put(static_cast<std::uint64_t>(s.size()));
    out_->insert(out_->end(), s.begin(), s.end());
  }

 private:
  Bytes* out_;
};

/// Reads back what a `Writer` wrote, in the same order.
class Reader {
 public:
  Reader(const unsigned char* data, std::size_t size) : at_(data), end_(data + size) {}
  explicit Reader(const Bytes& in) : Reader(in.data(), in.size()) {}
  [[nodiscard]] bool done() const noexcept { return at_ >= end_; }
  /// Reads one value written by `Writer::put`.
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  /// Reads one string written by `Writer::put_string`.
  std::string get_string() {
    const auto n = static_cast<std::size_t>(get<std::uint64_t>());
    std::string s(reinterpret_cast<const char*>(at_), n);
    at_ += n;
    return s;
  }
  /// Skips `n` bytes, returning where they start.
  const unsigned char* skip(std::size_t n) {
    const unsigned char* p = at_;
    at_ += n;
    return p;
  }

 private:
  const unsigned char* at_;
  const unsigned char* end_;
};

/// What every rank received in one exchange: the bytes from rank `r` are
/// data[offsets[r], offsets[r + 1]).
struct Received {
  Bytes data;
  std::vector<std::size_t> offsets;
  /// A reader over the bytes from rank `r`.
  [[nodiscard]] Reader from(std::size_t r) const {
    return Reader(data.data() + offsets[r], offsets[r + 1] - offsets[r]);
  }
};

/// Whether MPI is initialized (and not finalized).
[[nodiscard]] bool initialized();
/// This process's rank in MPI_COMM_WORLD.
[[nodiscard]] unsigned rank();
/// The number of ranks in MPI_COMM_WORLD.
[[nodiscard]] unsigned ranks();

/// Sends `out[r]` to rank `r`, for every r, and receives what every rank
/// sent here (MPI_Alltoallv). Adds the bytes sent to other ranks to
/// `*sent`. Clears `out`.
[[nodiscard]] Received exchange(std::vector<Bytes>& out, std::uint64_t* sent);
/// The sum of `v` over every rank.
[[nodiscard]] std::uint64_t sum(std::uint64_t v);
/// The least `v` of every rank.
[[nodiscard]] std::uint64_t min(std::uint64_t v);
/// The greatest `v` of every rank.
[[nodiscard]] std::uint64_t max(std::uint64_t v);
/// `bytes` of rank `root`, on every rank.
void broadcast(Bytes& bytes, unsigned root);
/// Every rank's `mine`, in rank order.
[[nodiscard]] std::vector<Bytes> gather_all(const Bytes& mine);
/// The sum of `v` over the ranks before this one (MPI_Exscan; 0 on rank 0).
[[nodiscard]] std::uint64_t sum_before(std::uint64_t v);

/// This process's peak resident set size in bytes (getrusage).
[[nodiscard]] std::size_t peak_rss_bytes();

}  // namespace merilo::explore::detail::mpi

#endif  // MERILO_EXPLORE_DETAIL_MPI_COMM_HPP
