// edn_test.cpp — the strict EDN reader (tools/lincheck/edn.hpp) and the EDN
// history reader built on it (read_edn_history): what they accept, and the
// line and column of each refusal.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "edn.hpp"
#include "history_file.hpp"

namespace {

using merilo::lincheck::edn::Kind;
using merilo::lincheck::edn::Parser;
using merilo::lincheck::edn::Value;

// The one form in `text`, or the error's text.
std::string parse_error(const std::string& text) {
  Parser p(text);
  Value v;
  auto e = p.form(v);
  return e ? e->text() : "";
}

Value parse(const std::string& text) {
  Parser p(text);
  Value v;
  auto e = p.form(v);
  EXPECT_FALSE(e) << e->text();
  return v;
}

TEST(Edn, ReadsAJepsenEventMap) {
  const Value v = parse("{:type :invoke, :f :write, :value 3, :process 0, :time 123, :index 7}");
  ASSERT_EQ(v.kind, Kind::map);
  ASSERT_EQ(v.items.size(), 12U);
  EXPECT_TRUE(v.get("type")->is_keyword("invoke"));
  EXPECT_EQ(v.get("value")->integer, 3);
  EXPECT_EQ(v.get("time")->integer, 123);
  EXPECT_EQ(v.get("missing"), nullptr);
}

TEST(Edn, ReadsScalarsOfEveryKind) {
  EXPECT_EQ(parse("nil").kind, Kind::nil);
  EXPECT_TRUE(parse("true").boolean);
  EXPECT_FALSE(parse("false").boolean);
  EXPECT_EQ(parse("-42").integer, -42);
  EXPECT_EQ(parse("+7").integer, 7);
  EXPECT_EQ(parse("12N").integer, 12);
  EXPECT_EQ(parse("-9223372036854775808").integer, INT64_MIN);
  EXPECT_EQ(parse("9223372036854775807").integer, INT64_MAX);
  EXPECT_EQ(parse(":jepsen/op").text, "jepsen/op");
  EXPECT_EQ(parse(R"("a\"b\\c\n\u00e9\ud83d\ude00")").text, "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80");
}

TEST(Edn, ReadsCollectionsCommentsCommasAndDiscards) {
  const Value v = parse("[1, (2 3) #{4 5} ; a comment\n #_ :dropped {:a [nil]}]");
  ASSERT_EQ(v.kind, Kind::vector);
  ASSERT_EQ(v.items.size(), 4U);
  EXPECT_EQ(v.items[1].kind, Kind::list);
  EXPECT_EQ(v.items[2].kind, Kind::set);
  EXPECT_EQ(v.items[3].kind, Kind::map);
  EXPECT_EQ(v.items[3].at.line, 2U);
  EXPECT_EQ(v.items[3].at.column, 14U);
}

TEST(Edn, RefusesWhatHistoriesDoNotUseNamingLineAndColumn) {
  EXPECT_EQ(parse_error("{:value 1.5}"),
            "line 1, column 9: `1.5` is not an integer: only integers are supported (no floats, "
            "ratios or radix numbers)");
  EXPECT_EQ(parse_error("\n  #jepsen.history.Op{:type :ok}").substr(0, 61),
            "line 2, column 3: the tagged literal #jepsen.history.Op is no");
  EXPECT_EQ(parse_error("#inst \"2020\"").substr(0, 47),
            "line 1, column 1: the tagged literal #inst is n");
  EXPECT_EQ(parse_error("[a]"),
            "line 1, column 2: unexpected symbol `a` (a history holds nil, true, false, integers, "
            "strings, keywords and collections)");
  EXPECT_EQ(parse_error("\\c"),
            "line 1, column 1: characters (\\c) are not supported: write a string");
  EXPECT_EQ(parse_error("1/2").substr(0, 30), "line 1, column 1: `1/2` is not");
  EXPECT_EQ(parse_error("012"),
            "line 1, column 1: `012` has a leading zero, which EDN does not allow");
  EXPECT_EQ(parse_error("9223372036854775808"),
            "line 1, column 1: the integer `9223372036854775808` does not fit in 64 bits");
  EXPECT_EQ(parse_error("::a"), "line 1, column 1: auto-resolved keywords (`::a`) are not EDN");
  EXPECT_EQ(parse_error(":"), "line 1, column 1: a keyword needs a name after its colon");
  EXPECT_EQ(parse_error("\"\\q\""), "line 1, column 2: unknown escape \\q in a string");
  EXPECT_EQ(parse_error("\"\\ud800\""),
            "line 1, column 2: \\u escape is a high surrogate without its low half");
  EXPECT_EQ(parse_error("#(inc %)"), "line 1, column 1: `#(` is not part of the EDN histories use");
}

TEST(Edn, RefusesBrokenStructureAtTheRightPlace) {
  EXPECT_EQ(parse_error("{:a 1\n :b"), "line 1, column 1: the `{` opened here is never closed");
  EXPECT_EQ(parse_error("[1 2}"),
            "line 1, column 5: expected `]` to close the `[` on line 1, column 1, found `}`");
  EXPECT_EQ(parse_error("{:a 1 :b}"),
            "line 1, column 1: this map has a key without a value (3 forms)");
  EXPECT_EQ(parse_error("{:a 1 :a 2}"), "line 1, column 7: the key :a appears twice in this map");
  EXPECT_EQ(parse_error("#{1 1}"), "line 1, column 5: the element 1 appears twice in this set");
  EXPECT_EQ(parse_error("\"abc"), "line 1, column 1: the string opened here is never closed");
  EXPECT_EQ(parse_error(")"), "line 1, column 1: unexpected `)`: nothing is open here");
  EXPECT_EQ(parse_error("  ; only a comment"),
            "line 1, column 19: expected a value, found the end of the input");
}

TEST(Edn, RefusesNestingDeeperThanTheLimit) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(parse_error(deep), "line 1, column 65: values nest deeper than 64 levels");
  std::string discards;
  for (int i = 0; i < 100000; ++i) discards += "#_";
  EXPECT_EQ(parse_error(discards + "1"), "line 1, column 129: values nest deeper than 64 levels");
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_EQ(parse_error(ok), "");
}

TEST(Edn, ShowsValuesBackAsEdnCutShort) {
  EXPECT_EQ(merilo::lincheck::edn::shown(parse("{:a [1 \"x\"], :b #{nil}}"), 80),
            "{:a [1 \"x\"], :b #{nil}}");
  EXPECT_EQ(merilo::lincheck::edn::shown(parse("[1 2 3 4 5 6 7 8 9]"), 6), "[1 2 3…");
}

// --- read_edn_history -------------------------------------------------------

using merilo::lincheck::Completion;
using merilo::lincheck::RawHistory;
using merilo::lincheck::ReadOptions;

ReadOptions register_options() {
  ReadOptions o;
  o.fs = {"read", "write", "cas"};
  o.model = "register";
  return o;
}

std::string read_error(const std::string& text, const ReadOptions& options = register_options()) {
  std::istringstream in(text);
  RawHistory h;
  auto e = merilo::lincheck::read_edn_history(in, options, h);
  return e ? e->text() : "";
}

TEST(EdnHistory, ReadsOneMapPerLineSkippingTheNemesis) {
  std::istringstream in(
      "{:type :invoke, :f :write, :value 3, :process 0, :time 1, :index 0}\n"
      "{:type :info, :f :start, :value nil, :process :nemesis, :time 2, :index 1}\n"
      "{:type :ok, :f :write, :value 3, :process 0, :time 3, :index 2}\n");
  RawHistory h;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(in, register_options(), h));
  ASSERT_EQ(h.ops.size(), 1U);
  EXPECT_EQ(h.ops[0].f, "write");
  EXPECT_EQ(h.ops[0].argument, 3);
  EXPECT_EQ(h.ops[0].completion, Completion::ok);
  EXPECT_EQ(h.ops[0].invoke_line, 1U);
  EXPECT_EQ(h.ops[0].complete_line, 3U);
  EXPECT_TRUE(h.timed);
}

