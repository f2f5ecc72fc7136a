// Records as JSON lines (--json): Record::to_json, one object per line.
#pragma once

#include <spmma/core/record_sink.hpp>

#include <cstdio>
#include <string>

namespace spmma {

// One JSON object per line; "-" is standard output. Each record is flushed and synced to disk
// as it is written, so a kill loses at most the record in flight (--resume drops a torn line).
class JsonLinesSink : public RecordSink {
public:
    JsonLinesSink(const std::string& path, bool append = false);
    ~JsonLinesSink() override;
    void record(const Record& r) override;

private:
    std::FILE* file_ = nullptr;
    bool owned_ = false;
};

}  // namespace spmma
