// event_test.cpp — the fast scanner of JSON Lines events (event.hpp) reads
// exactly what nlohmann/json reads, or leaves the line to it.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "event.hpp"

namespace {

using merilo::lincheck::Event;
using merilo::lincheck::event_of;
using merilo::lincheck::scan_event;
using nlohmann::json;

// The fields as one JSON object, types included (3 and 3u print alike, so
// compare the type names too).
std::string fields(const Event& e) {
  std::string out;
  const std::pair<const char*, const std::optional<json>*> all[] = {
      {"process", &e.process}, {"type", &e.type}, {"f", &e.f},        {"value", &e.value},
      {"key", &e.key},         {"time", &e.time}, {"index", &e.index}};
  for (const auto& [name, v] : all) {
    out += std::string(name) + "=" + (*v ? (*v)->dump() + ":" + (*v)->type_name() : "absent") + " ";
  }
  return out;
}

// Whatever the scanner accepts, it reads as the full parser does.
void agrees(const std::string& line) {
  const std::optional<Event> fast = scan_event(line);
  if (!fast) return;
  json parsed;
  ASSERT_NO_THROW(parsed = json::parse(line)) << "the scanner accepted what JSON refuses: " << line;
  ASSERT_TRUE(parsed.is_object()) << line;
  EXPECT_EQ(fields(*fast), fields(event_of(parsed))) << line;
}

TEST(EventScan, ReadsFlatLinesAsTheJsonParserDoes) {
  const std::string line =
      R"({"process": 3, "type": "ok", "f": "cas", "value": [1, -2], "key": "r", "time": 17, "extra": [true, null]})";
  const std::optional<Event> e = scan_event(line);
  ASSERT_TRUE(e);
  EXPECT_EQ(*e->process, 3);
  EXPECT_TRUE(e->process->is_number_unsigned());
  EXPECT_EQ(*e->value, json::array({1, -2}));
  EXPECT_FALSE(e->index);
  agrees(line);
}

TEST(EventScan, LeavesEverythingElseToTheParser) {
  for (const char* line : {
           R"({"f": "a\"b"})",                    // an escape
           "{\"f\": \"\xc3\xa9\"}",               // non-ASCII
           R"({"value": 1.5})",                   // a float
           R"({"value": 1e3})",                   // an exponent
           R"({"value": 18446744073709551616})",  // beyond uint64
           R"({"value": -9223372036854775809})",  // beyond int64
           R"({"value": 012})",                   // a leading zero
           R"({"value": {"a": 1}})",              // an object
           R"({"f": "a", "f": "b"})",             // a repeated field
           R"({"f": "a",})",                      // a trailing comma
           R"({"f": "a"} x)",                     // text after the object
           R"([1, 2])",                           // not an object
           R"({"value": [[[[[[[[[1]]]]]]]]]})",   // nested past the fast depth
           R"({"value": nul})",
       }) {
    EXPECT_FALSE(scan_event(line)) << line;
  }
}

TEST(EventScan, AgreesWithTheParserOnEveryTestHistory) {
  std::size_t scanned = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MERILO_LINCHECK_DATA)) {
    if (entry.path().extension() != ".jsonl") continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      agrees(line);
      if (scan_event(line)) ++scanned;
    }
  }
  EXPECT_GT(scanned, 100U);  // most lines take the fast path
  for (const char* line : {R"({"process": -0})", R"({"process": -9223372036854775808})",
                           R"({"process": 18446744073709551615})", R"({ })", "\t{\"a\":[]}\r"}) {
    EXPECT_TRUE(scan_event(line)) << line;
    agrees(line);
  }
}

}  // namespace
