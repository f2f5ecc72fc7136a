// Internal (runner.cpp): one job's operands and reference. start() generates the operands into
// the job's arena and then computes the reference on threads of their own, so the next job's
// operands are made while this one's plugins run, and the reference beside them.
#pragma once

#include <spmma/core/job.hpp>
#include <spmma/core/operand_set.hpp>
#include <spmma/reference/verify.hpp>

#include <nlohmann/json.hpp>

#include <future>
#include <vector>

namespace spmma::detail {

class JobState {
public:
    JobState(const Job& job, const reference::VerifyOptions& options, Arena& operands);
    ~JobState();  // waits for the background work: it uses the arena the job after next overwrites
    JobState(const JobState&) = delete;
    JobState& operator=(const JobState&) = delete;

    void start();
    // Waits for the operands (starting them when start() was not called); the milliseconds waited.
    double wait_operands();
    const reference::Expected& expected();
    reference::GemmInput input() const;

    Arena& arena() const { return arena_; }
    const OperandLayout& layout() const { return layout_; }
    reference::VerifyMode mode() const { return mode_; }
    const std::vector<int64_t>& samples() const { return samples_; }  // sampled: the checked elements
    double generate_ms() const { return generate_ms_; }               // how long generation took
    // The operands read from files and where each came from (null when all were drawn); valid
    // once wait_operands() has returned.
    const nlohmann::json& operand_sources() const { return sources_; }

private:
    const Job& job_;
    Arena& arena_;
    reference::VerifyOptions vo_;
    reference::VerifyMode mode_;
    std::vector<int64_t> samples_;
    OperandLayout layout_;
    double generate_ms_ = 0;
    nlohmann::json sources_;
    std::shared_future<void> operands_;
    std::future<reference::Expected> expected_;
    reference::Expected expected_value_;
    bool expected_ready_ = false;
};

}  // namespace spmma::detail
