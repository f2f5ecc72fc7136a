#include <spmma/core/json_lines_sink.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <stdexcept>

namespace spmma {

JsonLinesSink::JsonLinesSink(const std::string& path, bool append) {
    if (path == "-") {
        file_ = stdout;
        return;
    }
    file_ = std::fopen(path.c_str(), append ? "a" : "w");
    if (!file_) throw std::runtime_error(fmt::format("cannot write {}", path));
    owned_ = true;
}

JsonLinesSink::~JsonLinesSink() {
    if (owned_) std::fclose(file_);
}

void JsonLinesSink::record(const Record& r) {
    const std::string line = r.to_json().dump() + "\n";
    std::fwrite(line.data(), 1, line.size(), file_);
    std::fflush(file_);
    if (owned_) fsync(fileno(file_));
}

}  // namespace spmma
