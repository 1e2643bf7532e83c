// rc11_reference.hpp — a test-only, brute-force RC11 checker written
// straight from the paper's definitions, to judge the memory model on
// programs nobody wrote expectations for.
//
// For a straight-line litmus program (litmus.hpp; no locks) it builds every
// candidate execution — each compare-exchange succeeding or failing, each
// read reading any store of its location, each location's stores in any
// modification order — computes RC11's relations as bit matrices (po, rf,
// mo, rb, rs, sw, hb, eco, scb, psc) and keeps the executions that are
// consistent: hb;eco? and eco irreflexive (coherence), rb;mo irreflexive on
// read-modify-writes (atomicity), psc acyclic (SC), po ∪ rf acyclic (no
// thin air). Its outcomes are the values read and each location's last
// store. Nothing here is shared with the model.
#ifndef MERILO_TESTS_SYNC_RC11_REFERENCE_HPP
#define MERILO_TESTS_SYNC_RC11_REFERENCE_HPP

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "litmus.hpp"

namespace merilo::sync::litmus::rc11 {

/// The outcomes of the consistent executions (`consistent`), and of those
/// whose po ∪ rf ∪ psc is also acyclic (`ordered`): the ones a model that
/// runs the seq_cst events in the seq_cst order must reach.
struct Reference {
  std::set<std::string> consistent;
  std::set<std::string> ordered;
  std::size_t candidates = 0;
};

namespace ref_detail {

using Bits = std::uint64_t;
using Rel = std::vector<Bits>;

inline bool has(const Rel& r, std::size_t i, std::size_t j) { return (r[i] >> j) & 1U; }
inline void put(Rel& r, std::size_t i, std::size_t j) { r[i] |= Bits{1} << j; }

inline Rel compose(const Rel& a, const Rel& b) {
  Rel out(a.size(), 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < a.size(); ++j) {
      if (has(a, i, j)) out[i] |= b[j];
    }
  }
  return out;
}

inline Rel unite(Rel a, const Rel& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] |= b[i];
  return a;
}

inline Rel closure(Rel r) {  // transitive
  for (std::size_t k = 0; k < r.size(); ++k) {
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (has(r, i, k)) r[i] |= r[k];
    }
  }
  return r;
}

inline Rel reflexive(Rel r) {
  for (std::size_t i = 0; i < r.size(); ++i) put(r, i, i);
  return r;
}

inline bool acyclic(const Rel& r) {
  const Rel c = closure(r);
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (has(c, i, i)) return false;
  }
  return true;
}

struct Ev {
  int thread = -1;  // -1: an initial store
  std::size_t index = 0;
  bool read = false;
  bool write = false;
  bool fence = false;
  int loc = -1;
  MemOrder order = MemOrder::relaxed;
  const Op* op = nullptr;
  std::uint64_t value = 0;  // read or written value
  std::uint64_t written = 0;
};

constexpr bool acquires(MemOrder o) {
  return o == MemOrder::consume || o == MemOrder::acquire || o == MemOrder::acq_rel ||
         o == MemOrder::seq_cst;
}
constexpr bool releases(MemOrder o) {
  return o == MemOrder::release || o == MemOrder::acq_rel || o == MemOrder::seq_cst;
}

}  // namespace ref_detail

