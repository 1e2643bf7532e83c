// Fixture for cmake/CheckOneName.cmake: fsm may declare Outcome.
enum class Outcome { moved, ignored, rejected, invalid };
