#include <spmma/core/sweep.hpp>

#include <spmma/core/record.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
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

std::optional<Shard> shard_from_slurm() {
    const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
    const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
    if (!id || !count) return std::nullopt;
    const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
    const int first = min ? std::atoi(min) : 0;
    return parse_shard(fmt::format("{}/{}", std::atoi(id) - first, count));
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
    size_t pos = 0, line = 0, good_end = 0;
    while (pos < text.size()) {
        ++line;
        const size_t nl = text.find('\n', pos);
        const bool last = nl == std::string::npos || text.find_first_not_of(" \t\r\n", nl) == std::string::npos;
        const std::string body = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        nlohmann::json r;
        bool ok = nl != std::string::npos;
        if (ok) {
            try {
                r = nlohmann::json::parse(body);
                ok = r.is_object() && r.contains("problem") && r.contains("plugin");
            } catch (const std::exception&) {
                ok = false;
            }
        }
        if (!ok) {
            if (!last) throw std::runtime_error(fmt::format("{}:{}: not a record; --resume cannot trust this file", file.string(), line));
            // NOTES: only the last line can be torn (a kill between write and sync); cut it off
            // so the records appended now start on a line of their own.
            std::filesystem::resize_file(file, good_end);
            scan.note = fmt::format("{}:{}: the last record was cut short ({} bytes) and is dropped; its run is done again", file.string(),
                                    line, text.size() - good_end);
            break;
        }
        const nlohmann::json& pl = r["plugin"];
        scan.keys.insert(resume_key(r["problem"], r.value("run", nlohmann::json::object()), pl.value("name", ""), r.value("kernel_request", "")));
        ++scan.records;
        good_end = nl + 1;
        pos = nl + 1;
    }
    return scan;
}

}  // namespace spmma