/// Every RC11-consistent outcome of `p` over `observe`.
inline Reference reference(const Program& p, const std::vector<std::string>& observe) {
  using namespace ref_detail;
  Reference result;
  if (!p.before.empty()) throw std::logic_error("rc11 reference: no `before` operations");
  std::vector<const Op*> cases;
  for (const auto& ops : p.threads) {
    for (const Op& op : ops) {
      if (op.kind == OpKind::lock || op.kind == OpKind::unlock) {
        throw std::logic_error("rc11 reference: no locks");
      }
      if (op.kind == OpKind::cas) cases.push_back(&op);
    }
  }
  const auto loc_of = [&](const Op& op) {
    return static_cast<int>(std::find(p.locations.begin(), p.locations.end(), op.location) -
                            p.locations.begin());
  };
  for (std::size_t mask = 0; mask < (std::size_t{1} << cases.size()); ++mask) {
    // The events, for this choice of compare-exchange results.
    std::vector<Ev> ev;
    for (std::size_t x = 0; x < p.locations.size(); ++x) {
      Ev e;
      e.write = true;
      e.loc = static_cast<int>(x);
      ev.push_back(e);
    }
    std::size_t cas_index = 0;
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
      for (std::size_t i = 0; i < p.threads[t].size(); ++i) {
        const Op& op = p.threads[t][i];
        Ev e;
        e.thread = static_cast<int>(t);
        e.index = i;
        e.op = &op;
        e.order = op.order;
        switch (op.kind) {
          case OpKind::store:
            e.write = true;
            e.written = op.value;
            break;
          case OpKind::load:
            e.read = true;
            break;
          case OpKind::fetch_add:
          case OpKind::exchange:
            e.read = e.write = true;
            break;
          case OpKind::cas:
            e.read = true;
            if ((mask >> cas_index++) & 1U) {
              e.write = true;
            } else {
              e.order = op.failure;
            }
            break;
          case OpKind::fence:
            e.fence = true;
            break;
          case OpKind::lock:
          case OpKind::unlock:
            break;
        }
        if (!e.fence) e.loc = loc_of(op);
        ev.push_back(e);
      }
    }
    const std::size_t n = ev.size();
    if (n > 64) throw std::logic_error("rc11 reference: too many events");
    Rel po(n, 0);
    Rel init(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (ev[i].thread == -1 && ev[j].thread != -1) put(init, i, j);
        if (ev[i].thread != -1 && ev[i].thread == ev[j].thread && ev[i].index < ev[j].index) {
          put(po, i, j);
        }
      }
    }
    std::vector<std::size_t> reads;
    std::vector<std::vector<std::size_t>> writes(p.locations.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (ev[i].read) reads.push_back(i);
      if (ev[i].write && ev[i].thread != -1)
        writes[static_cast<std::size_t>(ev[i].loc)].push_back(i);
    }
    // Each read's source: any store of its location other than itself.
    std::vector<std::vector<std::size_t>> sources(reads.size());
    for (std::size_t k = 0; k < reads.size(); ++k) {
      const auto x = static_cast<std::size_t>(ev[reads[k]].loc);
      sources[k].push_back(x);  // the initial store
      for (std::size_t w : writes[x]) {
        if (w != reads[k]) sources[k].push_back(w);
      }
    }
    std::vector<std::size_t> rf_choice(reads.size(), 0);
    for (;;) {
      std::vector<std::vector<std::size_t>> mo_order = writes;
      for (auto& w : mo_order) std::sort(w.begin(), w.end());
      for (;;) {
        ++result.candidates;
        Rel rf(n, 0);
        std::vector<std::size_t> source(n, n);
        for (std::size_t k = 0; k < reads.size(); ++k) {
          source[reads[k]] = sources[k][rf_choice[k]];
          put(rf, source[reads[k]], reads[k]);
        }
        Rel mo(n, 0);
        for (std::size_t x = 0; x < mo_order.size(); ++x) {
          std::vector<std::size_t> chain{x};
          chain.insert(chain.end(), mo_order[x].begin(), mo_order[x].end());
          for (std::size_t a = 0; a < chain.size(); ++a) {
            for (std::size_t b = a + 1; b < chain.size(); ++b) put(mo, chain[a], chain[b]);
          }
        }
        const Rel porf = unite(unite(po, rf), init);
        bool ok = acyclic(porf);
        // Values, in an order that respects po ∪ rf.
        if (ok) {
          const Rel c = closure(porf);
          std::vector<std::size_t> order(n);
          for (std::size_t i = 0; i < n; ++i) order[i] = i;
          std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return std::popcount(c[a]) > std::popcount(c[b]);  // more successors first
          });
          for (std::size_t i : order) {
            Ev& e = ev[i];
            if (e.read) e.value = ev[source[i]].written;
            if (e.op == nullptr) continue;
            if (e.op->kind == OpKind::fetch_add) e.written = e.value + e.op->value;
            if (e.op->kind == OpKind::exchange) e.written = e.op->value;
            if (e.op->kind == OpKind::cas) {
              if (e.write != (e.value == e.op->value)) ok = false;
              e.written = e.op->desired;
            }
          }
        }
        if (ok) {
          Rel rb(n, 0);
          for (std::size_t r : reads) {
            rb[r] = mo[source[r]] & ~(Bits{1} << r);
          }
          // Release sequences, synchronises-with, happens-before.
          Rel w_po_loc(n, 0);
          Rel rf_rmw(n, 0);
          for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
              if (ev[i].write && ev[j].write &&
                  (i == j || (has(po, i, j) && ev[i].loc == ev[j].loc))) {
                put(w_po_loc, i, j);
              }
              if (has(rf, i, j) && ev[j].read && ev[j].write) put(rf_rmw, i, j);
            }
          }
          const Rel rs = compose(w_po_loc, reflexive(closure(rf_rmw)));
          Rel rel_left(n, 0);
          Rel acq_right(n, 0);
          for (std::size_t i = 0; i < n; ++i) {
            if (ev[i].thread == -1) continue;
            const bool rel = releases(ev[i].order);
            const bool acq = acquires(ev[i].order);
            if (rel && ev[i].write) put(rel_left, i, i);
            if (rel && ev[i].fence) rel_left[i] |= po[i];
            if (acq && ev[i].read) put(acq_right, i, i);
            if (acq && ev[i].fence) {
              for (std::size_t j = 0; j < n; ++j) {
                if (has(po, j, i) && ev[j].read) put(acq_right, j, i);
              }
            }
          }
          const Rel sw = compose(compose(compose(rel_left, rs), rf), acq_right);
          const Rel hb = closure(unite(unite(po, sw), init));
          const Rel eco = closure(unite(unite(rf, mo), rb));
          const Rel rb_mo = compose(rb, mo);
          for (std::size_t i = 0; i < n && ok; ++i) {
            // A read-modify-write is one event here, where RC11 has a read
            // program-ordered before a write: its hb;eco cycles through
            // itself are eco cycles here.
            if (has(hb, i, i) || has(eco, i, i)) ok = false;
            for (std::size_t j = 0; j < n && ok; ++j) {
              if (has(hb, i, j) && has(eco, j, i)) ok = false;
            }
            if (ev[i].read && ev[i].write && has(rb_mo, i, i)) ok = false;
          }
          if (ok) {
            const auto sc_access = [&](std::size_t i) {
              return !ev[i].fence && ev[i].thread != -1 && ev[i].order == MemOrder::seq_cst;
            };
            const auto sc_fence = [&](std::size_t i) {
              return ev[i].fence && ev[i].order == MemOrder::seq_cst;
            };
            Rel po_loc(n, 0);
            Rel po_not_loc(n, 0);
            Rel hb_loc(n, 0);
            for (std::size_t i = 0; i < n; ++i) {
              for (std::size_t j = 0; j < n; ++j) {
                const bool same = !ev[i].fence && !ev[j].fence && ev[i].loc == ev[j].loc;
                if (has(po, i, j)) put(same ? po_loc : po_not_loc, i, j);
                if (has(hb, i, j) && same) put(hb_loc, i, j);
              }
            }
            const Rel scb =
                unite(unite(unite(po, compose(compose(po_not_loc, hb), po_not_loc)), hb_loc),
                      unite(mo, rb));
            Rel left(n, 0);
            Rel right(n, 0);
            Rel fences(n, 0);
            const Rel hb_opt = reflexive(hb);
            for (std::size_t i = 0; i < n; ++i) {
              if (sc_access(i)) {
                put(left, i, i);
                put(right, i, i);
              }
              if (sc_fence(i)) {
                left[i] |= hb_opt[i];
                put(fences, i, i);
                for (std::size_t j = 0; j < n; ++j) {
                  if (has(hb_opt, j, i)) put(right, j, i);
                }
              }
            }
            const Rel psc_base = compose(compose(left, scb), right);
            const Rel psc_f =
                compose(compose(fences, unite(hb, compose(compose(hb, eco), hb))), fences);
            const Rel psc = unite(psc_base, psc_f);
            ok = acyclic(psc);
            if (ok) {
              std::map<std::string, std::uint64_t> regs;
              for (std::size_t r : reads) regs[ev[r].op->reg] = ev[r].value;
              for (std::size_t x = 0; x < p.locations.size(); ++x) {
                const std::size_t last = mo_order[x].empty() ? x : mo_order[x].back();
                regs[p.locations[x]] = ev[last].written;
              }
              std::string outcome;
              for (const std::string& name : observe) {
                outcome += (outcome.empty() ? "" : " ") + name + "=" + std::to_string(regs[name]);
              }
              result.consistent.insert(outcome);
              if (acyclic(unite(porf, psc))) result.ordered.insert(outcome);
            }
          }
        }
        // Next modification order.
        std::size_t x = 0;
        while (x < mo_order.size() &&
               !std::next_permutation(mo_order[x].begin(), mo_order[x].end())) {
          ++x;
        }
        if (x == mo_order.size()) break;
      }
      // Next reads-from choice.
      std::size_t k = 0;
      while (k < reads.size() && ++rf_choice[k] == sources[k].size()) rf_choice[k++] = 0;
      if (k == reads.size()) break;
    }
  }
  return result;
}

}  // namespace merilo::sync::litmus::rc11

#endif  // MERILO_TESTS_SYNC_RC11_REFERENCE_HPP
