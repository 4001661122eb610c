// gno web UI: the link graph on a canvas. Fetches /api/graph (the page names the call), lays
// the notes out with a small force simulation (repulsion through a grid of cells, so a few
// thousand notes stay interactive), and draws it: size by degree, links solid, similarity edges
// dashed, labels for the hubs and, as you zoom in, for every note. Wheel or +/- zooms, dragging
// or the arrow keys pan, a click opens the note; the report (hubs, bridges, communities) is
// listed beside the canvas as links. Text from the index only ever goes in through textContent.
"use strict";
(function () {
  var canvas = document.getElementById("graph");
  if (!canvas) return;
  var statusLine = document.getElementById("graph-status");
  var ctx = canvas.getContext("2d");
  var nodes = [], links = [], byId = {};
  var view = { x: 0, y: 0, k: 1 };
  var hover = null, ticks = 0, maxTicks = 300, drag = null, moved = false;
  var colors = {};
  var palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];

  function docHref(uri) { return "/doc?ref=" + encodeURIComponent(uri).replace(/%2F/g, "/").replace(/%3A/g, ":"); }
  function say(text) { statusLine.textContent = text; }
  function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

  function size() {
    var ratio = window.devicePixelRatio || 1;
    var rect = canvas.getBoundingClientRect();
    canvas.width = Math.max(1, Math.round(rect.width * ratio));
    canvas.height = Math.max(1, Math.round(rect.height * ratio));
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  function radius(n) { return 3 + Math.sqrt(n.degree) * 1.6; }

  function colorOf(n) {
    var key = n.communityId || n.collection;
    if (!(key in colors)) colors[key] = palette[Object.keys(colors).length % palette.length];
    return colors[key];
  }

  function place() {
    // A sunflower spiral, communities together, so the simulation starts near its end.
    var order = nodes.slice().sort(function (a, b) {
      return (a.communityId || "").localeCompare(b.communityId || "") || b.degree - a.degree;
    });
    var golden = Math.PI * (3 - Math.sqrt(5));
    order.forEach(function (n, i) {
      var r = 12 * Math.sqrt(i + 1);
      n.x = r * Math.cos(i * golden); n.y = r * Math.sin(i * golden); n.vx = 0; n.vy = 0;
    });
  }

  function step() {
    var cell = 60, grid = {}, i, j, n, m, dx, dy, d2, f;
    nodes.forEach(function (n) {
      var key = Math.floor(n.x / cell) + "," + Math.floor(n.y / cell);
      (grid[key] = grid[key] || []).push(n);
    });
    nodes.forEach(function (n) {
      var cx = Math.floor(n.x / cell), cy = Math.floor(n.y / cell);
      for (i = -1; i <= 1; i++) for (j = -1; j <= 1; j++) {
        var near = grid[(cx + i) + "," + (cy + j)];
        if (!near) continue;
        for (var t = 0; t < near.length; t++) {
          m = near[t];
          if (m === n) continue;
          dx = n.x - m.x; dy = n.y - m.y; d2 = dx * dx + dy * dy + 0.01;
          if (d2 > cell * cell) continue;
          f = 180 / d2;
          n.vx += dx * f; n.vy += dy * f;
        }
      }
      n.vx -= n.x * 0.002; n.vy -= n.y * 0.002;  // gravity to the centre
    });
    links.forEach(function (l) {
      dx = l.t.x - l.s.x; dy = l.t.y - l.s.y;
      var d = Math.sqrt(dx * dx + dy * dy) + 0.01;
      f = (d - 40) * 0.02 / d;
      l.s.vx += dx * f; l.s.vy += dy * f; l.t.vx -= dx * f; l.t.vy -= dy * f;
    });
    var cool = 1 - ticks / maxTicks;
    nodes.forEach(function (n) {
      n.vx *= 0.6; n.vy *= 0.6;
      n.x += Math.max(-20, Math.min(20, n.vx)) * cool;
      n.y += Math.max(-20, Math.min(20, n.vy)) * cool;
    });
    ticks++;
  }

  function toScreen(n) {
    var rect = canvas.getBoundingClientRect();
    return { x: rect.width / 2 + (n.x + view.x) * view.k, y: rect.height / 2 + (n.y + view.y) * view.k };
  }

  function draw() {
    var rect = canvas.getBoundingClientRect();
    ctx.clearRect(0, 0, rect.width, rect.height);
    ctx.lineWidth = 1;
    ctx.strokeStyle = css("--line") || "#ccc";
    links.forEach(function (l) {
      var a = toScreen(l.s), b = toScreen(l.t);
      ctx.setLineDash(l.type === "similar" ? [4, 4] : []);
      ctx.beginPath(); ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y); ctx.stroke();
    });
    ctx.setLineDash([]);
    var fg = css("--fg") || "#222";
    ctx.font = "12px system-ui, sans-serif";
    var labelDegree = view.k >= 2.5 ? 0 : view.k >= 1.2 ? 4 : hubDegree;
    nodes.forEach(function (n) {
      var p = toScreen(n), r = radius(n) * Math.sqrt(view.k);
      ctx.beginPath(); ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
      ctx.fillStyle = colorOf(n); ctx.fill();
      if (n === hover) { ctx.strokeStyle = fg; ctx.lineWidth = 2; ctx.stroke(); ctx.lineWidth = 1; }
      if (n.degree >= labelDegree || n === hover) {
        ctx.fillStyle = fg;
        ctx.fillText(n.title || n.relPath, p.x + r + 2, p.y + 4);
      }
    });
  }

  var hubDegree = Infinity, touched = false;
  function fit() {
    // Until the person zooms or pans, the view follows the layout so that it fills the canvas.
    if (touched || !nodes.length) return;
    var rect = canvas.getBoundingClientRect();
    var minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    nodes.forEach(function (n) {
      minX = Math.min(minX, n.x); maxX = Math.max(maxX, n.x);
      minY = Math.min(minY, n.y); maxY = Math.max(maxY, n.y);
    });
    view.x = -(minX + maxX) / 2; view.y = -(minY + maxY) / 2;
    view.k = Math.max(0.1, Math.min(4, (rect.width - 60) / (maxX - minX + 1), (rect.height - 60) / (maxY - minY + 1)));
  }

  function frame() {
    var budget = performance.now() + 12;
    while (ticks < maxTicks && performance.now() < budget) step();
    fit();
    draw();
    if (!canvas.dataset.firstFrame) canvas.dataset.firstFrame = String(Math.round(performance.now()));
    if (ticks < maxTicks) requestAnimationFrame(frame);
    else canvas.dataset.settled = "true";
  }

  function nodeAt(x, y) {
    var best = null, bestD = Infinity;
    nodes.forEach(function (n) {
      var p = toScreen(n), dx = p.x - x, dy = p.y - y, d = dx * dx + dy * dy;
      var r = radius(n) * Math.sqrt(view.k) + 3;
      if (d <= r * r && d < bestD) { best = n; bestD = d; }
    });
    return best;
  }

  function local(event) {
    var rect = canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  function zoom(factor) { touched = true; view.k = Math.max(0.1, Math.min(12, view.k * factor)); draw(); }

  canvas.addEventListener("wheel", function (event) {
    event.preventDefault();
    zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15);
  }, { passive: false });
  canvas.addEventListener("mousedown", function (event) {
    drag = local(event); moved = false;
  });
  window.addEventListener("mouseup", function () { drag = null; });
  canvas.addEventListener("mousemove", function (event) {
    var at = local(event);
    if (drag) {
      var dx = at.x - drag.x, dy = at.y - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 2) moved = true;
      touched = true; view.x += dx / view.k; view.y += dy / view.k; drag = at; draw();
      return;
    }
    var found = nodeAt(at.x, at.y);
    if (found !== hover) {
      hover = found;
      canvas.title = found ? (found.title || found.relPath) : "";
      canvas.style.cursor = found ? "pointer" : "default";
      draw();
    }
  });
  canvas.addEventListener("click", function (event) {
    if (moved) return;
    var at = local(event), found = nodeAt(at.x, at.y);
    if (found) window.location.assign(docHref(found.uri));
  });
  canvas.addEventListener("keydown", function (event) {
    var pan = 40 / view.k;
    touched = touched || event.key.indexOf("Arrow") === 0;
    var keys = {
      "+": function () { zoom(1.25); }, "=": function () { zoom(1.25); }, "-": function () { zoom(0.8); },
      ArrowLeft: function () { view.x += pan; draw(); }, ArrowRight: function () { view.x -= pan; draw(); },
      ArrowUp: function () { view.y += pan; draw(); }, ArrowDown: function () { view.y -= pan; draw(); }
    };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });
  window.addEventListener("resize", function () { size(); draw(); });

  function list(id, items, text) {
    var target = document.getElementById(id);
    items.forEach(function (item) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = docHref(item.uri); a.textContent = item.title || item.uri;
      li.appendChild(a);
      var extra = document.createElement("span");
      extra.className = "muted"; extra.textContent = " " + text(item);
      li.appendChild(extra);
      target.appendChild(li);
    });
    if (!items.length) {
      var none = document.createElement("li"); none.className = "muted"; none.textContent = "none";
      target.appendChild(none);
    }
  }

  function report(data) {
    var r = data.report, meta = data.meta;
    list("graph-hubs", r.hubs.slice(0, 10), function (h) { return h.degree + " links"; });
    list("graph-bridges", r.bridgeCandidates.slice(0, 10), function (b) { return b.communities + " communities"; });
    var communities = document.getElementById("graph-communities");
    r.communities.slice(0, 10).forEach(function (c, i) {
      var li = document.createElement("li");
      li.textContent = "Community " + (i + 1) + ": " + c.size + " notes";
      communities.appendChild(li);
    });
    var text = meta.returnedNodes + " notes and " + meta.returnedEdges + " links";
    if (meta.truncated) {
      text += " shown of " + meta.totalNodes + " notes and " + meta.totalEdges +
        " links: truncated to the " + meta.nodeLimit + " best-linked notes (raise the limit, up to 5000, or pick a collection)";
    }
    if (meta.linkedOnly && r.isolated.total) text += "; " + r.isolated.total + " notes without links are not drawn";
    (meta.warnings || []).forEach(function (w) { text += "; " + w; });
    say(text + ".");
  }

  fetch(canvas.dataset.src, { headers: { Accept: "application/json" } })
    .then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error((body.error && body.error.message) || response.statusText);
        return body;
      });
    })
    .then(function (data) {
      nodes = data.nodes;
      nodes.forEach(function (n) { byId[n.id] = n; });
      links = data.links.filter(function (l) { return byId[l.source] && byId[l.target]; })
        .map(function (l) { return { s: byId[l.source], t: byId[l.target], type: l.type }; });
      var degrees = nodes.map(function (n) { return n.degree; }).sort(function (a, b) { return b - a; });
      hubDegree = degrees.length ? Math.max(1, degrees[Math.min(9, degrees.length - 1)]) : Infinity;
      canvas.dataset.nodes = String(nodes.length);
      canvas.dataset.links = String(links.length);
      report(data);
      size();
      place();
      requestAnimationFrame(frame);
    })
    .catch(function (error) { say("The graph could not be loaded: " + error.message); });

  // For tests and tools: where a note is drawn now (CSS pixels within the canvas).
  window.gnoGraph = {
    positionOf: function (uri) {
      var n = nodes.find(function (m) { return m.uri === uri; });
      return n ? toScreen(n) : null;
    }
  };
})();
