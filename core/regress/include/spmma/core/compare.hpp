// `spmma compare`: two record files (JSON lines) -> a verdict per matched record and a pass/fail
// exit code for regression gates.
//
// Records match by problem (every field: sizes, types, pattern, scaling, alpha, beta,
// distribution, seed), plugin and kernel, and by device name where both records name one.
// Records of one key in one file are pooled (their iterations together). Every iteration's time
// counts: the ratio new/old comes with a confidence interval (timing_stats.hpp), and the verdict
// weighs that interval against a threshold T:
//   slower    the whole interval lies above 1 + T          (a regression)
//   faster    the whole interval lies below 1 - T
//   same      the whole interval lies within [1 - T, 1 + T] (a change smaller than T is "same"
//             even when it is significant)
//   too noisy the interval reaches across 1 + T or 1 - T: the times cannot tell a change of T
//             from noise (not a regression; more iterations or a quieter machine decide it)
// The clock: where both records carry the SM clock of their timed launches (GPU records, the
// median NVML sample), the work per clock is judged too: new/old cycles = new/old time x new/old
// clock, the same interval scaled by the clock ratio (the clock taken as known). A slowdown whose
// cycles are "same" is only a lower clock and says so ("slower, clock -9 %: same cycles");
// --per-clock makes the cycles' verdict the gate's, so such a row is no regression.
// A record that ran (verified or unverified) and now fails, errs or is skipped is a regression
// even when it is faster; one that failed and still fails is a failure too; so is a failed
// record found only in the new file.
// JUnit (compare_junit): one test case per matched record; regressions and failures are
// <failure>s, a too-noisy comparison is <skipped> (no verdict: neither passed nor failed, but
// counted and listed by Jenkins and GitLab), records in one file only are <skipped> too except a
// failing one only in the new file (<failure>).
#pragma once

#include <spmma/core/junit.hpp>
#include <spmma/core/stored_record.hpp>
#include <spmma/core/timing_stats.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace spmma {

struct CompareOptions {
    double confidence = 0.99;  // of the interval of the ratio
    double threshold = 0.05;   // T, a fraction
    bool per_clock = false;    // the gate takes the verdict on cycles where both records carry a clock
};

enum class TimingVerdict { NotCompared, Faster, Same, Slower, TooNoisy };
const char* to_string(TimingVerdict v);

// What the statuses of a matched pair say (ran = verified or unverified; bad = failed, error or
// a status this version does not know).
enum class StatusChange {
    BothRan,
    Broke,        // ran -> bad: regression
    Lost,         // ran -> skipped: regression (a kernel that stopped running)
    StillBad,     // bad -> bad: failure
    NowBad,       // skipped -> bad: failure
    Fixed,        // bad -> ran
    NewlyRan,     // skipped -> ran
    BothSkipped,
    NoLongerBad,  // bad -> skipped
};

// A verdict on timings alone: the interval against [1 - threshold, 1 + threshold].
TimingVerdict judge_timing(const RatioInterval& interval, double threshold);

// The interval of new/old cycles from that of new/old time and the clock ratio new/old.
RatioInterval per_clock_interval(const RatioInterval& time, double clock_ratio);

// One file's records of one key, pooled.
struct PooledRecord {
    StoredRecord record;  // the first record of the worst status; times_ms, median_ms and sm_mhz (median) pooled
    int count = 1;        // records pooled
};

struct CompareRow {
    PooledRecord old_side, new_side;
    StatusChange status = StatusChange::BothRan;
    RatioInterval interval;  // defined only when both ran and have times
    TimingVerdict timing = TimingVerdict::NotCompared;     // the gate's: time, or cycles with --per-clock
    double clock_ratio = 0;   // new/old SM clock; 0 unless both records carry one
    RatioInterval cycles;     // new/old cycles: defined with interval and clock_ratio
    TimingVerdict by_time = TimingVerdict::NotCompared, by_cycles = TimingVerdict::NotCompared;
    bool fails = false;      // fails the gate: a regression or a failure
    std::string verdict;     // one word or two: "slower", "same", "REGRESSION", "FAILING", ...
    std::string detail;      // why, in one line
};

struct CompareResult {
    CompareOptions options;
    std::string old_file, new_file;
    size_t old_records = 0, new_records = 0;
    std::vector<CompareRow> rows;                     // in the new file's order
    std::vector<PooledRecord> only_old, only_new;
    int slower = 0, faster = 0, same = 0, too_noisy = 0, regressions = 0, failures = 0;
    int clock_only = 0;  // slower in time, same in cycles: only the clock was lower

    // 0 nothing fails the gate, 1 a regression or failure, 3 nothing matched.
    int exit_code() const;
    // The method and its parameters, one sentence (every output states it).
    std::string method() const;
};

CompareResult compare_records(const std::vector<StoredRecord>& old_records, const std::vector<StoredRecord>& new_records,
                              const CompareOptions& options);
// Reads both files (RecordFileError naming file and line) and compares them.
CompareResult compare_files(const std::filesystem::path& old_file, const std::filesystem::path& new_file,
                            const CompareOptions& options);

// The outputs (compare_output.cpp): a table for the terminal (`colour`: what fails the gate in
// red, a slowdown that is only the clock's in yellow), a Markdown page, JUnit suites.
std::string format_compare_table(const CompareResult& r, bool colour = false);
std::string format_compare_markdown(const CompareResult& r);
std::vector<JunitSuite> compare_junit(const CompareResult& r);

}  // namespace spmma
