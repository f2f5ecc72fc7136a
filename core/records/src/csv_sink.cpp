#include <spmma/core/csv_sink.hpp>

#include <fmt/format.h>

#include <iostream>
#include <stdexcept>

namespace spmma {

namespace {

std::ostream* open_output(const std::string& path, std::ofstream& file) {
    if (path == "-") return &std::cout;
    file.open(path, std::ios::out | std::ios::trunc);
    if (!file) throw std::runtime_error(fmt::format("cannot write {}", path));
    return &file;
}

}  // namespace

CsvSink::CsvSink(const std::string& path) : out_(open_output(path, file_)) {
    const auto h = Record::csv_header();
    for (size_t i = 0; i < h.size(); ++i) *out_ << (i ? "," : "") << h[i];
    *out_ << '\n';
}

void CsvSink::record(const Record& r) {
    const auto row = r.csv_row();
    for (size_t i = 0; i < row.size(); ++i) *out_ << (i ? "," : "") << csv_escape(row[i]);
    *out_ << '\n';
    out_->flush();
}

}  // namespace spmma
