// gno web UI: the dashboard's counts, collections and health, from GET /api/status (the same
// answer as `gno status --json`), filled in after the page is shown: counting a large index
// takes longer than showing the page (0.5-1 s on 38k notes). Text only via textContent.
"use strict";
(function () {
  var panel = document.getElementById("status-panel");
  if (!panel) return;
  var line = document.getElementById("status-line");

  function percent(part, whole) { return whole > 0 ? Math.min(100, Math.round(100 * part / whole)) : 0; }
  function cell(row, text, tag) {
    var td = document.createElement(tag || "td");
    if (tag === "th") td.scope = "row";
    if (text instanceof Node) td.appendChild(text); else td.textContent = String(text);
    row.appendChild(td);
    return td;
  }
  function show(id) { document.getElementById(id).hidden = false; }

  function fill(status) {
    document.getElementById("count-documents").textContent = String(status.totalDocuments);
    document.getElementById("count-backlog").textContent = String(status.embeddingBacklog);
    document.getElementById("count-chunks").textContent = String(status.totalChunks);
    document.getElementById("count-embedded").textContent =
      percent(status.totalChunks - status.embeddingBacklog, status.totalChunks) + "%";
    var links = status.links;
    document.getElementById("count-links").textContent =
      links ? links.total + " (" + links.unresolved + " unresolved)" : "—";
    var health = document.getElementById("health");
    health.textContent = status.healthy ? "healthy" : "needs attention";
    health.className = status.healthy ? "ok" : "bad";
    show("status-counts");
    var body = document.querySelector("#status-collections tbody");
    status.collections.forEach(function (c) {
      var row = document.createElement("tr");
      var a = document.createElement("a");
      a.href = "/browse?collection=" + encodeURIComponent(c.name);
      a.textContent = c.name;
      cell(row, a, "th");
      cell(row, c.documentCount);
      cell(row, c.chunkCount);
      var embedded = percent(c.embeddedCount, c.chunkCount);
      var meter = document.createElement("meter");
      meter.min = 0; meter.max = 100; meter.value = embedded;
      meter.setAttribute("aria-label", c.name + " embedded");
      var both = document.createElement("span");
      both.appendChild(meter);
      both.appendChild(document.createTextNode(" " + embedded + "%"));
      cell(row, both);
      var code = document.createElement("code");
      code.textContent = c.path;
      cell(row, code);
      body.appendChild(row);
    });
    show("status-collections");
    var errors = document.getElementById("status-errors");
    status.recentErrors.slice(0, 10).forEach(function (e) {
      var li = document.createElement("li");
      li.textContent = e.collection + "/" + e.relPath + ": " + e.code + " — " + e.message;
      errors.appendChild(li);
    });
    if (status.recentErrors.length) show("status-errors");
    var caps = status.capabilities;
    line.textContent = "Last updated " + (status.lastUpdated || "never") + ". Search: keyword " +
      (caps.bm25 ? "yes" : "no") + ", vector " + (caps.vector ? "yes" : "no") + ", hybrid " +
      (caps.hybrid ? "yes" : "no") + ".";
    panel.dataset.loaded = String(Math.round(performance.now()));
  }

  fetch(panel.dataset.src, { headers: { Accept: "application/json" } })
    .then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error((body.error && body.error.message) || response.statusText);
        return body;
      });
    })
    .then(fill)
    .catch(function (error) { line.textContent = "The full status could not be loaded: " + error.message; });
})();
