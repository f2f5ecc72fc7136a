// Opening a page of `spmma report` in headless chromium: report_check.js measures every chart
// and the first screen; a screenshot shows the page as a reader first sees it.
#pragma once

#include "../common/tools.hpp"
#include "cli.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <regex>
#include <string>

struct BrowserCheck {
    bool ran = false;
    std::string why;         // when it did not run
    nlohmann::json result;   // what report_check.js wrote
};

inline std::string unescape(std::string s) {
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}})
        for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
    return s;
}

// Opens `html` (the page's text) in headless chromium with report_check.js added at the end of
// the body, and returns what the check wrote into the page.
inline BrowserCheck check_in_browser(const std::string& html, const std::string& name, const std::string& window = "1280,800") {
    BrowserCheck c;
    const std::string chromium = find_tool({"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"});
    if (chromium.empty()) {
        c.why = "chromium not found: scripts/test.sh installs it (Debian package chromium)";
        return c;
    }
    std::string page = html;
    const size_t body = page.rfind("</body>");
    if (body == std::string::npos) {
        c.why = "the page has no </body>";
        return c;
    }
    page.insert(body, "<script>\n" + read_file(SPMMA_SOURCE_DIR "/tests/app/report_check.js") + "</script>\n");
    const std::string file = write_file(name + ".html", page), log = temp_path(name + ".chromium.log");
    const std::string profile = temp_path(name + ".profile");
    const ShellResult r = run_shell("timeout 180 " + chromium + " --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=" + profile +
                                    " --window-size=" + window + " --dump-dom file://" + file + " 2>" + log);
    // The last such element: the one the check appended.
    static const std::regex pre(R"(<pre id="spmma-chart-check">([^<]*)</pre>)");
    std::string found;
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), pre); it != std::sregex_iterator(); ++it) found = (*it)[1].str();
    if (r.code != 0 || found.empty()) {
        const std::string err = read_file(log);
        c.why = "chromium (" + chromium + ") exited " + std::to_string(r.code) + " without the check's result; its log ends: " +
                err.substr(err.size() > 1500 ? err.size() - 1500 : 0);
        return c;
    }
    c.ran = true;
    c.result = nlohmann::json::parse(unescape(found));
    return c;
}

// A PNG of the first `window` (width,height) of the page `html_file`, written to `png`; the
// reason when chromium is missing or wrote none, else empty.
inline std::string screenshot(const std::string& html_file, const std::string& png, const std::string& window) {
    const std::string chromium = find_tool({"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"});
    if (chromium.empty()) return "chromium not found: scripts/test.sh installs it (Debian package chromium)";
    std::filesystem::remove(png);
    const std::string log = temp_path("screenshot.chromium.log"), profile = temp_path("screenshot.profile");
    const ShellResult r = run_shell("timeout 180 " + chromium + " --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --user-data-dir=" +
                                    profile + " --window-size=" + window + " --screenshot=" + png + " file://" + html_file + " 2>" + log);
    if (r.code != 0 || !std::filesystem::exists(png)) return "chromium exited " + std::to_string(r.code) + " without a screenshot: " + read_file(log);
    return "";
}
