// `spmma report`: record files -> one self-contained HTML page. Charts are inline SVG drawn by
// svg_chart.cpp; the page loads nothing and runs no script.
//
// One run (render_html_report):
//   Summary      record counts by plugin and status, devices (each by index and UUID where the
//                records name them), spmma versions, dates, hosts, files
//   Throughput   TFLOP/s against problem size (2mnk, log axis), one chart per operand type, a
//                series per plugin (its fastest kernel per problem; per device when there are
//                several), the median launch with the slowest and fastest as error bars, lines
//                joining each shape family (two sizes fixed, the third varying; or square sizes)
//   Speedup      each plugin over the baseline plugin per problem: charts and a table
//   Failures     failed and errored records: problem, plugin, kernel, device (and its index), reason,
//                first mismatches
//   Skipped      grouped by plugin and reason
//
// Two runs, OLD against NEW (render_compare_report), from the verdicts of `spmma compare`
// (compare.hpp), in the order a reader needs them:
//   Verdicts     the counts, then every record that is not "same": regressions first (the
//                slowest change first), each with new/old and its interval; "same" ones folded
//   Ratios       one chart per operand type: new/old per problem (categories on x), the interval
//                as whiskers, the threshold band around 1
//   New failures records that ran in OLD and fail, err or are skipped in NEW, or fail only there
//   One file only records of OLD or of NEW without a match in the other
//   Clocks       each run's devices, dates, SM and memory clocks, power, temperature and throttle
//                reasons side by side (from the records' "clocks"; GPU runs with NVML only)
#pragma once

#include <spmma/core/compare.hpp>
#include <spmma/core/stored_record.hpp>

#include <string>
#include <utility>
#include <vector>

namespace spmma {

struct ReportOptions {
    std::string title = "spmma report";
    std::string baseline;   // plugin the speedups are over; empty: the one the records name, if they agree
    std::string generated;  // when the page was made (UTC, ISO 8601)
    std::vector<std::pair<std::string, size_t>> files;  // input files and their record counts
};

struct HtmlReport {
    std::string html;
    int charts = 0;
    std::string baseline;  // the baseline used; empty when there is no speedup section
};

HtmlReport render_html_report(const std::vector<StoredRecord>& records, const ReportOptions& options);

// `compared` is compare_records(old_records, new_records, ...) with its file names set; the
// records themselves give each run's clocks. options.baseline is not used.
HtmlReport render_compare_report(const CompareResult& compared, const std::vector<StoredRecord>& old_records,
                                 const std::vector<StoredRecord>& new_records, const ReportOptions& options);

}  // namespace spmma
