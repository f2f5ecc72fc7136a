// Run records as JUnit XML (junit.hpp): one test case per record, one test suite per plugin.
//   verified, unverified -> passed (unverified says so in system-out)
//   failed               -> <failure type="verification"> with the verdict and the first mismatches
//   error, or a status this version does not know -> <error type="STAGE"> with the stage and the reason
//   skipped              -> <skipped message="REASON">
// time: the sum of the timed iterations (0 without timings). classname "plugin.kernel", name the
// problem's label. The file is written when the run finishes (finish()), or, if the sink is
// destroyed before that, with what arrived. A run cut short (cut_short) adds one test case in
// error, "spmma.run / not run", saying what did not run.
#pragma once

#include <spmma/core/junit.hpp>
#include <spmma/core/record_sink.hpp>
#include <spmma/core/stored_record.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace spmma {

class JunitSink : public RecordSink {
public:
    // Checks now that `path` can be written (std::runtime_error naming it when not).
    explicit JunitSink(std::filesystem::path path, std::string document_name = "spmma");
    ~JunitSink() override;
    void record(const Record& r) override;
    void cut_short(const std::string& what) override { cut_short_ = what; }
    void finish() override;

private:
    std::vector<JunitSuite> suites() const;
    std::filesystem::path path_;
    std::string name_;
    std::vector<StoredRecord> records_;
    std::string cut_short_;
    bool written_ = false;
};

// The test case of one record (shared by the sink and its tests).
JunitCase junit_case(const StoredRecord& r);
// Records -> one suite per plugin, in first-seen order.
std::vector<JunitSuite> junit_suites(const std::vector<StoredRecord>& records);

}  // namespace spmma
