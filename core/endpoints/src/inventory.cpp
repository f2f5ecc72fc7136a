#include <spmma/core/inventory.hpp>

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>

namespace spmma {

namespace {

// probe() through a worker may lose the worker: that is the plugin's state then.
DeviceInfo safe_probe(PluginEndpoint& e, int device) {
    if (!e.identity().usable()) return {};
    try {
        return e.probe(device);
    } catch (const WorkerLost& w) {
        DeviceInfo d;
        d.reason = w.what();
        return d;
    }
}

int safe_device_count(PluginEndpoint& e) {
    try {
        return e.device_count();
    } catch (const WorkerLost&) {
        return 0;
    }
}

// A plugin the build skipped, as the build listed it in a plugin folder's not-built.json:
// {"version": 1, "not_built": [{"name": ..., "reason": ..., "how": ...}]} (plugins/CMakeLists.txt).
struct NotBuilt {
    std::string name, reason, how;
    std::filesystem::path file;
    std::string status() const { return fmt::format("not built: {} ({})", reason, how); }
};

struct NotBuiltList {
    std::vector<NotBuilt> plugins;
    std::vector<std::string> problems;  // files that could not be read, said rather than dropped
};

// The skipped plugins of every folder, first folder first, each name once; names a loaded plugin
// has are left out (a plugin folder may hold a stale list, or another folder the plugin).
NotBuiltList not_built(const std::vector<std::filesystem::path>& dirs, const Endpoints& plugins) {
    NotBuiltList out;
    std::set<std::string> taken;
    for (const auto& e : plugins)
        if (e->identity().usable()) taken.insert(e->identity().name);
    for (const auto& dir : dirs) {
        const std::filesystem::path file = dir / "not-built.json";
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec)) continue;
        nlohmann::json j;
        try {
            std::ifstream in(file);
            j = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& x) {
            out.problems.push_back(fmt::format("{}: not valid JSON ({}): ignored", file.string(), x.what()));
            continue;
        }
        if (!j.is_object() || !j.contains("not_built") || !j["not_built"].is_array()) {
            out.problems.push_back(fmt::format("{}: no \"not_built\" list: ignored", file.string()));
            continue;
        }
        for (const auto& x : j["not_built"]) {
            const auto text = [&](const char* key) { return x.is_object() && x.contains(key) && x[key].is_string() ? x[key].get<std::string>() : ""; };
            NotBuilt nb{text("name"), text("reason"), text("how"), file};
            if (nb.name.empty()) {
                out.problems.push_back(fmt::format("{}: an entry without a \"name\": {}", file.string(), x.dump()));
                continue;
            }
            if (!taken.insert(nb.name).second) continue;
            out.plugins.push_back(std::move(nb));
        }
    }
    return out;
}

std::string status_line(const PluginIdentity& p, const DeviceInfo& d) {
    if (!p.usable()) return fmt::format("{}: {}", to_string(p.state), p.error);
    if (d.runnable) return fmt::format("ready on {} ({})", d.name, d.arch);
    if (!d.arch.empty()) return fmt::format("built, cannot run on {} ({}): {}", d.name, d.arch, d.reason);
    return d.reason;
}

}  // namespace

std::string describe_plugins(const Endpoints& plugins, const std::vector<std::filesystem::path>& dirs, int device, bool verbose) {
    std::string out;
    const NotBuiltList skipped = not_built(dirs, plugins);
    std::string skipped_text;
    for (const auto& nb : skipped.plugins)
        skipped_text += verbose ? fmt::format("{}\n  status:      {}\n  listed in:   {}\n\n", nb.name, nb.status(), nb.file.string())
                                : fmt::format("{:<12} {:<8} {:<9} {:<7} {}\n", nb.name, "-", "-", "-", nb.status());
    for (const auto& p : skipped.problems) skipped_text += "note: " + p + "\n";
    if (plugins.empty()) {
        out += "no plugins found in:\n";
        for (const auto& d : dirs) out += "  " + d.string() + "\n";
        return out + skipped_text;
    }
    if (!verbose) out += fmt::format("{:<12} {:<8} {:<9} {:<7} {}\n", "plugin", "target", "version", "kernels", "status");
    for (const auto& e : plugins) {
        const PluginIdentity& p = e->identity();
        const DeviceInfo d = safe_probe(*e, device);
        const std::string nm = p.usable() || p.state == PluginState::Duplicate ? p.name : p.file.filename().string();
        if (!verbose) {
            out += fmt::format("{:<12} {:<8} {:<9} {:<7} {}\n", nm, p.target, p.version, p.usable() ? std::to_string(p.kernels.size()) : "-",
                               status_line(p, d));
            continue;
        }
        out += fmt::format("{}\n", nm);
        out += fmt::format("  file:        {}\n", p.file.string());
        if (!p.sha256.empty()) out += fmt::format("  sha256:      {}\n", p.sha256);
        out += fmt::format("  status:      {}\n", status_line(p, d));
        if (p.abi_major) out += fmt::format("  ABI:         {}.{}\n", p.abi_major, p.abi_minor);
        if (!p.usable()) {
            out += "\n";
            continue;
        }
        out += fmt::format("  target:      {}\n", p.target);
        out += fmt::format("  version:     {} ({})\n", p.version, p.vendor);
        out += fmt::format("  kind:        {}\n", p.dense() ? "dense baseline (A expanded)" : "sparse");
        out += fmt::format("  description: {}\n", p.description);
        if (!d.driver.empty()) out += fmt::format("  driver:      {}\n", d.driver);
        if (!d.uuid.empty()) out += fmt::format("  device:      {} {} ({})\n", device, d.uuid, d.pci_bus_id);
        out += fmt::format("  kernels ({}):\n", p.kernels.size());
        for (const auto& k : p.kernels) out += fmt::format("    {:<44} {}\n", k.name, k.description);
        out += "\n";
    }
    out += skipped_text;
    out += "searched: ";
    for (size_t i = 0; i < dirs.size(); ++i) out += (i ? ", " : "") + dirs[i].string();
    return out + "\n";
}

