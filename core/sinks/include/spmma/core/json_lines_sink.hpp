// Records as JSON lines (--json): Record::to_json, one object per line.
#pragma once

#include <spmma/core/durable_file.hpp>
#include <spmma/core/record_sink.hpp>

#include <string>

namespace spmma {

// One JSON object per line; "-" is standard output. Each record is written whole and synced to
// disk as it is made, so a kill loses at most the record in flight (--resume drops a torn line);
// a write that fails throws OutputError naming the file and how many records reached it.
class JsonLinesSink : public RecordSink {
public:
    JsonLinesSink(const std::string& path, bool append = false);
    void record(const Record& r) override;
    // A record --resume kept is in the file already.
    void kept(const Record&) override {}

private:
    DurableFile file_;
    size_t written_ = 0;
};

}  // namespace spmma
