// merilo/core/html.hpp — what every HTML page merilo writes needs: text
// escaped for the page, and the page written to a file (file.hpp).
//
// merilo draws a few results as self-contained HTML pages (linearize's
// history timeline, explore's trace page). Each page puts user data — a
// command, a response, a world's `show()` — into its markup, so all of that
// goes through one escape: `html_escape` makes `<script>` show as text,
// never run, inside element text and inside double- or single-quoted
// attribute values alike.
//
// Example:
//
//   std::string cell = "<td>" + merilo::core::html_escape(sys.show()) + "</td>";
//   std::string error = merilo::core::write_file("trace.html", page);  // "" when written
//   (file.hpp)
#ifndef MERILO_CORE_HTML_HPP
#define MERILO_CORE_HTML_HPP

#include <string>       // std::string
#include <string_view>  // std::string_view

#include <merilo/core/file.hpp>  // write_file, which every page is written with

namespace merilo::core {

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by their character
/// references, so it is inert in element text and in quoted attributes.
[[nodiscard]] std::string html_escape(std::string_view text);

}  // namespace merilo::core

#endif  // MERILO_CORE_HTML_HPP
