// Fuzz target: a line of a record file as compare, report, JUnit (parse_record_line) and
// --resume (record_from_json) read it. Any input is a record or a RecordFileError naming where
// and what; nothing else may happen.
#include <spmma/core/record_json.hpp>
#include <spmma/core/stored_record.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string line(reinterpret_cast<const char*>(data), size);
    try {
        spmma::parse_record_line(line, "fuzz.jsonl:1");
    } catch (const spmma::RecordFileError&) {
    }
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object()) try {
            const spmma::Record r = spmma::record_from_json(j, "fuzz.jsonl:1");
            (void)r.to_json().dump();
        } catch (const spmma::RecordFileError&) {
        }
    return 0;
}
