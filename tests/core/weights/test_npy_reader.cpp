// The .npy header (core's npy_format, shared with the operand export) and the weight reader
// over it, on bytes made here: every version and shape form numpy writes, and each refusal.
#include "weights_test.hpp"

#include <spmma/core/npy_format.hpp>
#include <spmma/weights/npy_file.hpp>

using namespace spmma;
using namespace spmma::weights;
using spmma::test::require_refused;

namespace {

// A .npy header of `version` (1, 2 or 3) around `dict`.
std::string npy_bytes(int version, const std::string& dict, const std::string& data = "") {
    std::string out = "\x93NUMPY";
    out += static_cast<char>(version);
    out += '\0';
    const size_t n = dict.size();
    for (int i = 0; i < (version == 1 ? 2 : 4); ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
    return out + dict + data;
}

void header_refused(const std::string& bytes, const std::string& reason) {
    try {
        parse_npy_header(bytes);
        FAIL("accepted; expected \"" << reason << "\"");
    } catch (const std::invalid_argument& e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find(reason) != std::string::npos);
    }
}

// A literal's bytes, NULs included.
template <size_t N>
std::string bytes_of(const char (&s)[N]) {
    return std::string(s, N - 1);
}

std::span<const std::byte> span_of(const std::string& s) { return {reinterpret_cast<const std::byte*>(s.data()), s.size()}; }

}  // namespace

TEST_CASE("parse_npy_header reads versions 1.0, 2.0 and 3.0 and every shape form numpy writes") {
    const std::string d1 = "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }  \n";
    const auto h1 = parse_npy_header(npy_bytes(1, d1));
    REQUIRE(h1.major_version == 1);
    REQUIRE(h1.descr == "<f2");
    REQUIRE_FALSE(h1.fortran_order);
    REQUIRE(h1.shape == std::vector<int64_t>{2, 3});
    REQUIRE(h1.data_offset == 10 + d1.size());
    const std::string d2 = "{'descr': '|i1', 'fortran_order': True, 'shape': (5,), }\n";
    const auto h2 = parse_npy_header(npy_bytes(2, d2));
    REQUIRE(h2.major_version == 2);
    REQUIRE(h2.fortran_order);
    REQUIRE(h2.shape == std::vector<int64_t>{5});
    REQUIRE(h2.data_offset == 12 + d2.size());
    REQUIRE(parse_npy_header(npy_bytes(3, "{\"descr\": \"<V2\", \"shape\": (), \"fortran_order\": False}")).shape.empty());
    REQUIRE(parse_npy_header(npy_bytes(1, "{'descr':'<f4','fortran_order':False,'shape':(3L, 4L)}")).shape == std::vector<int64_t>{3, 4});
    REQUIRE(parse_npy_header(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 7,), }")).shape == std::vector<int64_t>{0, 7});
}

TEST_CASE("format_npy_header writes what parse_npy_header reads, padded to 64 bytes") {
    for (const auto& shape : {std::vector<int64_t>{}, {7}, {3, 4}, {2, 3, 4}}) {
        const std::string bytes = format_npy_header("<f4", shape);
        REQUIRE(bytes.size() % 64 == 0);
        REQUIRE(bytes.back() == '\n');
        const auto h = parse_npy_header(bytes);
        REQUIRE(h.descr == "<f4");
        REQUIRE(h.shape == shape);
        REQUIRE(h.data_offset == bytes.size());
    }
}

TEST_CASE("a .npy header that is not the format is refused with the reason") {
    header_refused(bytes_of("\x93NUMPX\x01\x00\x00\x00"), "not a .npy file");
    header_refused(bytes_of("\x93NUMPY\x01"), "not a .npy file");
    header_refused(bytes_of("\x93NUMPY\x04\x00\x10\x00"), "format version 4.0 is not 1.0, 2.0 or 3.0");
    header_refused(bytes_of("\x93NUMPY\x01\x01\x10\x00"), "format version 1.1 is not 1.0, 2.0 or 3.0");
    header_refused(bytes_of("\x93NUMPY\x02\x00\x10\x00"), "ends inside the header length");
    header_refused(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }").substr(0, 30), "the file ends inside the header");
    const std::string big = bytes_of("\x93NUMPY\x02\x00\x11\x27\x00\x00");  // a header length of 10001
    header_refused(big, "the header is 10001 bytes, more than the 10000 read");
}

