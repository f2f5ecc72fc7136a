// Text into XML, HTML and SVG: one escape for element text and attribute values alike, so
// nothing a plugin or a record file says can break out of the markup it is written into; an
// XML attribute value also keeps its tabs and line breaks as character references.
#pragma once

#include <string>
#include <string_view>

namespace spmma {

// Escapes & < > " ' and replaces what XML 1.0 does not allow in a document (control characters
// but tab, newline and carriage return; invalid UTF-8) with U+FFFD. Safe in attribute values
// (either quote) and in element text.
std::string markup_escape(std::string_view text);

// markup_escape, with tab, newline and carriage return as &#9; &#10; &#13;: an XML parser turns
// each of them, written raw into an attribute value, into a space (XML 1.0, 3.3.3), so a JUnit
// failure message would lose its line breaks.
std::string markup_attribute(std::string_view text);

}  // namespace spmma
