// mpi_search.cpp — the distributed search's compiled parts: the level's
// pending index, agreeing on a level's first event, paths across ranks.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <mpi.h>

#include <merilo/explore/detail/mpi_comm.hpp>
#include <merilo/explore/detail/mpi_search.hpp>

namespace merilo::explore::detail::mpi {

std::uint64_t PendingIndex::find(const Fingerprint& fp) const noexcept {
  if (slots_.empty()) return kNone;
  for (std::size_t s = home(fp);; s = (s + 1) & (slots_.size() - 1)) {
    const std::uint32_t i = slots_[s];
    if (i == kEmpty) return kNone;
    if ((*fps_)[i] == fp) return i;
  }
}

void PendingIndex::place(std::uint32_t i) {
  std::size_t s = home((*fps_)[i]);
  while (slots_[s] != kEmpty) s = (s + 1) & (slots_.size() - 1);
  slots_[s] = i;
}

void PendingIndex::add(std::uint32_t i) {
  if ((size_ + 1) * 2 > slots_.size()) {
    std::vector<std::uint32_t> old(std::max<std::size_t>(slots_.size() * 2, 1024), kEmpty);
    old.swap(slots_);
    for (std::uint32_t j : old) {
      if (j != kEmpty) place(j);
    }
  }
  place(i);
  ++size_;
}

void PendingIndex::clear() {
  std::vector<std::uint32_t>().swap(slots_);
  size_ = 0;
}

Event agree(const Event& mine, std::uint64_t* sent) {
  Event out;
  out.order = min(mine.order);
  if (!out.found()) return out;
  // The least rank holding it sends it (equal orders are the same event).
  const std::uint64_t holder = min(mine.order == out.order ? rank() : kNone);
  Bytes b;
  if (rank() == holder) {
    Writer w(b);
    w.put(mine.kind);
    w.put(mine.stored);
    w.put(mine.at);
    w.put(mine.step);
    w.put_string(mine.invariant);
    w.put_string(mine.detail);
    if (sent != nullptr) *sent += b.size() * (ranks() - 1);
  }
  broadcast(b, static_cast<unsigned>(holder));
  Reader r(b);
  out.kind = r.get<ViolationKind>();
  out.stored = r.get<bool>();
  out.at = r.get<Node>();
  out.step = r.get<std::uint32_t>();
  out.invariant = r.get_string();
  out.detail = r.get_string();
  return out;
}

std::vector<Trace> paths(const ParentLinks& links, const std::vector<Node>& queries, Node root,
                         unsigned ranks, std::uint64_t* sent) {
  std::vector<Node> at = queries;
  std::vector<Trace> out(queries.size());
  for (;;) {
    std::uint64_t open = 0;
    std::vector<Bytes> ask(ranks);
    for (const Node& n : at) {
      if (n == root) continue;
      ++open;
      Writer(ask[n.rank]).put(n.local);
    }
    if (sum(open) == 0) break;
    const Received asked = exchange(ask, sent);
    std::vector<Bytes> answer(ranks);
    for (unsigned r = 0; r < ranks; ++r) {
      Reader in = asked.from(r);
      Writer w(answer[r]);
      while (!in.done()) {
        const auto local = in.get<std::uint32_t>();
        w.put(static_cast<std::uint64_t>(links.kind(local)));
        w.put(links.parent(local));
      }
    }
    const Received answered = exchange(answer, sent);
    std::vector<Reader> from;
    for (unsigned r = 0; r < ranks; ++r) from.push_back(answered.from(r));
    for (std::size_t q = 0; q < at.size(); ++q) {
      if (at[q] == root) continue;
      Reader& in = from[at[q].rank];
      const auto code = in.get<std::uint64_t>();
      const auto parent = in.get<std::uint32_t>();
      out[q].push_back(static_cast<Kind>(code / ranks));
      at[q] = Node{static_cast<std::uint32_t>(code % ranks), parent};
    }
  }
  for (Trace& t : out) std::reverse(t.begin(), t.end());
  return out;
}

void abort_job(const std::string& what) {
  std::fprintf(stderr, "merilo: rank %u: %s; ending the MPI job\n", rank(), what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();
}

}  // namespace merilo::explore::detail::mpi
