// fmt's compiled part, built once into spmma_fmt (deps/CMakeLists.txt). Debian's libfmt-dev ships
// the headers and a shared library only; linking that library would make every binary need
// libfmt.so.9 where it runs (the GPU machines have none), and fmt's header-only mode compiles
// this part again in every translation unit that formats.
// The functions fmt defines out of line come from format-inl.h; the templates it declares and
// leaves to its library (format.h's extern templates, and what its headers call but only
// format-inl.h defines) are instantiated here for the types spmma's code formats.
#include <fmt/format-inl.h>

#include <locale>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
