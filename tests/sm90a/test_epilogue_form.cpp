// Which epilogue form an sm90a launch takes (epilogue_form.hpp): the serving op's and a row
// bias's the short one, a column bias or an activation the general one.
#include <catch2/catch.hpp>

#include <spmma_sm90a/epilogue_form.hpp>

#include <string>

using namespace spmma_sm90a;

TEST_CASE("epilogue form: scales with a row bias or none are linear and a column bias or an activation general", "[epilogue_form]") {
    spmma_problem p{};
    p.beta = 0.5;  // C does not change the form
    CHECK(epilogue_form(p) == EpilogueForm::Plain);
    p.row_scale = p.col_scale = 1;
    CHECK(epilogue_form(p) == EpilogueForm::Linear);
    p.bias = SPMMA_BIAS_ROW;  // the serving op: an output channel's bias
    CHECK(epilogue_form(p) == EpilogueForm::Linear);
    p.bias = SPMMA_BIAS_COL;
    CHECK(epilogue_form(p) == EpilogueForm::General);
    p.bias = SPMMA_BIAS_ROW;
    p.activation = SPMMA_ACTIVATION_RELU;
    CHECK(epilogue_form(p) == EpilogueForm::General);
    spmma_problem bias_only{};
    bias_only.bias = SPMMA_BIAS_COL;
    CHECK(epilogue_form(bias_only) == EpilogueForm::General);
    // The kernels' overload, on FusedEpilogue's fields.
    CHECK(epilogue_form(false, SPMMA_ACTIVATION_NONE, false) == EpilogueForm::Plain);
    CHECK(epilogue_form(true, SPMMA_ACTIVATION_NONE, false) == EpilogueForm::Linear);
    CHECK(epilogue_form(true, SPMMA_ACTIVATION_NONE, true) == EpilogueForm::General);
    CHECK(epilogue_form(true, SPMMA_ACTIVATION_SILU, false) == EpilogueForm::General);
    CHECK(std::string(epilogue_form_name(EpilogueForm::Plain)) == "plain");
    CHECK(std::string(epilogue_form_name(EpilogueForm::Linear)) == "linear");
    CHECK(std::string(epilogue_form_name(EpilogueForm::General)) == "general");
}
