// edn_history.cpp — the EDN reader of histories: the text parsed form by
// form (edn.hpp), each event map's fields turned into the JSON values
// EventReader reads, in either layout (maps one after another, or one
// vector of maps).
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <merilo/core/text.hpp>

#include "edn.hpp"
#include "events.hpp"
#include "history_file.hpp"

namespace merilo::lincheck {

namespace {

using nlohmann::json;

InputError at(const edn::Position& p, std::string message) {
  return InputError{p.line, std::move(message), p.column};
}

InputError fail(const edn::Error& e) { return at(e.at, e.message); }

// A map's key as JSON object keys spell it: a keyword's name, a string as
// it is, anything else written as EDN.
std::string key_text(const edn::Value& k) {
  if (k.kind == edn::Kind::keyword || k.kind == edn::Kind::string) return k.text;
  return edn::shown(k, kMaxShown);
}

// `v` as JSON: keywords become strings (":write" is "write"), lists and sets
// arrays. Nesting is bounded by the parser's edn::kMaxDepth.
json to_json(const edn::Value& v) {
  switch (v.kind) {
    case edn::Kind::nil:
      return nullptr;
    case edn::Kind::boolean:
      return v.boolean;
    case edn::Kind::integer:
      return v.integer;
    case edn::Kind::string:
    case edn::Kind::keyword:
      return v.text;
    case edn::Kind::vector:
    case edn::Kind::list:
    case edn::Kind::set: {
      json out = json::array();
      for (const auto& item : v.items) out.push_back(to_json(item));
      return out;
    }
    case edn::Kind::map: {
      json out = json::object();
      for (std::size_t i = 0; i + 1 < v.items.size(); i += 2) {
        out[key_text(v.items[i])] = to_json(v.items[i + 1]);
      }
      return out;
    }
  }
  return nullptr;
}

// Whether an event's field `name` is one the history's rules read; the
// parser keeps no tree for the others.
bool read_field(std::string_view name) {
  Event probe;
  return probe.slot(name) != nullptr;
}

// The first set in `v` (depth bounded by the parser), or null.
const edn::Value* first_set(const edn::Value& v) {
  if (v.kind == edn::Kind::set) return &v;
  for (const auto& item : v.items) {
    if (const edn::Value* s = first_set(item)) return s;
  }
  return nullptr;
}

std::optional<InputError> event(EventReader& reader, const edn::Value& v) {
  if (v.kind != edn::Kind::map) {
    return at(v.at, fmt::format("expected a map (one event), got {} {}", edn::kind_name(v.kind),
                                edn::shown(v, kMaxShown)));
  }
  // A fail or info completion's value is ignored, whatever it holds.
  const edn::Value* type = v.get("type");
  const bool ignored_value =
      type != nullptr && (type->is_keyword("fail") || type->is_keyword("info"));
  Event e;
  for (std::size_t i = 0; i < v.items.size(); i += 2) {
    const edn::Value& k = v.items[i];
    if (k.kind != edn::Kind::keyword) {
      return at(k.at, fmt::format("an event's keys are keywords (:type, :f, :value, ...), got {}",
                                  edn::shown(k, kMaxShown)));
    }
    auto* slot = e.slot(k.text);
    if (slot == nullptr) continue;
    const edn::Value& field = v.items[i + 1];
    // A set has no order: #{1 2} and #{2 1} are one value, so it cannot be
    // a cas's [expected new] or a [key value] tuple, and reading its
    // elements in the order written would make the verdict depend on it.
    const edn::Value* set = ignored_value && k.text == "value" ? nullptr : first_set(field);
    if (set != nullptr) {
      return at(set->at, fmt::format("a set ({}) has no order, so it cannot be read as :{} (a "
                                     "cas's [expected new], a [key value] tuple): write a vector",
                                     edn::shown(*set, kMaxShown), k.text));
    }
    *slot = to_json(field);
  }
  return reader.event(v.at.line, v.at.column, std::move(e));
}

// One event form, at most `options.max_line_bytes` bytes long.
std::optional<InputError> next_form(edn::Parser& parser, const ReadOptions& options,
                                    edn::Value& v) {
  auto e = parser.form(v, options.max_line_bytes, read_field);
  if (!e) return std::nullopt;
  if (e->too_long) {
    return at(e->at, fmt::format("this event is longer than {} bytes (in EDN --max-line-bytes "
                                 "bounds each event; raise it if the event is meant to be)",
                                 options.max_line_bytes));
  }
  return fail(*e);
}

// EDN is UTF-8 text. A byte that is not (a string holding 0xFF) would
// reach the history's keys and values, where two different invalid keys
// could not be told apart once shown, so the whole text is checked first,
// as the JSON Lines parser checks its strings.
std::optional<InputError> not_utf8(std::string_view text) {
  const std::size_t good = core::utf8_valid_length(text);
  if (good == text.size()) return std::nullopt;
  const std::string_view before = text.substr(0, good);
  const std::size_t newline = before.rfind('\n');
  const edn::Position p{
      1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')),
      newline == std::string_view::npos ? good + 1 : good - newline};
  return at(p, fmt::format("the text is not UTF-8 (byte 0x{:02x}); EDN histories are UTF-8",
                           static_cast<unsigned>(static_cast<unsigned char>(text[good]))));
}

}  // namespace

std::optional<InputError> read_edn_history(std::istream& in, const ReadOptions& options,
                                           RawHistory& out) {
  const std::string whole{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // A byte order mark at the start is skipped (the JSON Lines reader skips
  // one too); columns on the first line count from after it, as an editor
  // shows them.
  std::string_view text = whole;
  if (text.starts_with("\xef\xbb\xbf")) text.remove_prefix(3);
  if (auto wrong = not_utf8(text)) return wrong;
  edn::Parser parser(text);
  EventReader reader(options, Syntax::edn, out);
  std::optional<edn::Error> error;
  const std::optional<char> first = parser.skip(error);
  if (error) return fail(*error);
  if (first.has_value() && (*first == '[' || *first == '(')) {
    // Knossos's layout: one vector (or list) of event maps.
    const edn::Position opened = parser.position();
    const char close = *first == '[' ? ']' : ')';
    parser.take();
    for (;;) {
      const std::optional<char> c = parser.skip(error);
      if (error) return fail(*error);
      if (!c) {
        return at(opened, fmt::format("the {} that holds the history is never closed", *first));
      }
      if (*c == close) {
        parser.take();
        break;
      }
      edn::Value v;
      if (auto e = next_form(parser, options, v)) return e;
      if (auto e = event(reader, v)) return e;
    }
    const std::optional<char> after = parser.skip(error);
    if (error) return fail(*error);
    if (after) {
      return at(parser.position(),
                fmt::format("more after the {}{} that holds the history", *first, close));
    }
    return reader.finish();
  }
  // history.edn's layout: one map after another (one per line as Jepsen writes it).
  for (;;) {
    const std::optional<char> c = parser.skip(error);
    if (error) return fail(*error);
    if (!c) break;
    edn::Value v;
    if (auto e = next_form(parser, options, v)) return e;
    if (auto e = event(reader, v)) return e;
  }
  return reader.finish();
}

}  // namespace merilo::lincheck
