// The report page's script, inlined into the page by synagree/render/html.py: draws
// the sentence list and its trees from the JSON in <script id="synagree-data">.
// No libraries, no fetches (the page's Content-Security-Policy forbids them).
(function () {
  "use strict";
  var errBox = document.getElementById("js-errors");
  window.addEventListener("error", function (e) {
    errBox.hidden = false;
    errBox.textContent += "JavaScript error: " + e.message + "\n";
    document.body.setAttribute("data-js-error", "1");
  });
  var D = JSON.parse(document.getElementById("synagree-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var ANN = D.annotators, LAB = D.labels, S = D.sentences;
  var list = document.getElementById("sent-list");
  var box = document.getElementById("sent-filter");
  var only = document.getElementById("only-diff");
  var count = document.getElementById("sent-count");
  var more = document.getElementById("sent-more");
  var BATCH = 40, OPEN_FIRST = D.open_first, matches = [], shown = 0;

  function svg(tag, attrs, text) {
    var n = document.createElementNS(NS, tag);
    for (var k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function h(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function haystack(s) {
    if (s._h === undefined) {
      var parts = [s.id, s.doc, s.t || ""];
      s.a.forEach(function (ai) { parts.push(ANN[ai]); });
      if (s.x) s.x.forEach(function (w) {
        s.l.forEach(function (row) { parts.push(LAB[row[w - 1]]); });
      });
      if (s.p) s.p.forEach(function (t) {
        t.d.forEach(function (row) { parts.push(t.n[row[0]]); });
      });
      s._h = parts.join(" \u0001 ").toLowerCase();
    }
    return s._h;
  }
  function applyFilter() {
    var terms = box.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    matches = S.filter(function (s) {
      if (only.checked && !(s.c > 0 || s.e > 0)) return false;
      var hay = haystack(s);
      return terms.every(function (t) { return hay.indexOf(t) >= 0; });
    });
    list.textContent = "";
    shown = 0;
    renderMore(terms.length === 0);
    count.textContent = matches.length + " of " + S.length + " sentences" +
      (D.total > S.length ? " (" + D.total + " in the corpus; the report keeps the " +
       S.length + " worst)" : "");
  }
  function renderMore(openFirst) {
    var end = Math.min(matches.length, shown + BATCH);
    var frag = document.createDocumentFragment(), toOpen = [];
    for (var i = shown; i < end; i++) {
      var row = makeRow(matches[i]);
      frag.appendChild(row.node);
      if (openFirst && i < OPEN_FIRST) toOpen.push(row);
    }
    list.appendChild(frag);
    toOpen.forEach(function (row) { row.node.open = true; row.draw(); });
    shown = end;
    more.hidden = shown >= matches.length;
  }
  function makeRow(s) {
    var d = h("details", "sent");
    d.setAttribute("data-rank", s.k);
    d.setAttribute("data-id", s.id);
    var sm = h("summary");
    sm.appendChild(h("span", "rk", "#" + s.k));
    sm.appendChild(h("span", "sid", s.id));
    sm.appendChild(h("span", "share", (100 * s.c).toFixed(2) + "% of D_o"));
    sm.appendChild(h("span", "ted", "TED " + s.e));
    sm.appendChild(h("span", "doc", s.doc));
    sm.appendChild(h("span", "txt", s.t));
    d.appendChild(sm);
    var body = h("div", "diagram");
    d.appendChild(body);
    function draw() {
      if (body.firstChild) return;
      drawSentence(s, body);
      markWide(s, body);
    }
    d.addEventListener("toggle", function () { if (d.open) draw(); });
    return {node: d, draw: draw};
  }
  // A drawing wider than its panel scrolls inside it; the panel then gets a
  // frame and a shadow at its right edge, and a line under it says so.
  function markWide(s, body) {
    var widest = 0;
    body.querySelectorAll("svg").forEach(function (g) {
      widest = Math.max(widest, +g.getAttribute("width") || 0);
    });
    if (widest <= body.clientWidth) return;
    body.classList.add("wide");
    var n = s.f ? s.f.length : (s.F ? s.F[0].length : (s.p ? s.p[0].n.length : 0));
    var what = s.p ? "nodes" : "words";
    body.parentNode.insertBefore(h("p", "wide-note", "\u2194 " + n + " " + what +
      ", " + Math.round(widest) + " px wide: scroll sideways inside the frame (shift + " +
      "wheel) to see the rest."), body.nextSibling);
  }
  // the annotator's name, repeated along a wide drawing so that it stays in view
  function names(root, W, y, text) {
    for (var x = 4; x === 4 || x < W - 160; x += 900) {
      root.appendChild(svg("text", {x: x, y: y, "class": "ann-name"}, text));
    }
  }
  function differs(s, j, w) {
    if (s.F) return {head: false, label: false};
    var hd = false, lb = false;
    for (var o = 0; o < s.h.length; o++) {
      if (o === j) continue;
      if (s.h[o][w] !== s.h[j][w]) hd = true;
      if (s.l[o][w] !== s.l[j][w]) lb = true;
    }
    return {head: hd, label: lb};
  }
  function levels(heads) {
    var arcs = [];
    heads.forEach(function (hh, i) {
      if (hh > 0) arcs.push({lo: Math.min(hh, i + 1), hi: Math.max(hh, i + 1), w: i});
    });
    arcs.sort(function (a, b) { return (a.hi - a.lo) - (b.hi - b.lo); });
    var lev = {};
    arcs.forEach(function (a, i) {
      var L = 1;
      for (var j = 0; j < i; j++) {
        var b = arcs[j];
        if (b.lo >= a.lo && b.hi <= a.hi && lev[b.w] + 1 > L) L = lev[b.w] + 1;
      }
      lev[a.w] = Math.min(L, 24);
    });
    return lev;
  }
  function drawSentence(s, body) {
    if (s.p) {
      drawPhrase(s, body);
      return;
    }
    var m = s.a.length;
    if (m === 2 && !s.F) body.appendChild(diagram(s, [0, 1]));
    else for (var j = 0; j < m; j++) body.appendChild(diagram(s, [j]));
    if (s.F) body.appendChild(h("p", "words", "The annotators tokenised this sentence " +
      "differently; words cannot be compared one to one."));
    else if (s.x.length) {
      var parts = s.x.map(function (w) {
        var hs = s.h.map(function (r) { return r[w - 1]; }).join("/");
        var ls = s.l.map(function (r) { return LAB[r[w - 1]]; }).join("/");
        return w + " " + s.f[w - 1] + " (head " + hs + ", label " + ls + ")";
      });
      body.appendChild(h("p", "words", "Differing words (" +
        s.a.map(function (ai) { return ANN[ai]; }).join("/") + "): " + parts.join("; ")));
    }
  }
  // ---- phrase structure: one tree per annotator, stacked ----------------
  // s.p[j]: n labels in preorder, u parent of each (-1: root), d the nodes
  // whose labelled bracket is missing from other trees ([node, j', ...]),
  // w the words under the leaves (Penn input).  Leaves sit in one row at the
  // bottom, in order, in columns shared by the trees when their leaf counts
  // agree; edges are orthogonal (parent, a bar over the children, each
  // child), so they never cross.  Walks are loops: trees may nest deeply.
  function textW(str, px) {
    var w = 0;
    for (var i = 0; i < str.length; i++) w += str.charCodeAt(i) > 0x2e80 ? px * 1.05 : px * 0.6;
    return w;
  }
  function phraseShape(t) {
    var n = t.n.length, depth = [], kids = [], first = [], last = [], leaves = [], miss = {};
    var i;
    for (i = 0; i < n; i++) { kids.push([]); first.push(-1); last.push(-1); }
    for (i = 0; i < n; i++) {
      depth.push(t.u[i] < 0 ? 0 : depth[t.u[i]] + 1);
      if (t.u[i] >= 0) kids[t.u[i]].push(i);
    }
    for (i = 0; i < n; i++) {
      if (!kids[i].length) { first[i] = last[i] = leaves.length; leaves.push(i); }
    }
    for (i = n - 1; i > 0; i--) {  // children come after their parent in preorder
      var u = t.u[i];
      if (first[u] < 0 || first[i] < first[u]) first[u] = first[i];
      if (last[i] > last[u]) last[u] = last[i];
    }
    t.d.forEach(function (row) { miss[row[0]] = row.slice(1); });
    var rows = 0;
    for (i = 0; i < n; i++) if (depth[i] > rows) rows = depth[i];
    return {t: t, n: n, depth: depth, kids: kids, first: first, last: last, leaves: leaves,
            miss: miss, rows: rows};
  }
  function labelW(lab) { return textW(lab, 12) + 8; }
  function leafCentres(cols) {
    var xs = [], x = 8;
    for (var c = 0; c < cols.w.length; c++) {
      x += cols.pad[c];
      xs.push(x + cols.w[c] / 2);
      x += cols.w[c];
    }
    return {xs: xs, width: x + 8};
  }
  function nodeCentres(sh, xs) {
    var nx = new Array(sh.n);
    for (var i = sh.n - 1; i >= 0; i--) {  // children first: centred over them
      var kd = sh.kids[i];
      nx[i] = kd.length ? (nx[kd[0]] + nx[kd[kd.length - 1]]) / 2 : xs[sh.first[i]];
    }
    return nx;
  }
  function phraseColumns(shapes) {
    // one column per leaf, as wide as its label and word; then, while two
    // labels of a row overlap, space is put before the first leaf after the
    // left one (which moves the right one and never brings two labels closer)
    var k = shapes[0].leaves.length, cols = {w: [], pad: []}, c;
    for (c = 0; c < k; c++) { cols.w.push(24); cols.pad.push(0); }
    shapes.forEach(function (sh) {
      sh.leaves.forEach(function (node, c) {
        cols.w[c] = Math.max(cols.w[c], labelW(sh.t.n[node]) + 4);
        if (sh.t.w) cols.w[c] = Math.max(cols.w[c], textW(sh.t.w[c], 12) + 12);
      });
    });
    var rows = shapes.map(function (sh) {
      var byRow = {};
      for (var v = 0; v < sh.n; v++) {
        var r = sh.kids[v].length ? sh.depth[v] : sh.rows;
        (byRow[r] = byRow[r] || []).push(v);  // preorder: left to right in a row
      }
      return byRow;
    });
    for (var pass = 0; pass < 50; pass++) {
      var moved = false;
      shapes.forEach(function (sh, j) {
        for (var r in rows[j]) {
          var row = rows[j][r];
          if (row.length < 2) continue;
          // (a pad moves every node right of it alike: one layout per row will do)
          var nx = nodeCentres(sh, leafCentres(cols).xs);
          for (var q = 1; q < row.length; q++) {
            var a = row[q - 1], b = row[q];
            var need = (labelW(sh.t.n[a]) + labelW(sh.t.n[b])) / 2 + 4 - (nx[b] - nx[a]);
            if (need > 0.01) { cols.pad[sh.last[a] + 1] += need; moved = true; }
          }
        }
      });
      if (!moved) break;
    }
    return cols;
  }
  function drawPhrase(s, body) {
    var shapes = s.p.map(phraseShape), same = true;
    shapes.forEach(function (sh) {
      if (sh.leaves.length !== shapes[0].leaves.length) same = false;
    });
    var shared = same ? phraseColumns(shapes) : null;
    shapes.forEach(function (sh, j) {
      body.appendChild(phraseTree(s, j, sh, shared || phraseColumns([sh])));
    });
    var notes = [];
    shapes.forEach(function (sh, j) {
      var items = sh.t.d.map(function (row) {
        var v = row[0], a = sh.first[v] + 1, b = sh.last[v] + 1;
        return sh.t.n[v] + " " + (a === b ? a : a + "\u2013" + b) + " (not in " +
          row.slice(1).map(function (o) { return ANN[s.a[o]]; }).join(", ") + ")";
      });
      if (items.length) notes.push(ANN[s.a[j]] + ": " + items.join(", "));
    });
    if (!same) body.appendChild(h("p", "words", "The trees have different numbers of " +
      "leaves; brackets are compared by leaf position."));
    if (notes.length) body.appendChild(h("p", "words", "Constituents not in every tree " +
      "(label, first\u2013last leaf): " + notes.join("; ")));
    s.a.forEach(function (ai, j) {
      body.appendChild(h("pre", "brackets", ANN[ai] + ": " + s.b[j]));
    });
  }
  function phraseTree(s, j, sh, cols) {
    var t = sh.t, ROW = 34, TOP = 36, i, name = ANN[s.a[j]];
    var lc = leafCentres(cols), xs = lc.xs, nx = nodeCentres(sh, xs), ny = new Array(sh.n);
    var W = Math.ceil(Math.max(lc.width, textW(name, 11) + 12));
    for (i = 0; i < sh.n; i++) ny[i] = TOP + (sh.kids[i].length ? sh.depth[i] : sh.rows) * ROW;
    var yWords = TOP + sh.rows * ROW + 32;
    var H = yWords + (t.w ? 6 : -14);
    var root = svg("svg", {"class": "phrase", width: W, height: H, viewBox: "0 0 " + W + " " + H,
                           "data-annotator": name});
    names(root, W, 13, name);
    var edges = svg("g", {"class": "edges"}), red = [];
    for (i = 1; i < sh.n; i++) {  // parent, bar over the children, child
      var u = t.u[i], yBar = ny[u] + 6 + (ROW - 6 - 12) / 2;
      var d = "M" + nx[u] + "," + (ny[u] + 6) + " V" + yBar + " H" + nx[i] + " V" + (ny[i] - 12);
      var e = svg("path", {d: d, "class": "edge" + (sh.miss[i] ? " diff" : "")});
      if (sh.miss[i]) red.push(e); else edges.appendChild(e);
    }
    red.forEach(function (e) { edges.appendChild(e); });  // drawn on top
    root.appendChild(edges);
    for (i = 0; i < sh.n; i++) {
      var lab = t.n[i], leaf = !sh.kids[i].length, m = sh.miss[i];
      var a = sh.first[i] + 1, b = sh.last[i] + 1, w = labelW(lab);
      var g = svg("g", {"class": "con" + (leaf ? " leaf" : "") + (m ? " diff" : ""),
                        "data-span": a + "-" + b, "data-label": lab});
      g.appendChild(svg("rect", {x: nx[i] - w / 2, y: ny[i] - 12, width: w, height: 17,
                                 rx: 3}));
      g.appendChild(svg("text", {x: nx[i], y: ny[i], "text-anchor": "middle"}, lab));
      var words = t.w ? " (" + t.w.slice(a - 1, b).join(" ") + ")" : "";
      g.appendChild(svg("title", {}, name + ": " + lab + ", leaves " +
        (a === b ? a : a + "\u2013" + b) + words + (m ? " \u2014 not in " +
        m.map(function (o) { return ANN[s.a[o]]; }).join(", ") : "")));
      root.appendChild(g);
    }
    if (t.w) t.w.forEach(function (wd, c) {
      root.appendChild(svg("text", {x: xs[c], y: yWords, "text-anchor": "middle",
                                    "class": "word"}, wd));
    });
    return root;
  }
  function diagram(s, which) {
    var forms = s.F ? s.F[which[0]] : s.f, n = forms.length;
    var xs = [], x = 70;
    for (var i = 0; i < n; i++) {
      var w = Math.max(34, forms[i].length * 7.4 + 14);
      xs.push(x + w / 2);
      x += w;
    }
    var W = x + 20, UNIT = 15, mirrored = which.length === 2;
    var levs = which.map(function (j) { return levels(s.h[j]); });
    function maxLev(lv) { var M = 0; for (var k in lv) if (lv[k] > M) M = lv[k]; return M; }
    var up = (maxLev(levs[0]) + 1) * UNIT + 22;
    var down = mirrored ? (maxLev(levs[1]) + 1) * UNIT + 22 : 0;
    var yTok = up + 16, H = yTok + 8 + (mirrored ? down + 8 : 6);
    var root = svg("svg", {"class": "dep" + (mirrored ? " mirrored" : ""), width: W,
                           height: H, viewBox: "0 0 " + W + " " + H});
    var diffWords = {};
    which.forEach(function (j) {
      for (var wi = 0; wi < n; wi++) {
        var df = differs(s, j, wi);
        if (df.head || df.label) diffWords[wi] = true;
      }
    });
    for (var t = 0; t < n; t++) {
      var tok = svg("text", {x: xs[t], y: yTok, "text-anchor": "middle",
                             "class": "tok" + (diffWords[t] ? " diff" : "")}, forms[t]);
      tok.appendChild(svg("title", {}, (t + 1) + " " + forms[t]));
      root.appendChild(tok);
    }
    which.forEach(function (j, side) {
      var dir = side === 0 ? -1 : 1;
      var base = side === 0 ? up : yTok + 8;
      var span = side === 0 ? up - 10 : down - 10;
      var g = svg("g", {"class": "ann", "data-annotator": ANN[s.a[j]]});
      names(g, W, side === 0 ? 12 : H - 5,
            ANN[s.a[j]] + (mirrored ? (side === 0 ? " \u25B2" : " \u25BC") : ""));
      var heads = s.h[j], labs = s.l[j], lv = levs[side];
      for (var w = 0; w < n; w++) {
        var hd = heads[w], lab = LAB[labs[w]], df = differs(s, j, w);
        var dcls = (df.head || df.label) ? " diff" : "";
        var cls = "arc" + dcls + (df.head ? " diff-head" : "") + (df.label ? " diff-label" : "");
        var xd = xs[w], path, lx, ly, tip;
        if (hd === 0) {
          var yEnd = base + dir * span;
          path = "M" + xd + "," + yEnd + " L" + xd + "," + base;
          lx = xd; ly = yEnd + (dir < 0 ? 10 : -3);
          tip = ANN[s.a[j]] + ": ROOT \u2192 " + forms[w] + " (" + lab + ")";
        } else {
          var xh = xs[hd - 1], hh = ((lv[w] || 1) * UNIT + 6) / 0.75;
          var yc = base + dir * hh;
          path = "M" + xh + "," + base + " C" + xh + "," + yc + " " + xd + "," + yc + " " +
                 xd + "," + base;
          lx = (xh + xd) / 2; ly = base + dir * hh * 0.75 + (dir < 0 ? -2 : 10);
          tip = ANN[s.a[j]] + ": " + forms[hd - 1] + " \u2192 " + forms[w] + " (" + lab + ")";
        }
        var p = svg("path", {d: path, "class": cls, "data-word": w + 1});
        p.appendChild(svg("title", {}, tip));
        g.appendChild(p);
        var a = 4;
        g.appendChild(svg("polygon", {"class": "arrow" + dcls, points:
          (xd - a) + "," + (base + dir * 2 * a) + " " + (xd + a) + "," + (base + dir * 2 * a) +
          " " + xd + "," + base}));
        g.appendChild(svg("text", {x: lx, y: ly, "text-anchor": "middle",
                                   "class": "lab" + (df.label ? " diff" : "")}, lab));
      }
      root.appendChild(g);
    });
    return root;
  }
  var timer = null;
  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(applyFilter, 150);
  });
  only.addEventListener("change", applyFilter);
  more.addEventListener("click", function () { renderMore(false); });
  if ("IntersectionObserver" in window) {
    new IntersectionObserver(function (entries) {
      entries.forEach(function (en) { if (en.isIntersecting && !more.hidden) renderMore(false); });
    }, {rootMargin: "400px"}).observe(more);
  }
  // a link may carry a filter: report.html#q=WORDS (and &only=1)
  var hq = /^#q=([^&]*)(&only=1)?/.exec(window.location.hash || "");
  if (hq) {
    box.value = decodeURIComponent(hq[1].replace(/\+/g, " "));
    only.checked = !!hq[2];
  }
  applyFilter();
  document.body.setAttribute("data-rendered", "1");
})();
