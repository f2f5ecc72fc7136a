#include <spmma/core/csv_sink.hpp>

#include <fmt/format.h>

namespace spmma {
namespace {

std::string csv_line(const std::vector<std::string>& cells, bool escape) {
    std::string out;
    for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + (escape ? csv_escape(cells[i]) : cells[i]);
    return out + "\n";
}

}  // namespace

CsvSink::CsvSink(const std::string& path) : file_(path, DurableFile::Mode::Replace) {
    file_.append(csv_line(Record::csv_header(), false), "the header not written");
}

void CsvSink::record(const Record& r) {
    file_.append(csv_line(r.csv_row(), true), fmt::format("row {} not written; {} rows of this run reached it", written_ + 1, written_));
    ++written_;
}

}  // namespace spmma
