// The .npy export: the writer's bytes follow the format, read_npy reads them back, and
// save_operands writes A (dense, zeros in place), B (k x n), C, scales, D, D_ref and the sidecar,
// exactly decoded. With NumPy available, check_npy.py recomputes D from the saved files.
#include "make_problem.hpp"

#include <spmma/core/npy.hpp>
#include <spmma/reference/gemm.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace spmma;
using spmma::test::ProblemSpec;
using spmma::test::TestProblem;

namespace {

std::filesystem::path scratch(const std::string& name) {
    auto dir = std::filesystem::path(SPMMA_BINARY_DIR) / "test-scratch" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::string slurp(const std::filesystem::path& f) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// "python3 check_npy.py DIR > DIR/log.txt 2>&1" (a stream: GCC 12 warns falsely on chained +).
std::string check_command(const std::filesystem::path& dir) {
    std::ostringstream cmd;
    cmd << "python3 " << SPMMA_CHECK_NPY << " " << dir.string() << " > " << (dir / "log.txt").string() << " 2>&1";
    return cmd.str();
}

template <class T>
std::vector<T> as(const NpyArray& a) {
    std::vector<T> out(a.bytes.size() / sizeof(T));
    std::memcpy(out.data(), a.bytes.data(), a.bytes.size());
    return out;
}

}  // namespace

TEST_CASE("write_npy writes format 1.0: magic, header dict with descr/order/shape padded to 64 bytes, C-order data") {
    const auto dir = scratch("npy_format");
    const std::vector<float> f = {1.5f, -2.0f, 0.25f, 8.0f, 3.0f, -1.0f};
    write_npy(dir / "f.npy", f, {2, 3});
    const std::string bytes = slurp(dir / "f.npy");
    REQUIRE(bytes.substr(0, 6) == "\x93NUMPY");
    REQUIRE(bytes[6] == 1);
    REQUIRE(bytes[7] == 0);
    const size_t header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    REQUIRE((10 + header_len) % 64 == 0);
    const std::string header = bytes.substr(10, header_len);
    REQUIRE(header.find("'descr': '<f4'") != std::string::npos);
    REQUIRE(header.find("'fortran_order': False") != std::string::npos);
    REQUIRE(header.find("'shape': (2, 3)") != std::string::npos);
    REQUIRE(header.back() == '\n');
    REQUIRE(bytes.size() == 10 + header_len + 6 * 4);
    float back[6];
    std::memcpy(back, bytes.data() + 10 + header_len, 24);
    for (int x = 0; x < 6; ++x) REQUIRE(back[x] == f[static_cast<size_t>(x)]);

    write_npy(dir / "i.npy", std::vector<int32_t>{-7, 3, 2147483647}, {3});
    auto a = read_npy(dir / "i.npy");
    REQUIRE(a.type == NpyType::I32);
    REQUIRE(a.shape == std::vector<int64_t>{3});
    REQUIRE(as<int32_t>(a) == std::vector<int32_t>{-7, 3, 2147483647});
    REQUIRE(slurp(dir / "i.npy").find("'shape': (3,)") != std::string::npos);
    write_npy(dir / "d.npy", std::vector<double>{0.1, 0.2}, {1, 2});
    REQUIRE(as<double>(read_npy(dir / "d.npy")) == std::vector<double>{0.1, 0.2});
    write_npy(dir / "l.npy", std::vector<int64_t>{-1, 1LL << 40}, {2, 1});
    REQUIRE(read_npy(dir / "l.npy").shape == std::vector<int64_t>{2, 1});
    REQUIRE_THROWS(write_npy(dir / "bad.npy", std::vector<float>{1, 2, 3}, {2, 2}));
}

TEST_CASE("save_operands writes A dense with zeros in place, B as k x n, C, scales, D and D_ref, exactly decoded, and a sidecar") {
    ProblemSpec s;
    s.m = 13;
    s.n = 7;
    s.k = 64;
    s.a = s.b = DType::E2M1;
    s.d = DType::BF16;
    s.pattern = SPMMA_PATTERN_4_8_PAIRWISE;
    s.scale = DType::UE8M0;
    s.scale_block = 32;
    s.alpha = 2;
    s.beta = 0.5;
    const TestProblem t(s);
    const auto dref = reference::reference_d(t.input());
    const auto dir = scratch("save_operands");
    const auto sidecar = save_operands(dir, "case", t.problem(), t.operands(), dref.data(), dref.data());
    REQUIRE(std::filesystem::exists(sidecar));
    const auto json = slurp(sidecar);
    REQUIRE(json.find("\"a_type\": \"e2m1\"") != std::string::npos);
    REQUIRE(json.find("\"alpha\": 2.0") != std::string::npos);
    REQUIRE(json.find("\"scale_A\": \"case.scale_A.npy\"") != std::string::npos);

    const auto a = read_npy(dir / "case.A.npy");
    REQUIRE(a.type == NpyType::F32);
    REQUIRE(a.shape == std::vector<int64_t>{13, 64});
    const auto dense = t.dense_a();
    const auto av = as<float>(a);
    for (size_t x = 0; x < dense.size(); ++x) REQUIRE(static_cast<double>(av[x]) == dense[x]);
    const auto b = read_npy(dir / "case.B.npy");
    REQUIRE(b.shape == std::vector<int64_t>{64, 7});
    const auto bv = as<float>(b);
    for (int64_t kk = 0; kk < 64; ++kk)
        for (int64_t j = 0; j < 7; ++j)
            REQUIRE(static_cast<double>(bv[static_cast<size_t>(kk * 7 + j)]) == decode(DType::E2M1, load_code(DType::E2M1, t.b.data(), j * 64 + kk)));
    REQUIRE(read_npy(dir / "case.C.npy").shape == std::vector<int64_t>{13, 7});
    REQUIRE(read_npy(dir / "case.scale_A.npy").shape == std::vector<int64_t>{13, 2});
    REQUIRE(read_npy(dir / "case.scale_B.npy").shape == std::vector<int64_t>{7, 2});
    const auto d = as<float>(read_npy(dir / "case.D_ref.npy"));
    for (int64_t x = 0; x < 13 * 7; ++x) REQUIRE(static_cast<double>(d[static_cast<size_t>(x)]) == decode(DType::BF16, load_code(DType::BF16, dref.data(), x)));

    // Integers as int32; no C when beta is 0.
    ProblemSpec q;
    q.a = DType::S8;
    q.b = DType::U8;
    q.acc = q.d = DType::S32;
    q.beta = 0;
    const TestProblem u(q);
    const auto uref = reference::reference_d(u.input());
    save_operands(dir, "int", u.problem(), u.operands(), uref.data(), uref.data());
    REQUIRE(read_npy(dir / "int.A.npy").type == NpyType::I32);
    REQUIRE(read_npy(dir / "int.D.npy").type == NpyType::I32);
    REQUIRE_FALSE(std::filesystem::exists(dir / "int.C.npy"));
}

TEST_CASE("check_npy.py recomputes D from the saved A, B, C with NumPy within the tolerance, and rejects a wrong D") {
    // NumPy from the system, or from .tools/py (pip install --target .tools/py numpy).
    const auto tools = std::filesystem::path(SPMMA_SOURCE_DIR) / ".tools" / "py";
    if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0 && std::filesystem::exists(tools))
        setenv("PYTHONPATH", tools.c_str(), 1);
    if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
        WARN("NumPy is not installed here (nor in .tools/py): check_npy.py not run");
        return;
    }
    const auto dir = scratch("check_npy");
    std::vector<ProblemSpec> specs;
    for (auto s : test::all_combinations()) specs.push_back(s);
    int x = 0;
    for (auto& s : specs) {
        const TestProblem t(s);
        const auto dref = reference::reference_d(t.input());
        std::string stem = std::to_string(x++);
        stem.insert(stem.begin(), 'p');
        save_operands(dir, stem, t.problem(), t.operands(), dref.data(), dref.data());
    }
    const int rc = std::system(check_command(dir).c_str());
    INFO(slurp(dir / "log.txt"));
    REQUIRE(rc == 0);

    // One wrong element in D: the script fails.
    const auto bad = scratch("check_npy_bad");
    ProblemSpec s;
    s.d = DType::F32;
    const TestProblem t(s);
    auto dref = reference::reference_d(t.input());
    auto d = dref;
    store_code(DType::F32, d.data(), 40, encode(DType::F32, decode(DType::F32, load_code(DType::F32, d.data(), 40)) + 0.25));
    save_operands(bad, "wrong", t.problem(), t.operands(), d.data(), dref.data());
    REQUIRE(std::system(check_command(bad).c_str()) != 0);
    REQUIRE(slurp(bad / "log.txt").find("(1, 11)") != std::string::npos);  // element 40 of 37 x 29
}

