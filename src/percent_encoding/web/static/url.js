// The URL view: POST /api/url {input, base} and show the components; /url?input=…&base=…
// links fill the form.
// Everything the user typed is inserted as text, never as HTML.
"use strict";

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// The output with every escape that the parser wrote marked.
function marked(output, encoded) {
  const frag = document.createDocumentFragment();
  const reps = new Set(encoded.map((p) => p[1]));
  let i = 0;
  while (i < output.length) {
    let hit = null;
    if (output[i] === "%") {
      for (const r of reps) {
        if (output.startsWith(r, i) && (!hit || r.length > hit.length)) hit = r;
      }
    }
    if (hit) {
      frag.appendChild(el("mark", hit));
      i += hit.length;
    } else {
      let j = output.indexOf("%", i + 1);
      if (j < 0) j = output.length;
      frag.appendChild(document.createTextNode(output.slice(i, j)));
      i = j;
    }
  }
  return frag;
}

// The address bar holds the URL and base only up to SHARE_MAX bytes of UTF-8 (a link
// of megabytes is no link); the request itself is a POST, of any size the server takes.
const SHARE_MAX = 4096;
const utf8Length = (text) => new TextEncoder().encode(text).length;

async function show() {
  const input = document.getElementById("url-input").value;
  const base = document.getElementById("url-base").value;
  const q = new URLSearchParams();
  if (utf8Length(input) + utf8Length(base) <= SHARE_MAX) {
    q.set("input", input);
    if (base) q.set("base", base);
  }
  const qs = q.toString();
  history.replaceState(null, "", "/url" + (qs ? "?" + qs : ""));
  const res = await fetch("/api/url", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(base ? { input, base } : { input }),
  });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  const href = document.getElementById("url-href");
  const body = document.querySelector("#url-table tbody");
  const errs = document.getElementById("url-errors");
  body.replaceChildren();
  errs.replaceChildren();
  if (!res.ok) {  // e.g. too long for the web tool: the server says what to use instead
    href.textContent = data.error || `HTTP ${res.status}`;
    return;
  }
  if (data.error) {
    href.textContent = "does not parse: " + data.error;
    return;
  }
  href.textContent = data.href;
  for (const c of data.components) {
    const tr = el("tr");
    tr.appendChild(el("th", c.component)).setAttribute("scope", "row");
    tr.appendChild(el("td")).appendChild(el("code", c.input));
    tr.appendChild(el("td")).appendChild(el("code")).appendChild(marked(c.output, c.encoded));
    tr.appendChild(el("td", c.encode_set || "—"));
    tr.appendChild(el("td", c.reason, "note"));
    body.appendChild(tr);
  }
  for (const e of data.validation_errors) {
    errs.appendChild(el("li", `${e.name} at ${e.position}`));
  }
  const more = data.validation_error_count - data.validation_errors.length;
  if (more > 0) {
    errs.appendChild(el("li", `… and ${more} more (${data.validation_error_count} in all; ` +
      "percent url --json lists them all)", "more"));
  }
  if (!data.validation_errors.length) errs.appendChild(el("li", "none"));
}

document.addEventListener("DOMContentLoaded", () => {
  const p = new URLSearchParams(location.search);
  if (p.has("input")) document.getElementById("url-input").value = p.get("input");
  if (p.has("base")) document.getElementById("url-base").value = p.get("base");
  document.getElementById("url-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    show();
  });
  show();
});
