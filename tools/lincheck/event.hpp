// event.hpp — one history event's fields, as EventReader (events.hpp) reads
// them, and the fast way to get them from a line of JSON Lines.
//
// Most lines of a history are flat objects of a few integers and short
// strings; building a JSON DOM (a std::map per line) for each cost about
// 2.5 us a line, ten times the whole per-file budget of issue 23.
// `scan_event` reads such a line directly into an Event; a line it does
// not handle (escapes, non-ASCII text, floats, nested objects, repeated
// fields, anything malformed) it leaves to the full JSON parser, so the
// errors and the results stay exactly those of nlohmann/json.
#ifndef MERILO_TOOLS_LINCHECK_EVENT_HPP
#define MERILO_TOOLS_LINCHECK_EVENT_HPP

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace merilo::lincheck {

/// The fields of one event that a history's rules look at; the others are
/// ignored. An absent field is nullopt (a field present as null is a null).
struct Event {
  std::optional<nlohmann::json> process;  ///< "process"
  std::optional<nlohmann::json> type;     ///< "type"
  std::optional<nlohmann::json> f;        ///< "f"
  std::optional<nlohmann::json> value;    ///< "value"
  std::optional<nlohmann::json> key;      ///< "key"
  std::optional<nlohmann::json> time;     ///< "time"
  std::optional<nlohmann::json> index;    ///< "index"

  /// The slot for the field `name`, or null for a field no rule reads.
  [[nodiscard]] std::optional<nlohmann::json>* slot(std::string_view name);
};

/// The fields of a parsed JSON object.
[[nodiscard]] Event event_of(const nlohmann::json& object);

/// `line` read as one flat JSON object, or nullopt when it holds anything
/// beyond the subset above: then `nlohmann::json::parse` decides, and
/// whatever this returns equals what `event_of(parse(line))` would.
[[nodiscard]] std::optional<Event> scan_event(std::string_view line);

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_EVENT_HPP
