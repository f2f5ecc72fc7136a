#include "output_paths.hpp"

#include <spmma/core/record.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace spmma::app {
namespace {

bool same(const std::string& a, const std::string& b) {
    if (a == "-" || b == "-") return a == b;
    std::error_code ec;
    if (std::filesystem::equivalent(a, b, ec) && !ec) return true;
    const auto ca = std::filesystem::weakly_canonical(a, ec);
    if (ec) return false;
    const auto cb = std::filesystem::weakly_canonical(b, ec);
    return !ec && ca == cb;
}

std::string g_command_line;

}  // namespace

std::optional<std::string> same_file(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        if (outputs[i].path.empty()) continue;
        for (size_t j = i + 1; j < outputs.size(); ++j)
            if (!outputs[j].path.empty() && same(outputs[i].path, outputs[j].path))
                return fmt::format("{} and {} name the same file ({}): each output needs its own", outputs[i].what, outputs[j].what,
                                   outputs[i].path == "-" ? "standard output" : outputs[i].path);
        for (const auto& in : inputs)
            if (!in.path.empty() && same(outputs[i].path, in.path))
                return fmt::format("{} {} is also {}: writing it would destroy what is read", outputs[i].what, outputs[i].path, in.what);
    }
    return std::nullopt;
}

std::optional<std::string> would_replace(const NamedPath& out, const std::string& keep) {
    std::error_code ec;
    if (out.path.empty() || out.path == "-" || !std::filesystem::is_regular_file(out.path, ec)) return std::nullopt;
    const auto size = std::filesystem::file_size(out.path, ec);
    if (ec || size == 0) return std::nullopt;
    return fmt::format("{} {} already holds records ({} bytes): {}--force replaces it", out.what, out.path, size,
                       keep.empty() ? "" : keep + " keeps them and adds to them, ");
}

std::string command_line() { return g_command_line; }

void set_command_line(int argc, char** argv) {
    g_command_line.clear();
    for (int i = 0; i < argc; ++i) g_command_line += (i ? " " : "") + shell_quote(i == 0 ? std::string("spmma") : std::string(argv[i]));
}

}  // namespace spmma::app
