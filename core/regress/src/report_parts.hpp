// What the two pages of `spmma report` share (report_html.cpp for one run, report_compare_html.cpp
// for two): how a record is named and grouped, the series styles, the page's frame.
#pragma once

#include <spmma/core/stored_record.hpp>
#include <spmma/core/svg_chart.hpp>

#include <string>
#include <vector>

namespace spmma::report_parts {

std::string escape(const std::string& s);

// The chart a record belongs to: its operand types (and block scales).
std::string type_group(const StoredRecord& r);
// Where a record ran, for a table cell or a tooltip: "NVIDIA H100 80GB HBM3 (device 1)".
std::string device_at(const StoredRecord& r);
// One device in a summary: "NVIDIA H100 80GB HBM3 (sm_90), device 1, GPU-8c1f...", each part the
// record has. Two GPUs of one name on a host differ by index and UUID.
std::string device_identity(const StoredRecord& r);
bool several_devices(const std::vector<StoredRecord>& rs);
// "value (count)" for each distinct value of `field`, most frequent first (escaped).
std::string tally(const std::vector<StoredRecord>& rs, std::string (*field)(const StoredRecord&));
// "first to last" of the records' timestamps, or "(none recorded)".
std::string date_range(const std::vector<StoredRecord>& rs);

// Series names in first-seen order over the whole page: a series keeps its colour and marker
// in every chart.
class Styles {
public:
    int operator()(const std::string& name);

private:
    std::vector<std::string> names_;
};

// Adds point `p` to the series named `name`, made when first seen.
void add_point(Chart& c, Styles& styles, const std::string& name, ChartPoint p);

// The whole page around `body`: head, style, and the chart count a checker compares with.
std::string page(const std::string& title, int charts, const std::string& body);

}  // namespace spmma::report_parts
