// A record read back whole from its JSON line (what Record::to_json wrote), so that a record
// --resume keeps reaches the sinks as it would have in one uninterrupted run: every field but the
// job, which is the job its resume key matched (the runner sets it).
#pragma once

#include <spmma/core/record.hpp>

#include <string>

namespace spmma {

// Throws RecordFileError (stored_record.hpp) "where: what is wrong" for a field of the wrong
// type or a value out of range.
Record record_from_json(const nlohmann::json& o, const std::string& where);

}  // namespace spmma
