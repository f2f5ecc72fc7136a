// A job's operands from the files it names: what the problem is told of each tensor before the
// run (probe_tensor, the TensorProbe that `spmma gemm --a` and a workload's `a =` go through),
// and the operands made from them when the run comes (make_operands).
#pragma once

#include <spmma/core/job.hpp>
#include <spmma/core/operand_files.hpp>
#include <spmma/core/operands.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace spmma::weights {

// The shape, stored type, natural operand type and readable types of the tensor `ref` names
// (parse_tensor_ref's forms); its path made absolute. Throws WeightsError naming the file and
// the reason: no such file or tensor, a bad file, a tensor that is not 2-D.
TensorFacts probe_tensor(const std::string& ref);

// Every operand of the job's problem into `out`: drawn from the seed (generate_operands), then
// A, B and C from the files the job names (A pruned, validated or decoded: operand.hpp). Returns
// {"a": source, "b": ..., "c": ...} for the operands read (WeightSource::to_json), null when
// none was. Throws WeightsError when a file no longer gives what the problem was made from.
nlohmann::json make_operands(const Job& job, const OperandBuffers& out);

}  // namespace spmma::weights
