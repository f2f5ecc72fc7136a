// Records as CSV rows (--csv): Record::csv_header, then Record::csv_row for each record.
#pragma once

#include <spmma/core/record_sink.hpp>

#include <fstream>
#include <ostream>
#include <string>

namespace spmma {

class CsvSink : public RecordSink {
public:
    explicit CsvSink(const std::string& path);
    void record(const Record& r) override;

private:
    std::ofstream file_;
    std::ostream* out_;
};

}  // namespace spmma
