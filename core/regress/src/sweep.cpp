#include <spmma/core/sweep.hpp>

#include <spmma/core/record.hpp>
#include <spmma/core/record_json.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace spmma {

Shard parse_shard(const std::string& s) {
    const auto slash = s.find('/');
    Shard sh;
    try {
        if (slash == std::string::npos) throw std::invalid_argument("");
        size_t a = 0, b = 0;
        sh.index = std::stoi(s.substr(0, slash), &a);
        sh.count = std::stoi(s.substr(slash + 1), &b);
        if (a != slash || b != s.size() - slash - 1) throw std::invalid_argument("");
    } catch (const std::exception&) {
        throw std::invalid_argument(fmt::format("'{}' is not I/N (two whole numbers, e.g. 0/4)", s));
    }
    if (sh.count < 1 || sh.index < 0 || sh.index >= sh.count)
        throw std::invalid_argument(fmt::format("'{}': shards are numbered 0 to N-1 and N is at least 1", s));
    return sh;
}

namespace {

// A Slurm array variable as a whole number; std::invalid_argument naming it otherwise.
int slurm_number(const char* var, const char* text) {
    int v = 0;
    const char* end = text + std::strlen(text);
    const auto r = std::from_chars(text, end, v);
    if (r.ec != std::errc() || r.ptr != end || v < 0)
        throw std::invalid_argument(fmt::format("{}='{}' is not a whole number (a Slurm array task's variables choose the shard)", var, text));
    return v;
}

}  // namespace

std::optional<Shard> shard_from_slurm() {
    const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
    const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
    if (!id || !count) return std::nullopt;
    const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
    const int first = min ? slurm_number("SLURM_ARRAY_TASK_MIN", min) : 0;
    const int task = slurm_number("SLURM_ARRAY_TASK_ID", id), n = slurm_number("SLURM_ARRAY_TASK_COUNT", count);
    try {
        return parse_shard(fmt::format("{}/{}", task - first, n));
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("SLURM_ARRAY_TASK_ID={} (SLURM_ARRAY_TASK_MIN={}, SLURM_ARRAY_TASK_COUNT={}): {}", id,
                                                min ? min : "unset", count, e.what()));
    }
}

std::vector<Job> number_and_shard(std::vector<Job> jobs, const std::optional<Shard>& shard) {
    const auto n = static_cast<int64_t>(jobs.size());
    std::vector<Job> out;
    for (int64_t i = 0; i < n; ++i) {
        jobs[i].index = i;
        jobs[i].count = n;
        if (shard) {
            if (i % shard->count != shard->index) continue;
            jobs[i].shard = shard->text();
        }
        out.push_back(std::move(jobs[i]));
    }
    return out;
}

ResumeScan scan_for_resume(const std::filesystem::path& file) {
    ResumeScan scan;
    std::ifstream in(file, std::ios::binary);
    if (!in) return scan;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    size_t pos = 0, line = 0;
    while (pos < text.size()) {
        ++line;
        const size_t nl = text.find('\n', pos);
        const std::string where = fmt::format("{}:{}", file.string(), line);
        if (nl == std::string::npos) {
            // NOTES: only a last line without its newline can be torn (a kill between write and
            // sync; a failed write is cut off by the writer itself); cut it off so the records
            // appended now start on a line of their own. A whole line that is not a record is an
            // error: nothing whole is ever dropped.
            std::filesystem::resize_file(file, pos);
            scan.note = fmt::format("{}: the last record was cut short ({} bytes) and is dropped; its run is done again", where, text.size() - pos);
            break;
        }
        const std::string body = text.substr(pos, nl - pos);
        pos = nl + 1;
        if (body.find_first_not_of(" \t\r") == std::string::npos) continue;
        nlohmann::json r;
        try {
            r = nlohmann::json::parse(body);
        } catch (const nlohmann::json::exception& e) {
            throw std::runtime_error(fmt::format("{}: not a record ({}); --resume cannot trust this file", where, e.what()));
        }
        if (!r.is_object() || !r.contains("problem") || !r.contains("plugin") || !r["plugin"].is_object())
            throw std::runtime_error(fmt::format("{}: not a record; --resume cannot trust this file", where));
        Record kept = record_from_json(r, where);
        std::string key;
        try {
            key = resume_key(r["problem"], r.value("run", nlohmann::json::object()), kept.plugin, kept.kernel_request);
        } catch (const nlohmann::json::exception& e) {
            throw std::runtime_error(fmt::format("{}: not a record ({}); --resume cannot trust this file", where, e.what()));
        }
        scan.kept.emplace(std::move(key), std::move(kept));  // the first of a doubled run
        ++scan.records;
    }
    return scan;
}

}  // namespace spmma