nlohmann::json plugins_json(const Endpoints& plugins, const std::vector<std::filesystem::path>& dirs, int device) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& e : plugins) {
        const PluginIdentity& p = e->identity();
        const DeviceInfo d = safe_probe(*e, device);
        nlohmann::json o = {{"file", p.file.string()}, {"sha256", p.sha256}, {"state", to_string(p.state)}};
        if (!p.error.empty()) o["error"] = p.error;
        if (p.abi_major) o["abi"] = fmt::format("{}.{}", p.abi_major, p.abi_minor);
        if (p.usable()) {
            o["name"] = p.name;
            o["vendor"] = p.vendor;
            o["version"] = p.version;
            o["target"] = p.target;
            o["description"] = p.description;
            o["kind"] = p.dense() ? "dense" : "sparse";
            nlohmann::json ks = nlohmann::json::array();
            for (const auto& k : p.kernels) ks.push_back({{"name", k.name}, {"description", k.description}});
            o["kernels"] = ks;
            o["device"] = {{"index", device}, {"runnable", d.runnable}, {"name", d.name}, {"arch", d.arch}, {"driver", d.driver},
                           {"reason", d.reason}, {"uuid", d.uuid}, {"pci_bus_id", d.pci_bus_id}};
        }
        arr.push_back(o);
    }
    nlohmann::json searched = nlohmann::json::array();
    for (const auto& d : dirs) searched.push_back(d.string());
    nlohmann::json o = {{"plugins", arr}, {"searched", searched}};
    const NotBuiltList skipped = not_built(dirs, plugins);
    nlohmann::json nb = nlohmann::json::array();
    for (const auto& x : skipped.plugins) nb.push_back({{"name", x.name}, {"reason", x.reason}, {"how", x.how}, {"file", x.file.string()}});
    o["not_built"] = nb;
    if (!skipped.problems.empty()) o["not_built_problems"] = skipped.problems;
    return o;
}

std::string describe_devices(const Endpoints& plugins) {
    // device name+arch -> plugins that can run there
    std::map<std::string, std::vector<std::string>> runnable;
    std::vector<std::string> order;
    std::string notes;
    for (const auto& e : plugins) {
        const PluginIdentity& p = e->identity();
        if (!p.usable()) continue;
        const int n = safe_device_count(*e);
        if (n == 0) {
            notes += fmt::format("  {}: no devices ({})\n", p.name, safe_probe(*e, 0).reason);
            continue;
        }
        for (int i = 0; i < n; ++i) {
            const DeviceInfo d = safe_probe(*e, i);
            const std::string key = fmt::format("{}: {} ({}{}{})", i, d.name, d.arch, d.driver.empty() ? "" : ", driver " + d.driver,
                                                d.uuid.empty() ? "" : ", " + d.uuid);
            if (!runnable.count(key)) order.push_back(key);
            auto& v = runnable[key];
            v.push_back(d.runnable ? p.name : fmt::format("{} [no: {}]", p.name, d.reason));
        }
    }
    std::string out;
    for (const auto& key : order) out += fmt::format("device {}\n  plugins: {}\n", key, fmt::join(runnable[key], ", "));
    if (!notes.empty()) out += "plugins without devices:\n" + notes;
    if (out.empty()) out = "no plugins loaded\n";
    return out;
}

}  // namespace spmma
