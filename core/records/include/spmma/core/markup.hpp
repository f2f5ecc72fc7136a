// Text into XML, HTML and SVG: one escape for element text and attribute values alike, so
// nothing a plugin or a record file says can break out of the markup it is written into.
#pragma once

#include <string>
#include <string_view>

namespace spmma {

// Escapes & < > " ' and replaces what XML 1.0 does not allow in a document (control characters
// but tab, newline and carriage return; invalid UTF-8) with U+FFFD. Safe in attribute values
// (either quote) and in element text.
std::string markup_escape(std::string_view text);

}  // namespace spmma
