#include <spmma/core/json_lines_sink.hpp>

#include <fmt/format.h>

namespace spmma {

JsonLinesSink::JsonLinesSink(const std::string& path, bool append)
    : file_(path, append ? DurableFile::Mode::Append : DurableFile::Mode::Replace) {}

void JsonLinesSink::record(const Record& r) {
    file_.append(r.to_json().dump() + "\n", fmt::format("record {} not written; {} records of this run reached it", written_ + 1, written_));
    ++written_;
}

}  // namespace spmma
