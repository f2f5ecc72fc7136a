#include <spmma/weights/checkpoint.hpp>

#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <set>

namespace spmma::weights {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The index and config.json are small (kilobytes for the largest models); the cap bounds what
// a hostile one can make the JSON parser build.
constexpr size_t kJsonFileMaxBytes = 64u << 20;

json read_json_file(const fs::path& file) {
    const MappedFile map(file);
    if (map.size() > kJsonFileMaxBytes) throw WeightsError(file, fmt::format("{} bytes, more than the {} read", map.size(), kJsonFileMaxBytes));
    try {
        return json::parse(map.text());
    } catch (const json::exception& e) {
        throw WeightsError(file, std::string("not valid JSON: ") + e.what());
    }
}

// A shard's name from the index: a file in the index's own folder, nothing else.
bool plain_file_name(const std::string& s) {
    return !s.empty() && s != "." && s != ".." && s.find('/') == std::string::npos && s.find('\0') == std::string::npos;
}

bool has_extension(const fs::path& p, const char* ext) { return p.extension() == ext; }

// compressed-tensors' quantization_config: does a config group quantize weights to 8-bit floats?
bool eight_bit_float_weights(const json& config) {
    const json* q = config.contains("quantization_config") ? &config["quantization_config"] : nullptr;
    if (!q || !q->is_object() || !q->contains("config_groups") || !(*q)["config_groups"].is_object()) return false;
    for (const auto& [name, group] : (*q)["config_groups"].items()) {
        if (!group.is_object() || !group.contains("weights") || !group["weights"].is_object()) continue;
        const json& w = group["weights"];
        if (w.value("type", json()).is_string() && w["type"] == "float" && w.value("num_bits", json()).is_number_integer() && w["num_bits"] == 8)
            return true;
    }
    return false;
}

}  // namespace

Checkpoint::Checkpoint(const fs::path& path) : path_(path) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw WeightsError(path, "no such file or folder");
    if (fs::is_directory(status)) {
        open_folder(path);
        read_config(path);
        return;
    }
    if (has_extension(path, ".npy")) {
        npy_ = std::make_unique<NpyFile>(path);
        return;
    }
    shards_.push_back(std::make_unique<SafetensorsFile>(path));
    add_all(0);
    read_config(path.parent_path().empty() ? fs::path(".") : path.parent_path());
}

void Checkpoint::open_folder(const fs::path& folder) {
    if (fs::exists(folder / kShardIndexName)) return open_index(folder / kShardIndexName);
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec))
        if (has_extension(e.path(), ".safetensors")) found.push_back(e.path());
    if (ec) throw WeightsError(folder, "cannot list the folder: " + ec.message());
    if (found.size() != 1)
        throw WeightsError(folder, fmt::format("{} .safetensors files and no {}: a folder is read through its index, or holds one file",
                                               found.size(), kShardIndexName));
    shards_.push_back(std::make_unique<SafetensorsFile>(found.front()));
    add_all(0);
}

void Checkpoint::open_index(const fs::path& index) {
    const json j = read_json_file(index);
    if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
        throw WeightsError(index, "no weight_map object (the index maps each tensor to its shard file)");
    std::map<std::string, size_t> shard_of_file;
    for (const auto& [tensor, file] : j["weight_map"].items()) {
        if (!file.is_string()) throw WeightsError(index, "weight_map " + quote_name(tensor) + " is not a file name");
        const std::string name = file.get<std::string>();
        if (!plain_file_name(name))
            throw WeightsError(index, "weight_map " + quote_name(tensor) + " names " + quote_name(name) + ", not a file in the index's folder");
        auto [it, fresh] = shard_of_file.emplace(name, shards_.size());
        if (fresh) shards_.push_back(std::make_unique<SafetensorsFile>(index.parent_path() / name));
        const SafetensorsEntry* e = shards_[it->second]->find(tensor);
        if (!e) throw WeightsError(index, "weight_map puts " + quote_name(tensor) + " in " + quote_name(name) + ", which does not hold it");
        index_.emplace(tensor, Where{it->second, e});
    }
}

void Checkpoint::add_all(size_t shard) {
    for (const auto& e : shards_[shard]->layout().tensors) index_.emplace(e.name, Where{shard, &e});
}

void Checkpoint::read_config(const fs::path& folder) {
    const fs::path config = folder / "config.json";
    if (!fs::exists(config)) return;
    try {
        if (eight_bit_float_weights(read_json_file(config))) int8_view_ = DType::E4M3;
    } catch (const std::exception& e) {
        config_note_ = e.what();
    }
}

std::vector<fs::path> Checkpoint::files() const {
    if (npy_) return {npy_->path()};
    std::vector<fs::path> out;
    for (const auto& s : shards_) out.push_back(s->path());
    return out;
}

std::vector<TensorView> Checkpoint::tensors() const {
    if (npy_) return {npy_->view()};
    std::vector<TensorView> out;
    for (const auto& [name, where] : index_) out.push_back(shards_[where.shard]->view(*where.entry));
    return out;
}

std::optional<TensorView> Checkpoint::find(std::string_view name) const {
    if (npy_) {
        if (name.empty() || name == npy_->view().name) return npy_->view();
        return std::nullopt;
    }
    const auto it = index_.find(name);
    if (it == index_.end()) return std::nullopt;
    return shards_[it->second.shard]->view(*it->second.entry);
}

std::string Checkpoint::stored_dtype(const TensorView& t) const { return npy_ ? npy_->layout().descr : name(t.type); }

TensorView Checkpoint::get(std::string_view name) const {
    if (auto t = find(name)) return *t;
    throw WeightsError(path_, fmt::format("no tensor {} ({} tensors; spmma inspect {} lists them)", quote_name(std::string(name)),
                                          npy_ ? 1 : index_.size(), path_.string()));
}

}  // namespace spmma::weights
