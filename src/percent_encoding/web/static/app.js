// The percent web tool.  Everything from the user or the URL is put on the page with
// textContent / value / setAttribute, never parsed as markup, so it can only ever show as text.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const state = { mode: "encode", scheme: "component", encoding: "UTF-8", context: "query" };
  let meta = null;
  let seq = 0;
  let timer = 0;

  // -- small DOM helpers ---------------------------------------------------------
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k === "title") node.title = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) {
      if (c !== null && c !== undefined) node.append(c);
    }
    return node;
  }

  async function getJSON(url, body) {
    const init = body === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    };
    const r = await fetch(url, init);
    const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
    return data;
  }

  // The spec citation: its first URL becomes the link, the whole citation its title.
  function specLink(a, spec) {
    a.textContent = "";
    a.removeAttribute("href");
    a.title = spec || "";
    if (!spec) return;
    const m = spec.match(/https?:\/\/[^\s)]+/);
    if (m) {
      a.href = m[0];
      const before = spec.slice(0, m.index).trim();
      const short = m[0].replace(/^https?:\/\/(www\.)?/, "");
      a.textContent = before ? before : (short.length > 60 ? short.slice(0, 59) + "…" : short);
    } else {
      a.textContent = spec;
    }
  }

  // -- copy ----------------------------------------------------------------------
  async function copyText(text, button) {
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch (_) {
      const ta = el("textarea", { class: "offscreen", "aria-hidden": "true" });
      ta.value = text;
      document.body.append(ta);
      ta.select();
      try { ok = document.execCommand("copy"); } catch (_e) { ok = false; }
      ta.remove();
    }
    if (button) {
      const old = button.dataset.label || button.textContent;
      button.dataset.label = old;
      button.textContent = ok ? "Copied ✓" : "Copy failed";
      button.classList.toggle("done", ok);
      setTimeout(() => { button.textContent = old; button.classList.remove("done"); }, 1200);
    }
  }

  function copyButton(getText, label) {
    return el("button", {
      type: "button", class: "copy", title: "Copy to the clipboard",
      onclick: (ev) => copyText(getText(), ev.currentTarget),
    }, label || "Copy");
  }

  // -- state <-> URL -------------------------------------------------------------
  function readURL() {
    const p = new URLSearchParams(location.search);
    if (p.has("input")) $("input").value = p.get("input");
    if (p.get("mode") === "decode") state.mode = "decode";
    if (p.get("scheme")) state.scheme = p.get("scheme");
    if (p.get("encoding")) state.encoding = p.get("encoding");
    if (p.get("context")) state.context = p.get("context");
  }

  // A link holds the input only up to SHARE_MAX bytes of UTF-8: a megabyte pasted into
  // the box must not become a megabyte-long address (the link keeps the settings).
  const SHARE_MAX = 4096;
  const utf8Length = (text) => new TextEncoder().encode(text).length;
  function shareable(text) { return text.length <= SHARE_MAX && utf8Length(text) <= SHARE_MAX; }

  function shareURL() {
    const p = new URLSearchParams();
    if (shareable($("input").value)) p.set("input", $("input").value);
    p.set("scheme", state.scheme);
    if (state.mode !== "encode") p.set("mode", state.mode);
    if (state.encoding !== "UTF-8") p.set("encoding", state.encoding);
    if (state.mode === "decode" && state.context !== "query") p.set("context", state.context);
    return `${location.origin}/?${p.toString()}${location.hash}`;
  }

  // -- menus ---------------------------------------------------------------------
  function fillSchemes() {
    const sel = $("scheme");
    sel.replaceChildren();
    const groups = new Map();
    for (const s of meta.schemes) {
      const fam = s.family || "other";
      if (!groups.has(fam)) groups.set(fam, el("optgroup", { label: fam }));
      groups.get(fam).append(el("option", { value: s.name, text: s.name }));
    }
    const registered = new Set(meta.schemes.map((s) => s.name));
    const sets = el("optgroup", { label: "encode sets (plain UTF-8 percent-encoding)" });
    for (const s of meta.sets) {
      if (!registered.has(s.name)) sets.append(el("option", { value: s.name, text: s.name }));
    }
    sel.append(sets, ...groups.values());
    ensureOption(sel, state.scheme);
    sel.value = state.scheme;
  }

  function ensureOption(sel, value) {
    if (![...sel.options].some((o) => o.value === value)) {
      sel.append(el("option", { value, text: value }));
    }
  }

  function fillEncodings() {
    const sel = $("encoding");
    sel.replaceChildren();
    if (state.mode === "decode") {
      sel.append(el("option", { value: "auto", text: "auto-detect" }));
    }
    for (const name of meta.encodings) sel.append(el("option", { value: name, text: name }));
    if (state.encoding === "auto" && state.mode !== "decode") state.encoding = "UTF-8";
    // A label from a link may be any alias ("sjis"): the server answers with the
    // canonical name (see update), or with an error, and then UTF-8 it is.
    const known = [...sel.options].find((o) => o.value.toLowerCase() === state.encoding.toLowerCase());
    if (known) state.encoding = known.value;
    else sel.append(el("option", { value: state.encoding, text: state.encoding, class: "alias" }));
    sel.value = state.encoding;
  }

  // Where the text lives, for detect.diagnose and detect.space_convention.
  const CONTEXT_LABELS = {
    query: "a URL query", form: "a form body", path: "a URL path",
    fragment: "a URL fragment", component: "one component (encodeURIComponent)",
  };

  function fillContexts() {
    const sel = $("context");
    sel.replaceChildren(...meta.contexts.map((c) => el("option", { value: c, text: CONTEXT_LABELS[c] || c })));
    ensureOption(sel, state.context);
    sel.value = state.context;
  }

  const SAMPLES = {
    encode: ["café au lait", "a+b=c&d/e?f", "ア", "100% ✓", "\"><script>"],
    decode: ["caf%C3%A9+au+lait", "%83A", "%25E2%2582%25AC", "100%", "%u00E9"],
  };

  function fillSamples() {
    const chips = SAMPLES[state.mode].map((text) => el("button", {
      type: "button", class: "sample", title: "Try this",
      onclick: () => { $("input").value = text; schedule(0); $("input").focus(); },
    }, text));
    $("samples").replaceChildren(...chips);
  }

  function setMode(mode) {
    state.mode = mode;
    for (const b of document.querySelectorAll("[data-mode]")) {
      b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
    }
    $("input").placeholder = mode === "encode"
      ? "Type or paste text — e.g. café & crème/brûlée?"
      : "Paste percent-encoded text — e.g. caf%C3%A9+au+lait%21";
    $("results-title").textContent = mode === "encode" ? "Encoded in every scheme" : "Decoded by every scheme";
    fillEncodings();
    fillSamples();
  }

  // -- convert -------------------------------------------------------------------
  function schedule(delay) {
    clearTimeout(timer);
    // Wait longer for big inputs, so a paste of a megabyte is not re-run per keystroke.
    const idle = 120 + Math.min(1500, $("input").value.length / 500);
    timer = setTimeout(update, delay === undefined ? idle : delay);
  }

  // What the command line runs for what the page does, for input too large for the page.
  function cliCommand() {
    const args = [`percent ${state.mode}`];
    if (state.scheme !== "component") args.push(`--scheme ${state.scheme}`);
    if (state.encoding !== "UTF-8") args.push(`--encoding ${state.encoding}`);
    return `${args.join(" ")} < input.txt > output.txt`;
  }

  function megabytes(n) { return `${(n / 1e6).toFixed(2)} MB`; }

  // Too large to send: say so in plain words, and what to use instead.
  function tooLarge(size) {
    const limit = meta.limits.max_body;
    renderPrimary(null);
    $("primary").classList.add("has-error");
    $("primary-note").textContent =
      `This text is ${megabytes(size)} and the web tool takes up to ${megabytes(limit)} ` +
      `(1 MiB) at a time. The percent command takes any size: ${cliCommand()}`;
    $("status").textContent = `⚠ too large for the web tool (${megabytes(size)})`;
    $("results").tBodies[0].replaceChildren();
    $("detect").hidden = true;
    $("primary-copy").disabled = true;
    $("swap").disabled = true;
    document.body.classList.remove("busy");
  }

  async function update() {
    const text = $("input").value;
    const n = [...text].length;
    $("input-stats").textContent = `${n} character${n === 1 ? "" : "s"}` +
      (shareable(text) ? "" : " · too long to put in a link");
    $("share").title = shareable(text) ? "Copy a link that reproduces this page"
      : `Copy a link to these settings (a text over ${SHARE_MAX} bytes is left out of links)`;
    history.replaceState(null, "", shareURL());
    const mine = ++seq;
    const req = { input: text, scheme: state.scheme, encoding: state.encoding };
    if (state.mode === "decode") req.context = state.context;
    const size = utf8Length(JSON.stringify(req));
    if (size > meta.limits.max_body) { tooLarge(size); return; }
    document.body.classList.add("busy");
    try {
      const data = await getJSON(`/api/${state.mode}`, req);
      if (mine !== seq) return;
      $("status").textContent = "";
      if (data.encoding && data.encoding !== state.encoding && meta.encodings.includes(data.encoding)) {
        state.encoding = data.encoding;
        fillEncodings();
        history.replaceState(null, "", shareURL());
      }
      render(data);
    } catch (e) {
      if (mine !== seq) return;
      $("status").textContent = `⚠ ${e.message}`;
      if (state.encoding !== "auto" && !meta.encodings.includes(state.encoding)) {
        state.encoding = "UTF-8";
        fillEncodings();
        schedule(0);
      } else if (state.mode === "decode" && !meta.contexts.includes(state.context)) {
        state.context = "query";  // a context from a link that the server does not know
        fillContexts();
        schedule(0);
      }
    } finally {
      if (mine === seq) document.body.classList.remove("busy");
    }
  }

  // Schemes grouped by family, families in order of first appearance (stable).
  function byFamily(items, fam) {
    const order = new Map();
    items.forEach((it) => { const f = fam(it); if (!order.has(f)) order.set(f, order.size); });
    return items.map((it, i) => [order.get(fam(it)), i, it]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
  }

  // Escapes in a result are tinted so the eye finds what changed; text nodes only.
  function marked(text) {
    const code = el("code", {});
    const re = /(?:%[0-9A-Fa-f]{2})+|%u[0-9A-Fa-f]{4}/g;
    let last = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > last) code.append(text.slice(last, m.index));
      code.append(el("span", { class: "pct", text: m[0] }));
      last = m.index + m[0].length;
    }
    if (last < text.length) code.append(text.slice(last));
    return code;
  }

  function outputCell(r) {
    if (r.error !== undefined) return el("td", { class: "out err" }, el("span", { text: r.error }));
    if (r.na !== undefined) return el("td", { class: "out na", title: r.na, tabindex: "0" }, "n/a — this scheme has its own charset rules");
    return el("td", { class: "out" }, state.mode === "encode" ? marked(r.output) : el("code", { text: r.output }));
  }

  function render(data) {
    const input = data.input === undefined ? $("input").value : data.input;
    const body = $("results").tBodies[0];
    const hideSame = $("hide-same").checked;
    const rows = [];
    let lastFam = null;
    for (const r of byFamily(data.results, (x) => x.family || "other")) {
      const same = r.output !== undefined && r.output === input;
      if (hideSame && same) continue;
      const fam = r.family || "other";
      if (fam !== lastFam) {
        rows.push(el("tr", { class: "fam" }, el("th", { colspan: "3", text: fam })));
        lastFam = fam;
      }
      const tr = el("tr", { class: (r.name === state.scheme ? "selected " : "") + (same ? "same" : "") },
        el("td", { class: "name" },
          el("button", { type: "button", class: "linkish", title: r.spec || "",
            onclick: () => selectScheme(r.name) }, r.name),
          r.docs ? el("a", { class: "docs", href: r.docs, "aria-label": `docs for ${r.name}`, text: "docs" }) : null),
        outputCell(r),
        el("td", { class: "act" }, r.output !== undefined ? copyButton(() => r.output) : null));
      tr.dataset.scheme = r.name;
      rows.push(tr);
    }
    if (data.results_skipped) rows.push(el("tr", {}, el("td", { colspan: "3", class: "na", text: data.results_skipped })));
    body.replaceChildren(...rows);
    renderPrimary(data.primary);
    renderDetect(data);
    highlightGrid();
  }

  function renderPrimary(p) {
    const out = $("primary-output");
    const note = $("primary-note");
    note.textContent = "";
    $("primary").classList.remove("has-error");
    if (!p) { out.textContent = ""; return; }
    $("primary-name").textContent = p.name;
    $("primary-label").textContent = p.family || "";
    specLink($("primary-spec"), p.spec);
    $("primary-docs").href = p.docs || "";
    if (p.output !== undefined) {
      out.textContent = p.output;
      if (p.charset) note.textContent = `decoded as ${p.charset} (auto-detected)`;
      if (p.truncated) note.textContent = (note.textContent ? note.textContent + "; " : "") + p.truncated;
    } else {
      out.textContent = "";
      note.textContent = p.error || p.na || "";
      $("primary").classList.add("has-error");
    }
    $("primary-copy").disabled = p.output === undefined;
    $("swap").disabled = p.output === undefined;
  }

  function renderDetect(data) {
    const box = $("detect");
    if (data.mode !== "decode") { box.hidden = true; return; }
    box.hidden = false;
    const chips = [];
    const d = data.detect || {};
    const errors = d.errors || {};
    if (d.skipped) chips.push(el("span", { class: "chip dim", text: d.skipped }));
    const sc = d.space_convention;
    if (sc) {
      chips.push(el("span", { class: "chip", title: sc.reason || "", tabindex: sc.reason ? "0" : null },
        sc.plus_is_space ? "“+” means a space" : "“+” is a plus sign",
        el("small", { text: sc.confidence ? ` · ${sc.confidence}` : "" })));
    }
    if (Array.isArray(d.charset)) {
      if (d.charset.length === 0) chips.push(el("span", { class: "chip", text: "charset: ASCII only" }));
      for (const g of d.charset.slice(0, 3)) {
        const conf = typeof g.confidence === "number" ? ` ${(g.confidence * 100).toFixed(0)}%` : "";
        chips.push(el("span", { class: "chip", title: g.reason || "", tabindex: g.reason ? "0" : null, text: `charset: ${g.encoding}${conf}` }));
      }
    }
    if (Array.isArray(d.variants) && d.variants.length) {
      const n = d.variants.length;
      const names = n <= 3 ? d.variants.join(", ") : `${n} schemes`;
      chips.push(el("span", { class: "chip", title: d.variants.join(", "), tabindex: "0", text: `could come from ${names}` }));
    }
    // An analysis that could not run on this text says why (e.g. a lone surrogate).
    for (const [key, message] of Object.entries(errors)) {
      chips.push(el("span", { class: "chip dim", title: message, tabindex: "0", text: `${key.replace("_", " ")}: ${message}` }));
    }
    $("detect-chips").replaceChildren(...chips);
    const items = [];
    const findings = Array.isArray(d.findings) ? d.findings : [];
    if (Array.isArray(d.findings) && findings.length === 0) {
      items.push(el("li", { class: "ok", text: "No problems found." }));
    }
    for (const f of findings) {
      items.push(el("li", {},
        el("span", { class: "code", text: f.code }),
        el("span", { class: "where", text: ` [${f.start}–${f.end}] ` }),
        el("span", { text: f.message }),
        f.fix ? el("div", { class: "fix", text: `fix: ${f.fix}` }) : null));
    }
    if (d.findings_count > findings.length) {
      items.push(el("li", { class: "more", text: `… and ${d.findings_count - findings.length} ` +
        `more (${d.findings_count} in all; percent detect lists them all)` }));
    }
    $("detect-findings").replaceChildren(...items);
    $("detect-bytes").textContent = data.bytes === null ? "(too long to show)" : (data.bytes || "(none)");
  }

  function selectScheme(name) {
    state.scheme = name;
    ensureOption($("scheme"), name);
    $("scheme").value = name;
    schedule(0);
  }

  // -- grid ----------------------------------------------------------------------
  const GROUPS = [
    { key: "A–Z", cps: range(0x41, 0x5a) },
    { key: "a–z", cps: range(0x61, 0x7a) },
    { key: "0–9", cps: range(0x30, 0x39) },
    { key: "controls", cps: [...range(0, 0x1f), 0x7f] },
  ];
  function range(a, b) { const r = []; for (let i = a; i <= b; i++) r.push(i); return r; }
  let gridData = null;

  async function loadGrid() {
    try {
      gridData = await getJSON("/api/compare");
      drawGrid();
      document.body.dataset.grid = "1";
    } catch (e) {
      $("grid-table").replaceChildren(el("caption", { text: `could not load: ${e.message}` }));
    }
  }

  // A cell's accessible name holds the text it shows (WCAG 2.5.3 Label in Name: voice
  // control users say what they see), then what it means.  "·" (unchanged) is a symbol,
  // not a label to say.
  function nameWith(shown, info) {
    return shown === "·" || info.includes(shown) ? info : `${shown}: ${info}`;
  }

  function classify(out) {
    if (out === null || out === undefined) return ["keep", ""];
    if (typeof out === "string" && out.startsWith("error")) return ["err", "!"];
    if (/^(%[0-9A-F]{2})+$/.test(out)) return ["enc", "%"];
    return ["other", out.length > 3 ? out.slice(0, 2) + "…" : out];
  }

  function drawGrid() {
    if (!gridData) return;
    const onlyDiff = $("grid-diff").checked;
    const byCp = new Map(gridData.rows.map((r) => [r.code_point, r]));
    const cols = [];
    for (let cp = 0x20; cp < 0x7f; cp++) {
      if (/[A-Za-z0-9]/.test(String.fromCharCode(cp))) continue;
      cols.push({ label: cp === 0x20 ? "SP" : String.fromCharCode(cp), cps: [cp], title: `U+${cp.toString(16).toUpperCase().padStart(4, "0")}` });
    }
    for (const g of GROUPS) cols.push({ label: g.key, cps: g.cps, title: g.key, group: true });
    const nSchemes = gridData.schemes.length;
    const cell = (ci, si) => {
      const outs = ci.cps.map((cp) => byCp.get(cp).output[si]);
      if (!ci.group) return outs[0];
      const changed = outs.filter((o) => o !== null).length;
      return changed === 0 ? null : changed === outs.length ? `all ${outs.length}` : `${changed}/${outs.length}`;
    };
    const shown = cols.filter((c) => {
      if (!onlyDiff) return true;
      const first = JSON.stringify(cell(c, 0));
      for (let si = 1; si < nSchemes; si++) if (JSON.stringify(cell(c, si)) !== first) return true;
      return false;
    });
    const family = new Map((meta ? meta.schemes : []).map((s) => [s.name, s.family || "other"]));
    const head = el("tr", {}, el("th", { class: "corner", text: "scheme" }),
      ...shown.map((c) => el("th", { class: c.group ? "grp" : "ch", title: c.title, text: c.label })));
    const rows = [];
    let lastFam = null;
    const order = byFamily(gridData.schemes.map((s, si) => [s, si]), (x) => family.get(x[0].name) || "other");
    order.forEach(([s, si]) => {
      const fam = family.get(s.name) || "other";
      if (fam !== lastFam) {
        rows.push(el("tr", { class: "fam" }, el("th", { colspan: String(shown.length + 1), text: fam })));
        lastFam = fam;
      }
      const tds = shown.map((c) => {
        const v = cell(c, si);
        if (c.group) {
          const cls = v === null ? "keep" : v.startsWith("all") ? "enc" : "other";
          const info = `${s.name}: ${c.label} ${v === null ? "left alone" : "changed: " + v}`;
          const shown = v === null ? "·" : v.replace("all ", "%");
          return el("td", { class: `cell ${cls} grp`, title: info, "aria-label": nameWith(shown, info), tabindex: "-1", text: shown });
        }
        const [cls, txt] = classify(v);
        const ch = c.label === "SP" ? "space" : `'${c.label}'`;
        const info = `${s.name}: ${ch} → ${v === null ? "unchanged" : v}`;
        return el("td", { class: `cell ${cls}`, title: info, "aria-label": nameWith(txt || "·", info), tabindex: "-1", text: txt || "·" });
      });
      const tr = el("tr", { class: "row", onclick: () => selectScheme(s.name) },
        el("th", { class: "sname", scope: "row", title: s.spec || "", tabindex: "-1",
          "aria-label": `${s.name}${s.spec ? ": " + s.spec : ""}`, text: s.name }), ...tds);
      tr.dataset.scheme = s.name;
      rows.push(tr);
    });
    $("grid-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
    highlightGrid();
    gridFocus(gridPos.row, gridPos.col, false);
  }

  // The grid is one Tab stop; arrow keys, Home/End and PageUp/PageDown move between its
  // cells and Enter or Space picks the row's scheme (the WAI-ARIA grid pattern, with a
  // roving tabindex).  What hovering a cell shows, focusing it shows too, in #grid-info.
  const gridPos = { row: 0, col: 0 };
  function gridRows() { return [...document.querySelectorAll("#grid-table tr.row")]; }
  function gridCells(tr) { return [...tr.querySelectorAll("th.sname, td.cell")]; }
  function gridFocus(row, col, focus) {
    const rows = gridRows();
    if (!rows.length) return;
    row = Math.max(0, Math.min(row, rows.length - 1));
    const cells = gridCells(rows[row]);
    col = Math.max(0, Math.min(col, cells.length - 1));
    gridPos.row = row; gridPos.col = col;
    for (const c of document.querySelectorAll("#grid-table [tabindex='0']")) c.tabIndex = -1;
    cells[col].tabIndex = 0;
    if (focus) cells[col].focus();
  }
  function gridInfo(cell) {
    const tr = cell.closest("tr.row");
    if (!tr) return;
    const what = cell.getAttribute("aria-label") || cell.title || "";
    $("grid-info").textContent = `${what} — click or press Enter to pick ${tr.dataset.scheme}`;
  }
  function initGridKeys() {
    const table = $("grid-table");
    table.addEventListener("keydown", (e) => {
      const cell = e.target.closest("th.sname, td.cell");
      if (!cell) return;
      const rows = gridRows();
      const row = rows.indexOf(cell.closest("tr"));
      const col = gridCells(rows[row]).indexOf(cell);
      const page = 10;
      const moves = {
        ArrowRight: [row, col + 1], ArrowLeft: [row, col - 1],
        ArrowDown: [row + 1, col], ArrowUp: [row - 1, col],
        Home: e.ctrlKey ? [0, 0] : [row, 0], End: e.ctrlKey ? [rows.length - 1, 1e9] : [row, 1e9],
        PageDown: [row + page, col], PageUp: [row - page, col],
      };
      if (e.key in moves) {
        e.preventDefault();
        gridFocus(moves[e.key][0], moves[e.key][1], true);
      } else if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        selectScheme(cell.closest("tr").dataset.scheme);
      }
    });
    table.addEventListener("focusin", (e) => {
      const cell = e.target.closest("th.sname, td.cell");
      if (!cell) return;
      const rows = gridRows();
      const row = rows.indexOf(cell.closest("tr"));
      if (row >= 0) gridFocus(row, gridCells(rows[row]).indexOf(cell), false);
      gridInfo(cell);
    });
    table.addEventListener("mouseover", (e) => {
      const cell = e.target.closest("th.sname, td.cell");
      if (cell) gridInfo(cell);
    });
  }

  // A title shows on hover (the browser's tooltip); the same text shows on keyboard focus
  // in #tip, so nothing is only for mouse users.  Escape hides it.
  function initTips() {
    const tip = $("tip");
    const hide = () => { tip.hidden = true; };
    document.addEventListener("focusin", (e) => {
      const t = e.target;
      const text = t && t.getAttribute ? t.getAttribute("title") : "";
      if (!text || t.closest("#grid-table")) { hide(); return; }
      tip.textContent = text;
      tip.hidden = false;
      const r = t.getBoundingClientRect();
      const w = Math.min(tip.offsetWidth, document.documentElement.clientWidth - 16);
      const left = Math.max(8, Math.min(r.left, document.documentElement.clientWidth - w - 8));
      tip.style.left = `${left + window.scrollX}px`;
      tip.style.top = `${r.bottom + window.scrollY + 6}px`;
    });
    document.addEventListener("focusout", hide);
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
  }

  function highlightGrid() {
    for (const tr of document.querySelectorAll("#grid-table tr.row")) {
      tr.classList.toggle("selected", tr.dataset.scheme === state.scheme);
    }
  }

  // -- form lab ------------------------------------------------------------------
  function initLab() {
    const cs = $("lab-charset");
    const acc = $("lab-accept");
    acc.append(el("option", { value: "", text: "(none)" }));
    for (const name of meta.page_encodings) {
      cs.append(el("option", { value: name, text: name }));
      acc.append(el("option", { value: name, text: name }));
    }
    cs.value = meta.page_encodings.includes("Shift_JIS") ? "Shift_JIS" : "UTF-8";
    const et = $("lab-enctype");
    for (const name of meta.enctypes) et.append(el("option", { value: name, text: name }));
    let pending = null;  // what the tool itself submitted, to compare with the library
    const load = (auto) => {
      const method = $("lab-method").value;
      // A GET submission puts the urlencoded form in the query whatever the enctype (HTML).
      const enctype = method === "get" ? meta.enctypes[0] : et.value;
      pending = auto ? { value: $("lab-value").value, encoding: acc.value || cs.value, enctype } : null;
      $("lab-verdict").hidden = true;
      const p = new URLSearchParams({
        charset: cs.value, accept: acc.value, method, enctype: et.value,
        value: $("lab-value").value, auto: auto ? "1" : "0",
      });
      $("lab-frame").src = `/lab/form?${p.toString()}`;
    };
    $("lab-send").addEventListener("click", () => load(true));
    for (const id of ["lab-charset", "lab-accept", "lab-method", "lab-enctype"]) {
      $(id).addEventListener("change", () => load(false));
    }
    load(false);
    $("lab-frame").addEventListener("load", () => {
      let raw = null;
      let boundary = null;
      try {
        const doc = $("lab-frame").contentDocument;
        if (doc && doc.body) $("lab-frame").style.height = `${Math.max(doc.documentElement.scrollHeight, 120) + 4}px`;
        const pre = doc && doc.getElementById("lab-raw");
        if (pre) raw = pre.textContent;
        // multipart/form-data: the browser picked the boundary; predict with the same one.
        if (pre && pre.dataset.boundary) boundary = pre.dataset.boundary;
      } catch (_) { /* cross-origin: leave the height */ }
      if (raw !== null && pending) {
        const sent = boundary ? { ...pending, boundary } : pending;
        pending = null;
        verdict(sent, raw);
      }
    });
  }

  // Does percent_encoding.form.html_form_body predict the very bytes the browser sent?
  async function verdict(sent, raw) {
    const box = $("lab-verdict");
    try {
      const d = await getJSON("/api/form-body", sent);
      box.replaceChildren();
      box.className = "verdict " + (d.body === raw ? "same" : "differs");
      if (d.body === raw) {
        box.append("✓ percent_encoding.form.html_form_body(…, encoding=",
          el("code", { text: d.encoding }),
          d.enctype === meta.enctypes[0] ? "" : ", enctype=", d.enctype === meta.enctypes[0] ? "" : el("code", { text: d.enctype }),
          d.boundary ? ", boundary=" : "", d.boundary ? el("code", { text: d.boundary }) : "",
          ") predicts exactly these bytes.");
      } else {
        box.append("✗ percent_encoding.form.html_form_body predicts ", el("code", { text: d.body }),
          " — the browser sent ", el("code", { text: raw }));
      }
      box.hidden = false;
    } catch (e) {
      box.hidden = true;
    }
  }

  // -- start ---------------------------------------------------------------------
  async function init() {
    readURL();
    try {
      meta = await getJSON("/api/schemes");
    } catch (e) {
      $("status").textContent = `⚠ cannot reach the server: ${e.message}`;
      return;
    }
    $("version").textContent = `percent ${meta.version}`;
    fillSchemes();
    fillContexts();
    setMode(state.mode);
    $("input").addEventListener("input", () => schedule());
    $("scheme").addEventListener("change", (e) => selectScheme(e.target.value));
    $("encoding").addEventListener("change", (e) => { state.encoding = e.target.value; schedule(0); });
    $("context").addEventListener("change", (e) => { state.context = e.target.value; schedule(0); });
    for (const b of document.querySelectorAll("[data-mode]")) {
      b.addEventListener("click", () => { setMode(b.dataset.mode); schedule(0); });
    }
    $("primary-copy").addEventListener("click", (e) => copyText($("primary-output").textContent, e.currentTarget));
    $("share").addEventListener("click", (e) => copyText(shareURL(), e.currentTarget));
    $("swap").addEventListener("click", () => {
      $("input").value = $("primary-output").textContent;
      setMode(state.mode === "encode" ? "decode" : "encode");
      schedule(0);
    });
    $("hide-same").addEventListener("change", () => schedule(0));
    $("grid-diff").addEventListener("change", drawGrid);
    initGridKeys();
    initTips();
    initLab();
    await update();
    loadGrid();
    document.body.dataset.ready = "1";
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
