// The safetensors parser on bytes made here: what a well-formed file holds, and each way a
// truncated, oversized or lying file is refused with the file and the reason.
#include "weights_test.hpp"

#include <spmma/weights/checkpoint.hpp>
#include <spmma/weights/safetensors.hpp>

#include <cstring>

using namespace spmma;
using namespace spmma::weights;
using spmma::test::require_refused;
using spmma::test::safetensors_bytes;

namespace {

std::span<const std::byte> span_of(const std::string& s) { return {reinterpret_cast<const std::byte*>(s.data()), s.size()}; }

const std::filesystem::path kFile = "made.safetensors";

// A header with tensors "a" (F16 [2, 2] at [8, 16]) and "b" (I8 [4] at [0, 4]) in 16 data bytes.
const std::string kHeader =
    R"({"__metadata__":{"format":"pt"},"a":{"dtype":"F16","shape":[2,2],"data_offsets":[8,16]},"b":{"dtype":"I8","shape":[4],"data_offsets":[0,4]}})";

void refused(const std::string& bytes, const std::string& reason) {
    require_refused([&] { parse_safetensors(span_of(bytes), kFile); }, kFile, reason);
}

// A one-tensor header whose tensor entry is `entry`, over `data_bytes` bytes of data.
void refused_entry(const std::string& entry, size_t data_bytes, const std::string& reason) {
    refused(safetensors_bytes("{\"w\":" + entry + "}", std::string(data_bytes, '\0')), reason);
}

}  // namespace

TEST_CASE("parse_safetensors reads each tensor's dtype, shape and offsets and the metadata, whatever the order of the offsets") {
    const std::string bytes = safetensors_bytes(kHeader + "   ", std::string(16, '\x01'));
    const SafetensorsLayout l = parse_safetensors(span_of(bytes), kFile);
    REQUIRE(l.header_bytes == kHeader.size() + 3);
    REQUIRE(l.data_offset == 8 + kHeader.size() + 3);
    REQUIRE(l.metadata == std::map<std::string, std::string>{{"format", "pt"}});
    REQUIRE(l.tensors.size() == 2);
    REQUIRE(l.tensors[0].name == "a");
    REQUIRE(l.tensors[0].type == StoredType::F16);
    REQUIRE(l.tensors[0].shape == std::vector<int64_t>{2, 2});
    REQUIRE(l.tensors[0].begin == 8);
    REQUIRE(l.tensors[0].end == 16);
    REQUIRE(l.tensors[1].name == "b");
    REQUIRE(l.tensors[1].type == StoredType::I8);
    REQUIRE(l.tensors[1].end == 4);
}

TEST_CASE("parse_safetensors accepts gaps, empty tensors anywhere, a scalar and an empty header object") {
    const std::string header =
        R"({"s":{"dtype":"F32","shape":[],"data_offsets":[12,16]},"e":{"dtype":"BF16","shape":[0,8],"data_offsets":[2,2]},"z":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})";
    const auto l = parse_safetensors(span_of(safetensors_bytes(header, std::string(20, '\0'))), kFile);
    REQUIRE(l.tensors.size() == 3);
    REQUIRE(l.tensors[1].name == "s");
    REQUIRE(l.tensors[1].shape.empty());
    REQUIRE(parse_safetensors(span_of(safetensors_bytes("{}", "")), kFile).tensors.empty());
}

TEST_CASE("a file too short for the header length is refused") {
    refused(std::string(5, '\0'), "too short for a safetensors header length");
    refused("", "0 bytes");
}

TEST_CASE("a header length past the end of the file is refused as truncated") {
    const std::string whole = safetensors_bytes(kHeader, std::string(16, '\0'));
    refused(whole.substr(0, 8 + kHeader.size() / 2), "runs past the end of the file");
    refused(safetensors_bytes("{}", "", 1000), "the header length 1000 runs past the end of the file");
}

TEST_CASE("a header length above the format's 100 MB is refused before anything is read") {
    refused(safetensors_bytes("{}", "", 100'000'001), "more than the format's limit of 100000000 bytes");
    refused(safetensors_bytes("{}", "", ~uint64_t{1}), "more than the format's limit");  // 2^64 - 2
}

TEST_CASE("a truncated data area is refused: the offsets run past it") {
    const std::string whole = safetensors_bytes(kHeader, std::string(16, '\0'));
    refused(whole.substr(0, whole.size() - 1), "tensor \"a\": data_offsets [8, 16] run past the data area (15 bytes)");
}

