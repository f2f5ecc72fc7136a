#include "job_state.hpp"

#include <spmma/weights/file_operands.hpp>

#include <omp.h>

#include <chrono>

namespace spmma::detail {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

JobState::JobState(const Job& job, const reference::VerifyOptions& options, Arena& operands) : job_(job), arena_(operands), vo_(options) {
    vo_.mode = job.verify;
    vo_.seed = job.problem.seed;
    mode_ = reference::resolve_mode(vo_, job.problem.m, job.problem.n, job.problem.k);
    if (mode_ == reference::VerifyMode::Sampled) samples_ = reference::sample_indices(job.problem.m, job.problem.n, vo_);
    layout_ = OperandLayout::of(OperandSizes::of(job.problem));
}

JobState::~JobState() {
    if (operands_.valid()) operands_.wait();
    if (expected_.valid()) expected_.wait();
}

void JobState::start() {
    if (operands_.valid()) return;
    // NOTES: these threads take the OpenMP thread count of the runner that starts them (its
    // share of the host with --devices: run_on_devices); a new thread would otherwise start
    // from the process's default, every host thread.
    const int threads = omp_get_max_threads();
    operands_ = std::async(std::launch::async, [this, threads] {
                    omp_set_num_threads(threads);
                    const auto t0 = Clock::now();
                    uint8_t* base = arena_.reserve(layout_.total);
                    sources_ = weights::make_operands(job_, layout_.buffers(base));
                    generate_ms_ = ms_since(t0);
                }).share();
    if (mode_ != reference::VerifyMode::None)
        expected_ = std::async(std::launch::async, [this, threads] {
            omp_set_num_threads(threads);
            operands_.wait();
            return reference::compute_expected(input(), vo_);
        });
}

double JobState::wait_operands() {
    const auto t0 = Clock::now();
    start();
    operands_.get();  // rethrows what generation threw
    return ms_since(t0);
}

const reference::Expected& JobState::expected() {
    if (!expected_ready_) {
        expected_value_ = expected_.get();
        expected_ready_ = true;
    }
    return expected_value_;
}

reference::GemmInput JobState::input() const {
    reference::GemmInput in;
    in.problem = job_.problem.to_abi();
    in.operands = layout_.view(arena_.data());
    return in;
}

}  // namespace spmma::detail
