// The ABI problem on the worker wire: the keys' own field names (satfinite, as records say it),
// and every field back as it went.
#include <spmma/core/execution.hpp>

#include <catch2/catch.hpp>

using namespace spmma;

TEST_CASE("the wire spells the problem's fields as the records do and reads back every one", "[wire][keys]") {
    Problem p;
    p.m = 77;
    p.n = 65;
    p.k = 256;
    p.a = DType::S8;
    p.b = DType::U8;
    p.acc = p.c = p.d = DType::S32;
    p.saturate = true;
    p.alpha = 2;
    p.beta = -1;
    const spmma_problem abi = p.to_abi();
    const nlohmann::json j = problem_to_json(abi);
    CHECK(j.contains("satfinite"));
    CHECK_FALSE(j.contains("saturate"));
    for (const char* field : {"m", "n", "k", "a_type", "b_type", "c_type", "d_type", "acc_type", "pattern", "scale_type", "scale_block", "alpha", "beta"})
        CHECK(j.contains(field));
    const spmma_problem back = problem_from_json(j);
    CHECK(back.struct_size == abi.struct_size);
    CHECK(back.m == abi.m);
    CHECK(back.n == abi.n);
    CHECK(back.k == abi.k);
    CHECK(back.a_type == abi.a_type);
    CHECK(back.b_type == abi.b_type);
    CHECK(back.c_type == abi.c_type);
    CHECK(back.d_type == abi.d_type);
    CHECK(back.acc_type == abi.acc_type);
    CHECK(back.pattern == abi.pattern);
    CHECK(back.saturate == 1);
    CHECK(back.scale_type == abi.scale_type);
    CHECK(back.scale_block == abi.scale_block);
    CHECK(back.alpha == 2);
    CHECK(back.beta == -1);
}