TEST_CASE("save_operands writes the epilogue's vectors and fields, and check_npy.py applies the epilogue", "[epilogue]") {
    ProblemSpec s;
    s.d = DType::F16;
    s.beta = 0.5;
    const TestProblem t(s);
    std::vector<float> rs(static_cast<size_t>(s.m)), cs(static_cast<size_t>(s.n)), bias(static_cast<size_t>(s.m));
    for (size_t i = 0; i < rs.size(); ++i) rs[i] = 0.25f + 0.125f * static_cast<float>(i % 7), bias[i] = 0.5f - 0.0625f * static_cast<float>(i % 5);
    for (size_t j = 0; j < cs.size(); ++j) cs[j] = 2.0f - 0.25f * static_cast<float>(j % 6);
    spmma_problem p = t.problem();
    p.row_scale = p.col_scale = 1;
    p.bias = SPMMA_BIAS_ROW;
    p.bias_type = SPMMA_F32;
    p.activation = SPMMA_ACTIVATION_SILU;
    spmma_operands o = t.operands();
    o.row_scale = rs.data();
    o.row_scale_bytes = rs.size() * 4;
    o.col_scale = cs.data();
    o.col_scale_bytes = cs.size() * 4;
    o.bias = bias.data();
    o.bias_bytes = bias.size() * 4;
    const auto dref = reference::reference_d({p, o});
    const auto dir = scratch("npy_epilogue");
    const auto sidecar = save_operands(dir, "epi", p, o, dref.data(), dref.data());
    const auto json = slurp(sidecar);
    CHECK(json.find("\"activation\": \"silu\"") != std::string::npos);
    CHECK(json.find("\"bias\": \"row\"") != std::string::npos);
    CHECK(read_npy(dir / "epi.row_scale.npy").shape == std::vector<int64_t>{s.m});
    CHECK(read_npy(dir / "epi.col_scale.npy").shape == std::vector<int64_t>{s.n});
    CHECK(read_npy(dir / "epi.bias.npy").shape == std::vector<int64_t>{s.m});

    const auto tools = std::filesystem::path(SPMMA_SOURCE_DIR) / ".tools" / "py";
    if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0 && std::filesystem::exists(tools))
        setenv("PYTHONPATH", tools.c_str(), 1);
    if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
        WARN("NumPy is not installed here (nor in .tools/py): check_npy.py not run");
        return;
    }
    const int rc = std::system(check_command(dir).c_str());
    INFO(slurp(dir / "log.txt"));
    CHECK(rc == 0);
    // D without the bias: the script fails.
    spmma_problem plain = p;
    plain.bias = SPMMA_BIAS_NONE;
    const auto wrong = reference::reference_d({plain, o});
    const auto bad = scratch("npy_epilogue_bad");
    save_operands(bad, "epi", p, o, wrong.data(), dref.data());
    CHECK(std::system(check_command(bad).c_str()) != 0);
}
