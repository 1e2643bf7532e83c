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
//
// `scan_flat_event` goes one step further for the lines nearly every
// history is made of: it keeps the fields the rules check (process, type,
// f, time, index, key) as plain integers and views instead of JSON values,
// and only accepts a line whose fields already have the shapes the rules
// want, so the reader can skip building, checking and freeing seven JSON
// values a line (about two thirds of merilo-lincheck's time on a small
// file, issue 37). Anything else goes to `scan_event`, which decides as before.
#ifndef MERILO_TOOLS_LINCHECK_EVENT_HPP
#define MERILO_TOOLS_LINCHECK_EVENT_HPP

#include <cstdint>
#include <optional>
#include <string>
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

/// A line's fields when each has the shape the history's rules accept:
/// "process" a non-negative integer, "type" and "f" strings, "time" an
/// integer that fits 64 bits signed, "index" a non-negative integer, "key"
/// a string, an integer or null. Strings are views into the line.
struct FlatEvent {
  std::uint64_t process = 0;         ///< "process" (required)
  std::string_view type;             ///< "type" (required; not yet checked against the four)
  std::string_view f;                ///< "f" (required; not yet checked against the model)
  std::optional<std::int64_t> time;  ///< "time", if present
  std::optional<std::string> key;    ///< "key" as JSON text (`"r"`, `7`); absent when null
  nlohmann::json value;              ///< "value" (null when absent)
};

/// `line` read into `out` when it is a flat object (as `scan_event` takes)
/// whose fields all have the shapes `FlatEvent` names; false otherwise, and
/// `out` is then meaningless. Whenever this returns true, `scan_event`
/// returns the same fields as JSON values.
[[nodiscard]] bool scan_flat_event(std::string_view line, FlatEvent& out);

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_EVENT_HPP
