// strategies.cpp — the `sync::model` strategies (strategies.hpp).
#include "strategies.hpp"

#include <utility>  // std::move

namespace merilo::sync::detail {

namespace {

/// Whether `d` offers a choice (two or more enabled threads).
bool is_choice(const Decision& d) noexcept { return d.runnable.count() > 1; }

}  // namespace

// --- DPOR --------------------------------------------------------------------

std::uint8_t DporStrategy::next_thread(const Decision& d, PendingSteps pending,
                                       std::uint8_t preferred) {
  return dpor_.choose(d.runnable, pending, preferred);
}

std::size_t DporStrategy::next_value(std::size_t count) { return dpor_.choose_value(count); }

// --- bounded -----------------------------------------------------------------

bool BoundedStrategy::begin() {
  if (started_) {
    // The deepest point with an option left that the bound allows.
    std::size_t i = path_.size();
    bool found = false;
    while (i > 0 && !found) {
      --i;
      Point& p = path_[i];
      for (std::size_t j = p.at + 1; j < p.options.size(); ++j) {
        if (p.before + p.cost[j] <= bound_) {
          p.at = j;
          found = true;
          break;
        }
      }
    }
    if (!found) return false;
    path_.resize(i + 1);
    replay_ = i + 1;
  }
  started_ = true;
  step_ = 0;
  preemptions_ = 0;
  return true;
}

std::uint8_t BoundedStrategy::take(std::vector<std::uint8_t> options,
                                   std::vector<std::uint8_t> cost) {
  const std::size_t i = step_++;
  if (i < replay_) {
    Point& p = path_[i];
    if (p.options != options) diverged_ = true;
    preemptions_ = p.before + p.cost[p.at];
    return p.options[p.at];
  }
  Point p;
  p.options = std::move(options);
  p.cost = std::move(cost);
  p.before = preemptions_;
  for (const std::uint8_t c : p.cost) cut_ = cut_ || p.before + c > bound_;
  for (std::size_t j = 0; j < p.options.size(); ++j) {
    if (p.before + p.cost[j] <= bound_) {
      p.at = j;
      break;
    }
  }
  preemptions_ = p.before + p.cost[p.at];
  path_.push_back(std::move(p));
  return path_.back().options[path_.back().at];
}

std::uint8_t BoundedStrategy::next_thread(const Decision& d, PendingSteps /*pending*/,
                                          std::uint8_t preferred) {
  if (!is_choice(d)) return preferred;
  // The default first (never a preemption), then the others in order.
  std::vector<std::uint8_t> options{preferred};
  std::vector<std::uint8_t> cost{is_preemption(d, preferred) ? std::uint8_t{1} : std::uint8_t{0}};
  for (unsigned t = d.runnable.lowest(); t < kMaxControlledThreads; t = d.runnable.from(t + 1)) {
    if (t == preferred) continue;
    options.push_back(static_cast<std::uint8_t>(t));
    cost.push_back(is_preemption(d, static_cast<std::uint8_t>(t)) ? 1 : 0);
  }
  return take(std::move(options), std::move(cost));
}

std::size_t BoundedStrategy::next_value(std::size_t count) {
  std::vector<std::uint8_t> options;
  for (std::size_t v = 0; v < count && v < 256; ++v)
    options.push_back(static_cast<std::uint8_t>(v));
  std::vector<std::uint8_t> cost(options.size(), weak_cost_);
  cost[0] = 0;
  return take(std::move(options), std::move(cost));
}

// --- random ------------------------------------------------------------------

std::uint8_t RandomStrategy::next_thread(const Decision& d, PendingSteps /*pending*/,
                                         std::uint8_t preferred) {
  if (!is_choice(d)) return preferred;
  ThreadSet mask = d.runnable;
  if (d.yielded && d.current != kNoThread) {
    ThreadSet others = mask;
    others.erase(d.current);
    if (!others.empty()) mask = others;
  }
  const unsigned t = mask.nth(static_cast<unsigned>(rng_.below(mask.count())));
  return t < kMaxControlledThreads ? static_cast<std::uint8_t>(t) : preferred;
}

std::size_t RandomStrategy::next_value(std::size_t count) {
  return static_cast<std::size_t>(rng_.below(count));
}

// --- PCT ---------------------------------------------------------------------

PctStrategy::PctStrategy(std::uint64_t seed, std::size_t depth, std::size_t length)
    : chooser_({}, Chooser::Then::pct, seed, kMaxControlledThreads, depth, length),
      rng_(seed ^ 0x5bd1e995U) {}

std::uint8_t PctStrategy::next_thread(const Decision& d, PendingSteps /*pending*/,
                                      std::uint8_t preferred) {
  if (!is_choice(d)) return preferred;
  return chooser_.pick(d, index_++);
}

std::size_t PctStrategy::next_value(std::size_t count) {
  return static_cast<std::size_t>(rng_.below(count));
}

// --- replay ------------------------------------------------------------------

std::uint8_t ReplayStrategy::next_thread(const Decision& d, PendingSteps /*pending*/,
                                         std::uint8_t preferred) {
  if (!is_choice(d) || next_ >= choices_.size()) return preferred;
  const Choice c = choices_[next_++];
  if (c.value || !d.runnable.contains(c.index)) {
    diverged_ = true;
    return preferred;
  }
  return c.index;
}

std::size_t ReplayStrategy::next_value(std::size_t count) {
  if (next_ >= choices_.size()) return 0;
  const Choice c = choices_[next_++];
  if (!c.value || c.index >= count) {
    diverged_ = true;
    return 0;
  }
  return c.index;
}

// --- fuzzer bytes --------------------------------------------------------------

std::uint8_t BytesStrategy::next_thread(const Decision& d, PendingSteps /*pending*/,
                                        std::uint8_t preferred) {
  if (!is_choice(d) || next_ >= bytes_.size()) return preferred;
  const unsigned t = d.runnable.nth(bytes_[next_++] % d.runnable.count());
  return t < kMaxControlledThreads ? static_cast<std::uint8_t>(t) : preferred;
}

std::size_t BytesStrategy::next_value(std::size_t count) {
  if (next_ >= bytes_.size()) return 0;
  return bytes_[next_++] % count;
}

std::uint8_t RecordingStrategy::next_thread(const Decision& d, PendingSteps pending,
                                            std::uint8_t preferred) {
  const std::uint8_t t = inner_.next_thread(d, pending, preferred);
  if (is_choice(d) && d.runnable.contains(t)) {
    // Its rank among the enabled threads.
    bytes_.push_back(static_cast<std::uint8_t>(d.runnable.rank(t)));
  }
  return t;
}

std::size_t RecordingStrategy::next_value(std::size_t count) {
  const std::size_t v = inner_.next_value(count);
  bytes_.push_back(static_cast<std::uint8_t>(v < count ? v : 0));
  return v;
}

}  // namespace merilo::sync::detail