TEST_CASE("offsets outside the data area, ending before they begin, or not two integers are refused") {
    refused_entry(R"({"dtype":"U8","shape":[4],"data_offsets":[100,104]})", 8, "run past the data area (8 bytes)");
    refused_entry(R"({"dtype":"U8","shape":[0],"data_offsets":[6,2]})", 8, "end before they begin");
    refused_entry(R"({"dtype":"U8","shape":[4],"data_offsets":[0]})", 8, "data_offsets is not an array of two integers");
    refused_entry(R"({"dtype":"U8","shape":[4],"data_offsets":[-4,0]})", 8, "data_offsets holds something other than non-negative integers");
    refused_entry(R"({"dtype":"U8","shape":[4],"data_offsets":[0,4.0]})", 8, "data_offsets holds something other than non-negative integers");
    refused_entry(R"({"dtype":"U8","shape":[4],"data_offsets":[0,18446744073709551616]})", 8, "non-negative integers");
}

TEST_CASE("overlapping tensors are refused, naming both, in whatever order they are listed") {
    const std::string header =
        R"({"b":{"dtype":"U8","shape":[4],"data_offsets":[4,8]},"a":{"dtype":"U8","shape":[6],"data_offsets":[0,6]}})";
    refused(safetensors_bytes(header, std::string(8, '\0')), "tensors \"a\" [0, 6] and \"b\" [4, 8] overlap");
    const std::string same = R"({"x":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},"y":{"dtype":"I32","shape":[1],"data_offsets":[0,4]}})";
    refused(safetensors_bytes(same, std::string(4, '\0')), "overlap");
}

TEST_CASE("a byte length other than dtype x shape is refused with both numbers") {
    refused_entry(R"({"dtype":"F16","shape":[4,8],"data_offsets":[0,96]})", 96, "data_offsets [0, 96] hold 96 bytes, F16 [4,8] is 64");
    refused_entry(R"({"dtype":"F32","shape":[3],"data_offsets":[0,8]})", 8, "hold 8 bytes, F32 [3] is 12");
}

TEST_CASE("a header that is not JSON, not an object or not starting with '{' is refused") {
    refused(safetensors_bytes(R"({"w": {"dtype": "U8",)", ""), "the header is not valid JSON");
    refused(safetensors_bytes(R"({"w":1} trailing)", ""), "the header is not valid JSON");
    refused(safetensors_bytes(" {}", ""), "does not start with '{'");
    refused(safetensors_bytes("[1,2]", ""), "does not start with '{'");
    refused(safetensors_bytes("", ""), "does not start with '{'");
    refused(safetensors_bytes("{\"\xff\":1}", ""), "the header is not valid JSON");
}

TEST_CASE("an unknown dtype, a bad shape or an unknown key in a tensor is refused") {
    refused_entry(R"({"dtype":"F4","shape":[4],"data_offsets":[0,2]})", 2, "unknown dtype \"F4\"");
    refused_entry(R"({"dtype":7,"shape":[4],"data_offsets":[0,4]})", 4, "dtype is not a string");
    refused_entry(R"({"dtype":"U8","shape":[-4],"data_offsets":[0,4]})", 4, "shape holds something other than non-negative integers");
    refused_entry(R"({"dtype":"U8","shape":"4","data_offsets":[0,4]})", 4, "shape is not an array");
    refused_entry(R"({"dtype":"U8","shape":[4],"data_offsets":[0,4],"extra":1})", 4, "has the unknown key \"extra\"");
    refused_entry(R"({"dtype":"U8","data_offsets":[0,4]})", 4, "has no shape");
    refused_entry(R"([1,2])", 4, "is not an object with dtype, shape and data_offsets");
}

TEST_CASE("a shape whose element or byte count overflows int64 is refused") {
    refused_entry(R"({"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,0]})", 0, "element count of its shape overflows int64");
    refused_entry(R"({"dtype":"U8","shape":[9223372036854775808],"data_offsets":[0,0]})", 0, "non-negative integers");
    refused_entry(R"({"dtype":"F64","shape":[2305843009213693952],"data_offsets":[0,0]})", 0, "byte count of its shape overflows int64");
}

TEST_CASE("__metadata__ must map strings to strings") {
    refused(safetensors_bytes(R"({"__metadata__":{"n":1}})", ""), "__metadata__ \"n\" is not a string");
    refused(safetensors_bytes(R"({"__metadata__":["x"]})", ""), "__metadata__ is not an object of strings");
}

