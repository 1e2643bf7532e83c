// Fixture for cmake/CheckOneName.cmake: parallel's tag spelled statem's way,
// and a detail alias spelled `_of`.
inline constexpr std::string_view kDeadlockTag = "statem.deadlock";
inline constexpr std::string_view kLivelockTag = "parallel.livelock";
template <class S>
using response_of = typename S::response_type;
template <class S>
response_of<S> run(S& spec);