TEST(EdnHistory, ReadsKnossosVectorOfMapsWithCas) {
  std::istringstream in(
      "[{:process 0, :type :invoke, :f :cas, :value [0 2]}\n"
      " {:process 0, :type :fail, :f :cas, :value [0 2]}]\n");
  RawHistory h;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(in, register_options(), h));
  ASSERT_EQ(h.ops.size(), 1U);
  EXPECT_EQ(h.ops[0].argument, nlohmann::json::array({0, 2}));
  EXPECT_EQ(h.ops[0].completion, Completion::fail);
  EXPECT_EQ(h.ops[0].complete_line, 2U);
  EXPECT_EQ(h.ops[0].complete_column, 2U);
}

TEST(EdnHistory, IndependentTuplesGiveTheKey) {
  ReadOptions o = register_options();
  o.independent = true;
  std::istringstream in(
      "({:process 0, :type :invoke, :f :write, :value [:x 4]}\n"
      " {:process 0, :type :ok, :f :write, :value [:x 4]})");
  RawHistory h;
  ASSERT_FALSE(merilo::lincheck::read_edn_history(in, o, h));
  ASSERT_EQ(h.ops.size(), 1U);
  EXPECT_EQ(h.ops[0].key, "\"x\"");
  EXPECT_EQ(h.ops[0].argument, 4);
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :write, :value 4}", o),
            "line 1, column 1: --independent needs every :value to be a [key value] tuple, got 4");
}

TEST(EdnHistory, RefusesTextThatIsNotUtf8WhereverItIs) {
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :read}\n{:process \"a\xff\"}"),
            "line 2, column 13: the text is not UTF-8 (byte 0xff); EDN histories are UTF-8");
  EXPECT_EQ(read_error("; \xc3\n{}"),
            "line 1, column 3: the text is not UTF-8 (byte 0xc3); EDN histories are UTF-8");
  EXPECT_EQ(read_error("[{:process 0, :type :invoke, :f :\xe2\x82}]"),
            "line 1, column 34: the text is not UTF-8 (byte 0xe2); EDN histories are UTF-8");
}

TEST(EdnHistory, NamesLineAndColumnOfEveryProblem) {
  EXPECT_EQ(read_error("[{:process 0, :type :invoke, :f :read}\n 7]"),
            "line 2, column 2: expected a map (one event), got an integer 7");
  EXPECT_EQ(read_error("{:process 0, :type :invoke}"), "line 1, column 1: missing :f");
  EXPECT_EQ(read_error("  {:process -1, :type :invoke, :f :read}"),
            "line 1, column 3: :process must be a non-negative integer (or :nemesis), got -1");
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :read, \"x\" 1}"),
            "line 1, column 39: an event's keys are keywords (:type, :f, :value, ...), got \"x\"");
  EXPECT_EQ(read_error("[{:process 0, :type :invoke, :f :read}"),
            "line 1, column 1: the [ that holds the history is never closed");
  EXPECT_EQ(read_error("[{:process 0, :type :invoke, :f :read}] {}"),
            "line 1, column 41: more after the [] that holds the history");
  EXPECT_EQ(read_error("; nothing\n"),
            "the history is empty: no events (expected maps such as {:process 0, :type :invoke, "
            ":f :read, :value nil})");
  EXPECT_EQ(read_error("{:process 0, :type :invoke, :f :read, :index -3}"),
            "line 1, column 1: :index must be a non-negative integer, got -3");
}

}  // namespace
