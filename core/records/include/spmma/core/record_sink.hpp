// Where records go as they are made: the runner hands each record, whole, to every sink; finish()
// comes once, after the last record. A sink that cannot write throws OutputError
// (durable_file.hpp): the run stops there, and the other sinks are still finished.
#pragma once

#include <spmma/core/record.hpp>

#include <string>

namespace spmma {

// Receives records as they are made.
class RecordSink {
public:
    virtual ~RecordSink() = default;
    virtual void record(const Record& r) = 0;
    // A record --resume kept from an earlier run, in the place the run reached it: counted and
    // written like a new one, except where it is already (the --json file).
    virtual void kept(const Record& r) { record(r); }
    // The run ended early (a signal, an output that failed): what did not run, said once before finish().
    virtual void cut_short(const std::string& /*what*/) {}
    virtual void finish() {}
};

}  // namespace spmma
