// Fixture for cmake/CheckOneName.cmake: a second Outcome and two other
// spellings of a spec's command type.
template <class S>
using command_t = typename std::remove_cvref_t<S>::command_type;
template <class Cmd>
struct Outcome {};
template <class S>
Outcome<typename std::remove_cvref_t<S>::command_type> run(S&& spec);
