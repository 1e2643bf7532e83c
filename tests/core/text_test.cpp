// text_test.cpp — printable(), quoted() and utf8_prefix(): control
// characters escaped, UTF-8 passed through, cuts on character boundaries.
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include <merilo/core/describe.hpp>
#include <merilo/core/text.hpp>

namespace merilo {
namespace {

TEST(Text, EscapesWhatDrivesATerminal) {
  EXPECT_EQ(core::printable("a\x1b]0;title\x07z"), "a\\x1b]0;title\\x07z");
  EXPECT_EQ(core::printable("clear\x1b[2J"), "clear\\x1b[2J");
  EXPECT_EQ(core::printable("line\nforged\rover\ttab"), "line\\nforged\\rover\\ttab");
  EXPECT_EQ(core::printable(std::string_view("nul\0end", 7)), "nul\\x00end");
  EXPECT_EQ(core::printable("del\x7f"), "del\\x7f");
}

TEST(Text, EscapesC1AndBidirectionalControls) {
  const std::string csi = std::string("csi\xc2\x9b") + "2J";  // U+009B, then "2J"
  EXPECT_EQ(core::printable(csi), "csi\\u009b2J");
  const std::string rlo = std::string("abc\xe2\x80\xae") + "fed";  // U+202E
  EXPECT_EQ(core::printable(rlo), "abc\\u202efed");
  EXPECT_EQ(core::printable("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");
}

TEST(Text, EscapesBytesThatAreNotUtf8) {
  EXPECT_EQ(core::printable(std::string("\x9b") + "2J"), "\\x9b2J");
  EXPECT_EQ(core::printable("\xc3"), "\\xc3");                    // a cut sequence
  EXPECT_EQ(core::printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(core::printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

TEST(Text, PassesPrintableUtf8Through) {
  EXPECT_EQ(core::printable("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80 \\ \""),
            "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80 \\ \"");
}

TEST(Text, QuotedEscapesQuotesAndBackslashesToo) {
  EXPECT_EQ(core::quoted("a\"b\\c\x1b"), "\"a\\\"b\\\\c\\x1b\"");
  EXPECT_EQ(core::describe(std::string("bell\a")), "\"bell\\x07\"");
}

TEST(Text, CutsOnACharacterBoundary) {
  const std::string_view s = "ab\xc3\xa9\xe2\x82\xac";  // a b é €
  EXPECT_EQ(core::utf8_prefix(s, 2), "ab");
  EXPECT_EQ(core::utf8_prefix(s, 3), "ab");  // not half of é
  EXPECT_EQ(core::utf8_prefix(s, 4), "ab\xc3\xa9");
  EXPECT_EQ(core::utf8_prefix(s, 5), "ab\xc3\xa9");
  EXPECT_EQ(core::utf8_prefix(s, 6), "ab\xc3\xa9");
  EXPECT_EQ(core::utf8_prefix(s, 7), s);
  EXPECT_EQ(core::utf8_prefix(s, 100), s);
  // Continuation bytes with no sequence to keep whole: cut where asked.
  EXPECT_EQ(core::utf8_prefix("\x80\x80\x80\x80\x80", 4), "\x80\x80\x80\x80");
}

TEST(Text, FindsWhereTextStopsBeingUtf8) {
  using std::string_view_literals::operator""sv;
  EXPECT_EQ(core::utf8_valid_length(""), 0U);
  EXPECT_EQ(core::utf8_valid_length("ab\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), 11U);
  EXPECT_EQ(core::utf8_valid_length("ab\xff"), 2U);             // never a UTF-8 byte
  EXPECT_EQ(core::utf8_valid_length("ab\xc3"), 2U);             // a sequence cut short
  EXPECT_EQ(core::utf8_valid_length("a\xc0\xaf"), 1U);          // overlong '/'
  EXPECT_EQ(core::utf8_valid_length("a\xed\xa0\x80"), 1U);      // a surrogate
  EXPECT_EQ(core::utf8_valid_length("a\xf4\x90\x80\x80"), 1U);  // past U+10FFFF
  EXPECT_EQ(core::utf8_valid_length("a\0b"sv), 3U);             // NUL is UTF-8
}

}  // namespace
}  // namespace merilo
