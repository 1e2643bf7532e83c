// merilo/linearize/detail/undo.hpp — what a search frame keeps so that
// backing up past its call brings back the model before it.
#ifndef MERILO_LINEARIZE_DETAIL_UNDO_HPP
#define MERILO_LINEARIZE_DETAIL_UNDO_HPP

#include <type_traits>
#include <utility>

namespace merilo::linearize::detail {

/// Does the spec say how to undo a call (history.hpp, "Undo records")?
///
///   U undo_record(const M& before, const C& cmd) const;  // what the call destroys
///   void undo(M& after, const C& cmd, U record) const;   // after -> before, in place
template <class S, class M, class C>
concept DeclaresUndo = requires(const S& spec, const M& before, M& after, const C& cmd) {
  spec.undo(after, cmd, spec.undo_record(before, cmd));
};

/// How a frame brings its model back. Without the spec's undo, the frame
/// keeps the whole model before its call (moved in, never copied); with
/// it, only the record, which for a queue or a kv value is what the call
/// removed or replaced, so the stack costs memory in proportion to the
/// history, not to the history times the model.
template <class S, class M, class C>
struct Undo {
  using Record = M;
  static Record save(const S&, M& before, const C&) { return std::move(before); }
  static void restore(const S&, M& model, const C&, Record&& record) { model = std::move(record); }
};

template <class S, class M, class C>
requires DeclaresUndo<S, M, C>
struct Undo<S, M, C> {
  using Record = std::remove_cvref_t<decltype(std::declval<const S&>().undo_record(
      std::declval<const M&>(), std::declval<const C&>()))>;
  static Record save(const S& spec, M& before, const C& cmd) {
    return spec.undo_record(before, cmd);
  }
  static void restore(const S& spec, M& model, const C& cmd, Record&& record) {
    spec.undo(model, cmd, std::move(record));
  }
};

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_UNDO_HPP
