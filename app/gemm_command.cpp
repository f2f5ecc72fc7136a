// spmma gemm: one-off problems from the command line (size lists and ranges, type lists).
#include "command.hpp"
#include "run_options.hpp"

#include <spmma/core/gemm_spec.hpp>

#include <fmt/format.h>

#include <stdexcept>

namespace spmma::app {
namespace {

class GemmCommand final : public Command {
public:
    explicit GemmCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("gemm", "Run one-off problems given on the command line");
        auto& g = spec_;
        cmd_->add_option("--m", g.m, "Rows of A and D: 4096, 1000,2000, 1024:8192:1024 or 256:8192:*2")->required();
        cmd_->add_option("--n", g.n, "Columns of B and D (list or range)")->required();
        cmd_->add_option("--k", g.k, "Inner dimension (list or range)")->required();
        cmd_->add_option("--dtype", g.dtypes, "A and B type, a list runs each: f16,bf16,tf32,e4m3,e5m2,e3m2,e2m3,e2m1,s8,u8,s4,u4")
            ->delimiter(',');
        cmd_->add_option("--a-type", g.a_type, "A type (overrides --dtype for A)");
        cmd_->add_option("--b-type", g.b_type, "B type (overrides --dtype for B)");
        cmd_->add_option("--acc", g.acc, "Accumulator: f32, f16 or s32 (default from the type)");
        cmd_->add_option("--out", g.out, "D (and C) type: f32, f16, bf16 or s32 (default from the type)");
        cmd_->add_option("--pattern", g.pattern, "Sparsity of A: 2:4, 1:2, 4:8 (default from the type)");
        cmd_->add_flag("--satfinite", g.satfinite, "Saturate the s32 accumulation (.satfinite)");
        cmd_->add_option("--alpha", g.alpha, "D = alpha*A*B + beta*C")->capture_default_str();
        cmd_->add_option("--beta", g.beta, "D = alpha*A*B + beta*C (0: C is not read)")->capture_default_str();
        cmd_->add_option("--dist", g.dist, "Operand values: int (small integers, exact), uniform, normal")->capture_default_str();
        cmd_->add_option("--seed", g.seed, "Seed of the operand generator")->capture_default_str();
        cmd_->add_option("--scale-type", g.scale_type, "Block scales: ue8m0 or ue4m3 (none when absent)");
        cmd_->add_option("--scale-block", g.scale_block, "k elements per block scale: 16, 32 or 64 (default 64 for ue8m0, 32 for ue4m3)");
        cmd_->add_option("--scale-gen", g.scale_gen, "Block scales: random (in --scale-min..--scale-max) or amax (from real-valued operands)")
            ->capture_default_str();
        cmd_->add_option("--scale-min", g.scale_min, "Smallest random block scale")->capture_default_str();
        cmd_->add_option("--scale-max", g.scale_max, "Largest random block scale")->capture_default_str();
        cmd_->add_option("--row-scale", g.epilogue.row_scale,
                         "Epilogue: an f32 scale per row of D, 'random' (drawn from the seed, in [1/4, 4]) or one value for every row");
        cmd_->add_option("--col-scale", g.epilogue.col_scale, "Epilogue: an f32 scale per column of D, 'random' or one value");
        cmd_->add_option("--bias", g.epilogue.bias,
                         "Epilogue: a bias per row or column, AXIS[,TYPE][,VALUE]: row or col, f32 or D's type (the default), one value "
                         "(drawn from the seed when absent)");
        cmd_->add_option("--activation", g.epilogue.activation, "Epilogue: none, relu, gelu-tanh or silu, applied last");
        cmd_->add_option("--op", g.op,
                         "A named op presetting types and epilogue (the options above refine it): scaled-mm = e4m3 x e4m3 -> bf16 with "
                         "random row and column scales and a bf16 bias per row");
        options_.add_to(cmd_);
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        GemmSpec spec = spec_;
        if (options_.warmup >= 0) spec.warmup = options_.warmup;
        if (options_.iterations >= 0) spec.iterations = options_.iterations;
        if (!options_.verify.empty()) spec.verify = options_.verify;
        std::vector<Job> jobs;
        try {
            jobs = jobs_from_spec(spec);
        } catch (const std::invalid_argument& e) {
            fmt::print(stderr, "spmma gemm: {}\n", e.what());
            return kExitUsage;
        }
        return options_.run(jobs);
    }

private:
    CLI::App* cmd_;
    GemmSpec spec_;
    RunOptions options_;
};

}  // namespace

std::unique_ptr<Command> make_gemm_command(CLI::App& app) { return std::make_unique<GemmCommand>(app); }

}  // namespace spmma::app
