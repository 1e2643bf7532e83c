// docs/examples/tally_spec.hpp — a statem spec small enough to show the
// glue with: a tally that counts up and is read back, checked against an
// integer model (docs/frameworks.md).
#ifndef MERILO_DOCS_EXAMPLES_TALLY_SPEC_HPP
#define MERILO_DOCS_EXAMPLES_TALLY_SPEC_HPP

#include <string>

#include <merilo/statem/statem.hpp>

namespace tally {

enum class Op { add, read };
inline std::string name(Op op) { return op == Op::add ? "add" : "read"; }

struct Spec {  // the system under test is a plain int
  using model_type = int;
  using command_type = Op;
  using sut_type = int;
  int initial() const { return 0; }
  merilo::statem::Gen<Op> command(const int&) const {
    return merilo::statem::element_of<Op>({Op::add, Op::read});
  }
  merilo::statem::Admission precondition(const int&, const Op&) const {
    return merilo::statem::Admission::admit;
  }
  int next_model(int m, const Op& op) const { return op == Op::add ? m + 1 : m; }
  int new_sut() const { return 0; }
  merilo::statem::MaybeViolation execute(int& sut, const int& before, const Op& op) const {
    if (op == Op::add) ++sut;
    if (sut == before + (op == Op::add ? 1 : 0)) return merilo::statem::ok();
    return merilo::statem::fail("tally.read", "the tally lost count");
  }
  merilo::statem::MaybeViolation finish(int&, const int&) const { return merilo::statem::ok(); }
  void teardown(int&) const {}
};

}  // namespace tally

#endif  // MERILO_DOCS_EXAMPLES_TALLY_SPEC_HPP