TEST_CASE("a header dict other than descr, fortran_order and shape is refused") {
    const auto bad = [](const std::string& dict, const std::string& reason) { header_refused(npy_bytes(1, dict), reason); };
    bad("{'descr': '<f4', 'fortran_order': False}", "lacks one of descr, fortran_order and shape");
    bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", "the key 'x'");
    bad("{'descr': '<f4', 'descr': '<f2', 'fortran_order': False, 'shape': (2,)}", "the key 'descr' twice");
    bad("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", "structured dtypes are not read");
    bad("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,)}", "neither True nor False");
    bad("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", "other than non-negative integers");
    bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 'x')}", "other than non-negative integers");
    bad("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", "overflows int64");
    bad("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", "element count overflows int64");
    bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk", "something other than padding");
    bad("{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2,)}", "escaped string");
    bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", "to close it");
    bad("{'descr': '\xc3\xa9', 'fortran_order': False, 'shape': (2,)}", "not ASCII text");
    bad("", "lacks '{' at its start");
}

TEST_CASE("parse_npy reads C-order arrays of the descrs it knows, exactly as long as their shape") {
    const std::string data(2 * 3 * 2, '\x11');
    const auto l = parse_npy(span_of(npy_bytes(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }", data)), "x.npy");
    REQUIRE(l.type == StoredType::F16);
    REQUIRE(l.shape == std::vector<int64_t>{2, 3});
    REQUIRE(l.descr == "<f2");
    const std::vector<std::pair<std::string, StoredType>> known = {{"<f4", StoredType::F32}, {"|i1", StoredType::I8}, {"<i1", StoredType::I8},
                                                                   {"|u1", StoredType::U8},  {"<u2", StoredType::U16}, {"<V2", StoredType::Raw16},
                                                                   {"|V2", StoredType::Raw16}, {"<V1", StoredType::Raw8}, {"|b1", StoredType::Bool}};
    for (const auto& [descr, type] : known) {
        const std::string bytes(static_cast<size_t>(element_bytes(type)) * 4, '\0');
        REQUIRE(parse_npy(span_of(npy_bytes(1, "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (4,), }", bytes)), "x.npy").type == type);
    }
}

TEST_CASE("parse_npy refuses fortran order, unknown or big-endian descrs, and data of the wrong length") {
    const std::filesystem::path f = "w.npy";
    const auto npy = [](const std::string& descr, const std::string& order, size_t bytes) {
        return npy_bytes(1, "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': (2, 2), }", std::string(bytes, '\0'));
    };
    require_refused([&] { parse_npy(span_of(npy("<f4", "True", 16)), f); }, f, "fortran_order is True: only C-order arrays are read");
    require_refused([&] { parse_npy(span_of(npy(">f4", "False", 16)), f); }, f, "the dtype \">f4\" is not read");
    require_refused([&] { parse_npy(span_of(npy("<c8", "False", 32)), f); }, f, "the dtype \"<c8\" is not read");
    require_refused([&] { parse_npy(span_of(npy("<f4", "False", 15)), f); }, f, "the data is 15 bytes, <f4 of shape (2, 2) is 16: truncated");
    require_refused([&] { parse_npy(span_of(npy("<f4", "False", 17)), f); }, f, "the data is 17 bytes, <f4 of shape (2, 2) is 16: trailing bytes");
    require_refused([&] { parse_npy(span_of(std::string("not npy at all")), f); }, f, "not a .npy file");
}
