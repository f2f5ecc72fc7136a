// Records as CSV rows (--csv): Record::csv_header, then Record::csv_row for each record, each
// row written and synced as it comes (durable_file.hpp).
#pragma once

#include <spmma/core/durable_file.hpp>
#include <spmma/core/record_sink.hpp>

#include <string>

namespace spmma {

class CsvSink : public RecordSink {
public:
    explicit CsvSink(const std::string& path);
    void record(const Record& r) override;

private:
    DurableFile file_;
    size_t written_ = 0;
};

}  // namespace spmma
