// merilo/linearize/detail/shadowed_read.hpp — a read that real time alone rules out,
// found before any search.
#ifndef MERILO_LINEARIZE_DETAIL_SHADOWED_READ_HPP
#define MERILO_LINEARIZE_DETAIL_SHADOWED_READ_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/linearize/detail/value_tracker.hpp>
#include <merilo/linearize/history.hpp>

namespace merilo::linearize::detail {

/// Does the spec also say which calls always leave their written value
/// behind (a write, a cas that swapped)?
template <class S, class M, class C, class R>
concept DeclaresOverwrites = DeclaresValues<S, M, C, R> &&
    requires(const S& spec, const C& cmd, const std::optional<R>& response) {
  { spec.sets_value(cmd, response) } -> std::convertible_to<bool>;
};

/// Looks, before any search, for a completed call `r` that needs a value x
/// every writer of which is *shadowed*: some completed call that always
/// sets a value other than x was invoked after that writer returned and
/// returned before `r` was invoked (the initial value, when it is x, counts
/// as a writer that returned at the start). Then the last call to leave x
/// before `r` in any order is followed, before `r`, by one leaving another
/// value, and only a writer of x could bring x back — so `r` never fits and
/// the history is not linearizable. Returns `r` and the few operations that
/// show it (r, every writer of x, one shadowing call per writer; indices
/// into `all`, sorted), or an empty proof. Sorting makes it O(n log n).
struct ShadowedRead {
  std::size_t read = 0;            ///< The read that never fits.
  std::vector<std::size_t> proof;  ///< Empty when there is none.
};
template <class S, class M, class C, class R>
ShadowedRead shadowed_read(const S& spec, const M& initial, std::span<const Operation<C, R>> all,
                           const std::vector<std::size_t>& ops) {
  using T = std::remove_cvref_t<decltype(spec.value_of(initial))>;
  struct Setter {
    std::int64_t invoked;
    std::int64_t returned;
    std::size_t op;
    std::uint32_t value;
  };
  std::map<T, std::uint32_t> ids;
  auto id = [&](T v) {
    return ids.emplace(std::move(v), static_cast<std::uint32_t>(ids.size())).first->second;
  };
  std::vector<std::vector<std::size_t>> writers;  // per value id
  std::vector<std::pair<std::size_t, std::uint32_t>> needers;
  std::vector<Setter> setters;
  for (const std::size_t i : ops) {
    const Operation<C, R>& o = all[i];
    if (std::optional<T> w = spec.writes_value(o.command, o.response)) {
      const std::uint32_t v = id(std::move(*w));
      if (writers.size() <= v) writers.resize(v + 1);
      writers[v].push_back(i);
      if (o.response && spec.sets_value(o.command, o.response)) {
        setters.push_back(Setter{o.invoked_at, o.returned_at, i, v});
      }
    }
    if (!o.response) continue;
    if (std::optional<T> n = spec.reads_value(o.command, o.response)) {
      needers.emplace_back(i, id(std::move(*n)));
    }
  }
  const std::uint32_t initial_value = id(spec.value_of(initial));
  writers.resize(ids.size());
  if (needers.empty()) return {};
  // Setters by invoke; per suffix, the earliest return and the earliest
  // return among setters of another value than that one.
  std::sort(setters.begin(), setters.end(),
            [](const Setter& a, const Setter& b) { return a.invoked < b.invoked; });
  constexpr std::size_t kNo = static_cast<std::size_t>(-1);
  std::vector<std::size_t> best(setters.size() + 1, kNo);
  std::vector<std::size_t> other(setters.size() + 1, kNo);
  for (std::size_t k = setters.size(); k-- > 0;) {
    std::size_t b = best[k + 1];
    std::size_t o = other[k + 1];
    auto earlier = [&](std::size_t a, std::size_t c) {
      return c == kNo || (a != kNo && setters[a].returned < setters[c].returned);
    };
    if (earlier(k, b)) {
      if (b != kNo && setters[b].value != setters[k].value) o = b;
      b = k;
    } else if (setters[k].value != setters[b].value && earlier(k, o)) {
      o = k;
    }
    best[k] = b;
    other[k] = o;
  }
  // A setter of a value other than x invoked after `after` (from index
  // `from` on) that returned before `before`, or kNo.
  auto shadow = [&](std::size_t from, std::int64_t before, std::uint32_t x) -> std::size_t {
    for (const std::size_t c : {best[from], other[from]}) {
      if (c != kNo && setters[c].value != x && setters[c].returned < before) return setters[c].op;
    }
    return kNo;
  };
  for (const auto& [r, x] : needers) {
    const std::int64_t before = all[r].invoked_at;
    std::vector<std::size_t> proof = {r};
    bool all_shadowed = true;
    if (x == initial_value) {
      const std::size_t s = shadow(0, before, x);
      all_shadowed = s != kNo;
      proof.push_back(s);
    }
    for (std::size_t k = 0; all_shadowed && k < writers[x].size(); ++k) {
      const Operation<C, R>& w = all[writers[x][k]];
      if (!w.response) {
        all_shadowed = false;
        break;
      }
      const auto from = static_cast<std::size_t>(
          std::upper_bound(setters.begin(), setters.end(), w.returned_at,
                           [](std::int64_t t, const Setter& st) { return t < st.invoked; }) -
          setters.begin());
      const std::size_t s = shadow(from, before, x);
      all_shadowed = s != kNo;
      proof.push_back(writers[x][k]);
      proof.push_back(s);
    }
    if (!all_shadowed) continue;
    std::sort(proof.begin(), proof.end());
    proof.erase(std::unique(proof.begin(), proof.end()), proof.end());
    return ShadowedRead{r, std::move(proof)};
  }
  return {};
}

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_SHADOWED_READ_HPP
