// `spmma report`: record files -> one self-contained HTML page. Charts are inline SVG drawn by
// svg_chart.cpp; the page loads nothing and runs no script.
//   Summary      record counts by plugin and status, devices (each by index and UUID where the
//                records name them), spmma versions, dates, hosts, files
//   Throughput   TFLOP/s against problem size (2mnk, log axis), one chart per operand type, a
//                series per plugin (its fastest kernel per problem; per device when there are several)
//   Speedup      each plugin over the baseline plugin per problem: charts and a table
//   Failures     failed and errored records: problem, plugin, kernel, device (and its index), reason,
//                first mismatches
//   Skipped      grouped by plugin and reason
#pragma once

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

}  // namespace spmma
