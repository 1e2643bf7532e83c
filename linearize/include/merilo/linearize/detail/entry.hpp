// merilo/linearize/detail/entry.hpp — what both checkers' entry points do
// before and around a search: refuse a model or spec that cannot work, at
// compile time with a message, and turn anything the search throws into a
// `crashed` verdict.
#ifndef MERILO_LINEARIZE_DETAIL_ENTRY_HPP
#define MERILO_LINEARIZE_DETAIL_ENTRY_HPP

#include <exception>  // std::exception
#include <new>        // std::bad_alloc
#include <string>     // the error text

#include <merilo/linearize/model.hpp>  // Model, SpecFor, Verdict

namespace merilo::linearize::detail {

/// Compiles only when `M` is a `Model` and `S` a `SpecFor<S, M, C, R>`,
/// each refusal saying what is missing.
template <class S, class M, class C, class R>
constexpr void require_model_and_spec() noexcept {
  static_assert(Model<M>,
                "linearize: the model must be copyable, comparable with ==, and hashable: "
                "trivially copyable without padding (fsm::ByteHashable) or with a "
                "`feed(sink)` member (fsm::FeedsBytes)");
  static_assert(SpecFor<S, M, C, R>,
                "linearize: the spec needs `std::optional<V> postcondition(const M&, const C&, "
                "const R&) const` and `M next_model(const M&, const C&) const` (or "
                "next_model(model, cmd, response) or next_model(model, cmd, response, caller))");
}

/// `search()`, or a fresh `Result` with verdict `crashed` and the error
/// named when it throws (out of memory, a spec's exception, anything).
template <class Result, class Search>
Result crash_guarded(Search&& search) noexcept {
  Result result;
  try {
    return search();
  } catch (const std::bad_alloc&) {
    result.error = "out of memory";
  } catch (const std::exception& e) {
    try {
      result.error = std::string("the spec or model threw: ") + e.what();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the text itself could not be built
    }
  } catch (...) {
    result.error = "the spec or model threw a non-standard exception";
  }
  result.verdict = Verdict::crashed;
  return result;
}

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_ENTRY_HPP