TEST_CASE("a key twice, nesting deeper than the format, or an array longer than a shape is refused") {
    refused(safetensors_bytes(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"w":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})", "ab"),
            "the key \"w\" twice");
    refused_entry(R"({"dtype":"U8","dtype":"I8","shape":[1],"data_offsets":[0,1]})", 1, "the key \"dtype\" twice");
    refused_entry(R"({"dtype":"U8","shape":[[[1]]],"data_offsets":[0,1]})", 1, "nests deeper than the format");
    std::string shape = "[";
    for (int i = 0; i < 65; ++i) shape += i ? ",1" : "1";
    refused_entry(R"({"dtype":"U8","shape":)" + shape + R"(],"data_offsets":[0,1]})", 1, "an array of more than 64 items");
    refused_entry(shape + "]", 1, "an array of more than 64 items");  // where a tensor's object belongs
}

TEST_CASE("a name with control characters is quoted in the message, never printed raw") {
    refused(safetensors_bytes(R"({"bad\nname\u001b[2J":{"dtype":"Q","shape":[],"data_offsets":[0,0]}})", ""), R"(tensor "bad\nname\u001b[2J": unknown dtype)");
}

TEST_CASE("a file on disk is mapped and its tensor bytes point into it, and an empty file or a folder is refused") {
    const auto dir = spmma::test::scratch_dir("mapped");
    const std::string data = "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10";
    const auto file = spmma::test::write_bytes(dir / "m.safetensors", safetensors_bytes(kHeader, data));
    const SafetensorsFile f(file);
    const auto* a = f.find("a");
    REQUIRE(a);
    const TensorView v = f.view(*a);
    REQUIRE(v.bytes.size() == 8);
    REQUIRE(std::memcmp(v.bytes.data(), data.data() + 8, 8) == 0);
    REQUIRE(v.file == file);
    REQUIRE_FALSE(f.find("c"));
    const auto empty = spmma::test::write_bytes(dir / "empty.safetensors", "");
    require_refused([&] { SafetensorsFile{empty}; }, empty, "0 bytes: too short");
    require_refused([&] { SafetensorsFile{dir}; }, dir, "not a regular file");
    require_refused([&] { SafetensorsFile{dir / "missing.safetensors"}; }, dir / "missing.safetensors", "cannot open");
}

TEST_CASE("a folder's index must be a weight_map of files in the folder that hold the tensors it names") {
    const auto dir = spmma::test::scratch_dir("index");
    spmma::test::write_bytes(dir / "a.safetensors", safetensors_bytes(kHeader, std::string(16, '\0')));
    const auto index = dir / kShardIndexName;
    spmma::test::write_bytes(index, R"({"weight_map":{"a":"a.safetensors","b":"a.safetensors"}})");
    const Checkpoint c(dir);
    REQUIRE(c.tensors().size() == 2);
    REQUIRE(c.files() == std::vector<std::filesystem::path>{dir / "a.safetensors"});
    require_refused([&] { c.get("nope"); }, dir, "no tensor \"nope\" (2 tensors");

    spmma::test::write_bytes(index, R"({"weight_map":{"a":"a.safetensors","zz":"a.safetensors"}})");
    require_refused([&] { Checkpoint{dir}; }, index, "weight_map puts \"zz\" in \"a.safetensors\", which does not hold it");
    spmma::test::write_bytes(index, R"({"weight_map":{"a":"../a.safetensors"}})");
    require_refused([&] { Checkpoint{dir}; }, index, "names \"../a.safetensors\", not a file in the index's folder");
    spmma::test::write_bytes(index, R"({"metadata":{}})");
    require_refused([&] { Checkpoint{dir}; }, index, "no weight_map object");
    spmma::test::write_bytes(index, R"({"weight_map":)");
    require_refused([&] { Checkpoint{dir}; }, index, "not valid JSON");
    spmma::test::write_bytes(index, R"({"weight_map":{"a":"b.safetensors"}})");
    require_refused([&] { Checkpoint{dir}; }, dir / "b.safetensors", "cannot open");

    std::filesystem::remove(index);
    REQUIRE(Checkpoint(dir).tensors().size() == 2);  // one file and no index: that file
    spmma::test::write_bytes(dir / "b.safetensors", safetensors_bytes("{}", ""));
    require_refused([&] { Checkpoint{dir}; }, dir, "2 .safetensors files and no model.safetensors.index.json");
    require_refused([&] { Checkpoint{dir / "none"}; }, dir / "none", "no such file or folder");
}
