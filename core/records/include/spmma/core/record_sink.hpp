// Where records go as they are made: the runner hands each record, whole, to every sink; finish()
// comes once, after the last record.
#pragma once

#include <spmma/core/record.hpp>

namespace spmma {

// Receives records as they are made.
class RecordSink {
public:
    virtual ~RecordSink() = default;
    virtual void record(const Record& r) = 0;
    virtual void finish() {}
};

}  // namespace spmma
