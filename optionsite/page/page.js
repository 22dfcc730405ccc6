// The options page of nodegen: search, tree, copy, host values. The index
// (options-index.js) sets window.NODEGEN_OPTIONS; served over HTTP, the
// page falls back to options-index.json when that script is missing.
"use strict";
(function () {
  const PAGE = 50;
  let index = null, opts = [], byPath = new Map();
  let shown = PAGE, lastResults = [];
  const $ = (id) => document.getElementById(id);

  // splitPath splits an option path into its segments, a quoted segment
  // ("a.b") being one.
  function splitPath(p) {
    const segs = [];
    let cur = "", quoted = false;
    for (let i = 0; i < p.length; i++) {
      const c = p[i];
      if (quoted) {
        if (c === "\\" && i + 1 < p.length) { cur += p[++i]; continue; }
        if (c === '"') { quoted = false; continue; }
        cur += c;
      } else if (c === '"') {
        quoted = true;
      } else if (c === ".") {
        segs.push(cur); cur = "";
      } else {
        cur += c;
      }
    }
    segs.push(cur);
    return segs;
  }

  // words splits a segment at camelCase humps, digits, _ and -:
  // allowedTCPPorts is allowed, tcp, ports.
  function words(seg) {
    return seg.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .split(/[\s_\-]+/).filter(Boolean).map((w) => w.toLowerCase());
  }

  function prepare(o, i) {
    o.i = i;
    o.segs = splitPath(o.path);
    o.lsegs = o.segs.map((s) => s.toLowerCase());
    o.lwords = [].concat(...o.segs.map(words));
    o.last = o.lsegs[o.lsegs.length - 1];
    o.lastWords = words(o.segs[o.segs.length - 1]);
    o.placeholders = o.segs.filter((s) => s === "<name>" || s === "*").length;
    o.lpath = o.path.toLowerCase();
    o.ldesc = (o.description || "").toLowerCase();
    o.isEnable = o.segs[o.segs.length - 1] === "enable";
  }

  function tokenize(q) {
    return q.toLowerCase().split(/[\s.]+/).filter(Boolean);
  }

  // score ranks o for the query: the tier first (4 the exact path, 3 an
  // enable option whose path has every word, 2 a path with every word,
  // 1 words found in the description too), then how well the words match
  // the path, less for options inside submodules. It returns null when a
  // word is nowhere.
  function score(o, lq, toks) {
    const normalized = toks.join(".");
    if (o.lpath === lq || o.lsegs.join(".") === normalized) return [4, 0];
    let pathScore = 0, inPath = true, strong = true;
    for (const t of toks) {
      let best = 0;
      for (const s of o.lsegs) {
        if (s === t) best = Math.max(best, 10);
        else if (s.startsWith(t)) best = Math.max(best, 7);
      }
      for (const w of o.lwords) {
        if (w === t) best = Math.max(best, 8);
        else if (w.startsWith(t)) best = Math.max(best, 6);
      }
      if (best === 0 && o.lpath.includes(t)) best = 3;
      if (best > 0 && (o.last.startsWith(t) || o.lastWords.some((w) => w.startsWith(t)))) best += 2;
      if (best === 0) {
        if (!o.ldesc.includes(t)) return null;
        inPath = false;
      } else if (best < 6) {
        strong = false;
      }
      pathScore += best;
    }
    if (o.lpath.startsWith(lq)) pathScore += 5;
    // An option inside submodules (<name>, *) is rarely the one sought
    // before the options that hold it.
    pathScore -= 5 * o.placeholders;
    let tier = 1;
    if (inPath) tier = o.isEnable && strong ? 3 : 2;
    return [tier, pathScore];
  }

  function search(q) {
    const lq = q.trim().toLowerCase();
    const toks = tokenize(lq);
    const hostFilter = onlySetHosts();
    let pool = opts;
    if (hostFilter) pool = opts.filter((o) => hostFilter.some((h) => h.values[o.i] && h.values[o.i].set));
    if (toks.length === 0) return pool.slice();
    const hits = [];
    for (const o of pool) {
      const s = score(o, lq, toks);
      if (s) hits.push({ o, tier: s[0], score: s[1] });
    }
    hits.sort((a, b) => b.tier - a.tier || b.score - a.score ||
      a.o.segs.length - b.o.segs.length || a.o.path.length - b.o.path.length ||
      (a.o.path < b.o.path ? -1 : a.o.path > b.o.path ? 1 : 0));
    return hits.map((h) => h.o);
  }

  // el makes an element: el("a", {href: "#x"}, "text", child...).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "class") e.className = attrs[k];
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    for (const c of children) {
      if (c == null) continue;
      e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }

  function copy(text, what) {
    window.nodegenLastCopied = text;
    const done = () => {
      const c = $("copied");
      c.textContent = "Copied " + what + ":\n" + text;
      c.hidden = false;
      clearTimeout(copy.timer);
      copy.timer = setTimeout(() => { c.hidden = true; }, 2500);
    };
    const fallback = () => {
      const ta = el("textarea", {}, text);
      document.body.append(ta);
      ta.select();
      try { document.execCommand("copy"); } catch (e) { /* the status still shows the text */ }
      ta.remove();
      done();
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  }

  function selectedHosts() {
    if (!index.hosts.length) return [];
    const v = $("host").value;
    return v === "" ? index.hosts : index.hosts.filter((h) => h.name === v);
  }

  function onlySetHosts() {
    return index.hosts.length && $("onlyset").checked ? selectedHosts() : null;
  }

  function hostSection(h, o) {
    const v = h.values[o.i];
    const sec = el("div", { class: "host" + (v && v.set ? " set" : ""), "data-host": h.name });
    sec.append(el("h3", {}, h.name, v && v.set ? el("span", { class: "badge set" }, "set by the host") : null));
    if (!v) {
      sec.append(el("div", { class: "value none" },
        o.segs.some((s) => s === "<name>" || s === "*") ? "(a value per instance: see the option holding them)" : "(no value: no definition and no default)"));
      return sec;
    }
    if (v.defined) sec.append(el("pre", { class: "value" }, v.text));
    else sec.append(el("div", { class: "value none" }, "(no value)"));
    if (v.error) sec.append(el("div", { class: "error" }, v.error));
    if (v.definitions && v.definitions.length) {
      const t = el("table", { class: "defs" });
      for (const d of v.definitions) {
        t.append(el("tr", { class: "def" },
          el("td", { class: "state-" + d.state }, d.state),
          el("td", {}, d.priority != null ? "priority " + d.priority : ""),
          el("td", { class: "at" }, el("code", {}, d.at)),
          el("td", {}, el("code", {}, d.value), d.default ? " (the default)" : "",
            d.condition ? el("div", {}, "condition is false: ", el("code", {}, d.condition)) : null)));
      }
      sec.append(t);
    }
    return sec;
  }

  function card(o, selected) {
    const badges = [];
    if (o.read_only) badges.push(el("span", { class: "badge" }, "read-only"));
    for (const h of selectedHosts()) {
      if (h.values[o.i] && h.values[o.i].set) badges.push(el("span", { class: "badge set", title: h.name }, "set by " + h.name));
    }
    const d = el("dl", {},
      el("dt", {}, "Type"), el("dd", {}, el("code", {}, o.type)));
    if (o.default != null) {
      d.append(el("dt", {}, "Default"), el("dd", {}, o.default_is_text ? o.default : el("pre", {}, o.default)));
    }
    if (o.example != null) d.append(el("dt", {}, "Example"), el("dd", {}, el("pre", {}, o.example)));
    if (o.read_only) d.append(el("dt", {}, "Read-only"), el("dd", {}, "more than one definition (the default counts) is an error"));
    d.append(el("dt", {}, "Declared in"), el("dd", {}, el("code", {}, o.declared)));
    const c = el("article", { class: "opt" + (selected ? " selected" : ""), "data-path": o.path },
      el("h2", {}, el("a", { href: "#" + encodeURIComponent(o.path) }, o.path), ...badges),
      o.description ? el("div", { class: "desc" }, o.description) : null,
      d,
      el("details", { class: "snippet" }, el("summary", {}, "HCL"), el("pre", {}, o.snippet)),
      el("div", { class: "actions" },
        el("button", { class: "copy-hcl", onclick: () => copy(o.snippet, "HCL") }, "Copy HCL"),
        el("button", { class: "copy-path", onclick: () => copy(o.path, "path") }, "Copy path")));
    for (const h of selectedHosts()) c.append(hostSection(h, o));
    return c;
  }

  // Cards are made once per option and kept, until the hosts shown
  // change.
  let cards = new Map();
  function cachedCard(o) {
    let c = cards.get(o.i);
    if (!c) { c = card(o, false); cards.set(o.i, c); }
    return c;
  }

  // render searches and draws the results; the Performance API measures
  // nodegen-search (ranking) and nodegen-keystroke (ranking and drawing).
  function render() {
    const t0 = performance.now();
    const q = $("q").value;
    lastResults = search(q);
    const t1 = performance.now();
    const res = $("results");
    res.replaceChildren(...lastResults.slice(0, shown).map(cachedCard));
    $("more").hidden = lastResults.length <= shown;
    $("count").textContent = lastResults.length + (lastResults.length === 1 ? " option" : " options");
    const t2 = performance.now();
    performance.measure("nodegen-search", { start: t0, end: t1 });
    performance.measure("nodegen-keystroke", { start: t0, end: t2 });
  }

  function renderDetail() {
    const path = decodeURIComponent(location.hash.slice(1));
    const det = $("detail");
    const o = byPath.get(path);
    if (!o) { det.replaceChildren(); return; }
    det.replaceChildren(card(o, true));
    openTreeTo(o);
    det.scrollIntoView({ block: "nearest" });
  }

  // The tree: a node per namespace, its children made when it is opened.
  function buildTree() {
    const root = { name: "", path: [], kids: new Map(), option: null, count: 0 };
    for (const o of opts) {
      let n = root;
      n.count++;
      for (let i = 0; i < o.segs.length; i++) {
        const s = o.segs[i];
        if (!n.kids.has(s)) n.kids.set(s, { name: s, path: o.segs.slice(0, i + 1), kids: new Map(), option: null, count: 0 });
        n = n.kids.get(s);
        n.count++;
      }
      n.option = o;
    }
    return root;
  }

  function treeList(node) {
    const ul = el("ul", {});
    const kids = [...node.kids.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const k of kids) ul.append(treeItem(k));
    return ul;
  }

  function setMark(o) {
    if (!o) return null;
    return selectedHosts().some((h) => h.values[o.i] && h.values[o.i].set) ? el("span", { class: "setmark", title: "set by the host" }, " ●") : null;
  }

  function treeItem(k) {
    const link = k.option ? el("a", { href: "#" + encodeURIComponent(k.option.path) }, k.name) : k.name;
    if (k.kids.size === 0) return el("li", { "data-ns": k.path.join(".") }, link, setMark(k.option));
    const det = el("details", { "data-ns": k.path.join(".") },
      el("summary", {}, link, setMark(k.option), " ", el("span", { class: "n" }, "(" + k.count + ")")));
    det.addEventListener("toggle", () => {
      if (det.open && det.children.length === 1) det.append(treeList(k));
    });
    return el("li", {}, det);
  }

  let treeRoot = null;
  function renderTree() {
    $("tree").replaceChildren(treeList(treeRoot));
  }

  function openTreeTo(o) {
    let node = treeRoot;
    for (let i = 0; i < o.segs.length - 1; i++) {
      node = node.kids.get(o.segs[i]);
      if (!node) return;
      const det = [...$("tree").querySelectorAll("details")].find((d) => d.dataset.ns === node.path.join("."));
      if (det && !det.open) {
        det.open = true;
        if (det.children.length === 1) det.append(treeList(node));
      }
    }
  }

  function syncURL() {
    const params = new URLSearchParams(location.search);
    const q = $("q").value;
    if (q) params.set("q", q); else params.delete("q");
    if (index.hosts.length && $("host").value) params.set("host", $("host").value); else params.delete("host");
    const s = params.toString();
    history.replaceState(null, "", (s ? "?" + s : location.pathname) + location.hash);
  }

  function start(data) {
    index = data;
    opts = index.options;
    opts.forEach(prepare);
    for (const o of opts) byPath.set(o.path, o);
    const params = new URLSearchParams(location.search);
    if (index.hosts.length) {
      $("hostbar").hidden = false;
      const sel = $("host");
      sel.append(el("option", { value: "" }, "all hosts"));
      for (const h of index.hosts) sel.append(el("option", { value: h.name }, h.name));
      if (params.get("host") && index.hosts.some((h) => h.name === params.get("host"))) sel.value = params.get("host");
      const redraw = () => { syncURL(); shown = PAGE; cards = new Map(); renderTree(); render(); renderDetail(); };
      sel.addEventListener("change", redraw);
      $("onlyset").addEventListener("change", redraw);
    }
    $("q").value = params.get("q") || "";
    $("q").addEventListener("input", () => { shown = PAGE; render(); syncURL(); });
    // Enter opens the first result; / goes back to the search box.
    $("q").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && lastResults.length) location.hash = encodeURIComponent(lastResults[0].path);
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "/" && document.activeElement !== $("q")) { e.preventDefault(); $("q").focus(); $("q").select(); }
    });
    $("more").addEventListener("click", () => { shown += PAGE * 4; render(); });
    window.addEventListener("hashchange", renderDetail);
    treeRoot = buildTree();
    renderTree();
    render();
    renderDetail();
    document.body.dataset.ready = "true";
  }

  // For tests and benchmarks: rank a query without touching the page.
  window.nodegenSearch = (q) => search(q).map((o) => o.path);

  if (window.NODEGEN_OPTIONS) {
    start(window.NODEGEN_OPTIONS);
  } else {
    fetch("options-index.json").then((r) => r.json()).then(start, (e) => {
      $("results").textContent = "The index (options-index.js or options-index.json) could not be loaded: " + e;
    });
  }
})();
