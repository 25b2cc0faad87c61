// The card browser: every face by type, search, filters, problems, deck lists, a detail view.
// Data comes from the page itself (a gallery written by `cardgen proof`, opened from disk) or
// from the server of `cardgen serve` (/api/state, then server-sent events on every change).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const embedded = document.getElementById("cardgen-data"); // a gallery opened from disk
  const live = !embedded;
  let state = embedded ? prepare(JSON.parse(embedded.textContent)) : { sets: [] };
  let current = null; // the set shown
  let openKey = null; // the card open in the detail view
  let cardFilter = null; // cards of one problem, when a problem was clicked
  const tiles = new Map(); // set/key -> {sig, element}

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else if (name === "style") Object.assign(node.style, value); // not an attribute: the page's CSP allows no inline style
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  const plural = (n, word, many) => `${n} ${n === 1 ? word : many || word + "s"}`;
  // What the page works with besides the data: each card's search text (its name and every
  // field but its type and count) and a signature of what its tile shows.
  function prepare(data) {
    for (const set of data.sets) {
      for (const card of set.cards) {
        const text = card.fields.filter(([name]) => name !== "type" && name !== "count").map(([, value]) => value);
        card.search = [card.name, ...text].join(" ").toLowerCase();
        card.sig = JSON.stringify([card.faces, card.count, card.name]);
      }
    }
    return data;
  }

  const theSet = () => state.sets.find((s) => s.name === current) || state.sets[0];

  function faceSrc(set, face, print) {
    if (print) return face.print || face.src || `print/${encodeURIComponent(set.name)}/${face.hash}.png`;
    return face.src || `faces/${encodeURIComponent(set.name)}/${face.hash}.png`;
  }

  function typeOf(set, name) {
    return set.types.find((t) => t.name === name) || { w: 1, h: 1, bleed: 0, safe: 0, shape: "rect" };
  }

  // Trim, bleed and safe zone over a face image (trim plus bleed), as percentages of it.
  function guides(type) {
    const w = type.w + 2 * type.bleed, h = type.h + 2 * type.bleed;
    const box = (cls, inset) => {
      const x = (inset / w) * 100, y = (inset / h) * 100;
      return el("div", { class: `guide ${cls}${type.shape === "circle" ? " round" : ""}`,
        style: { left: `${x}%`, right: `${x}%`, top: `${y}%`, bottom: `${y}%` } });
    };
    return el("div", { class: "guides", "aria-hidden": "true" },
      box("g-bleed", 0), box("g-trim", type.bleed), box("g-safe", type.bleed + type.safe));
  }

  function faceFigure(set, card, face, print, eager) {
    const type = typeOf(set, card.type);
    const w = type.w + 2 * type.bleed, h = type.h + 2 * type.bleed;
    return el("figure", { class: `face side-${face.side}` },
      el("div", { class: "shot", style: { aspectRatio: `${w} / ${h}` } },
        el("img", { src: faceSrc(set, face, print), alt: `${card.name}, ${face.label}`,
          loading: print || eager ? "eager" : "lazy", decoding: "async" }),
        guides(type)),
      el("figcaption", { text: face.label }));
  }

  function severities(set, card) {
    const found = new Set(card.problems.map((i) => set.problems[i] && set.problems[i].severity));
    return { error: found.has("error"), warning: found.has("warning") };
  }

  function tile(set, card, eager) {
    const marks = severities(set, card);
    const changed = set.changed.includes(card.key);
    const badges = [];
    if (changed) badges.push(el("span", { class: "badge changed", text: "changed" }));
    if (marks.error) badges.push(el("span", { class: "badge error", text: "error" }));
    else if (marks.warning) badges.push(el("span", { class: "badge warning", text: "warning" }));
    return el("article", {
      class: `card${changed ? " is-changed" : ""}${marks.error ? " has-error" : ""}${marks.warning ? " has-warning" : ""}`,
      "data-key": card.key, "data-type": card.type, tabindex: "0",
      onclick: () => openCard(card.key),
      onkeydown: (e) => { if (e.key === "Enter") openCard(card.key); },
    },
      el("div", { class: "faces" }, card.faces.map((f) => faceFigure(set, card, f, false, eager))),
      el("div", { class: "meta" },
        el("span", { class: "name", text: card.name }),
        el("span", { class: "qty", text: `×${card.count}` }),
        badges));
  }

  function matches(set, card) {
    const query = $("search").value.trim().toLowerCase();
    if (query && !card.search.includes(query)) return false;
    const type = $("type-filter").value;
    if (type && card.type !== type) return false;
    const problem = $("problem-filter").value;
    const marks = severities(set, card);
    if (problem === "problems" && !(marks.error || marks.warning)) return false;
    if (problem === "errors" && !marks.error) return false;
    if (problem === "warnings" && !marks.warning) return false;
    if (problem === "changed" && !set.changed.includes(card.key)) return false;
    if (cardFilter && !cardFilter.has(card.name)) return false;
    return true;
  }

  function renderHeader(set) {
    $("title").textContent = set.title || set.name;
    $("version").textContent = set.version ? `v${set.version}` : "";
    document.title = `${set.title || set.name} · cardgen`;
    const nav = $("sets");
    nav.replaceChildren(...(state.sets.length > 1 ? state.sets.map((s) =>
      el("button", { type: "button", class: s.name === set.name ? "active" : "", text: s.name,
        onclick: () => { current = s.name; cardFilter = null; render(); } })) : []));
    const select = $("type-filter");
    const chosen = select.value;
    select.replaceChildren(el("option", { value: "", text: `All types (${set.cards.length})` }),
      ...set.types.map((t) => el("option", { value: t.name, text: `${t.name} (${t.cards})` })));
    select.value = set.types.some((t) => t.name === chosen) ? chosen : "";
    const links = [];
    const pdf = set.pdf || {};
    if (pdf.file) {
      links.push(el("a", { class: `button${pdf.ok ? " primary" : " stale"}`, href: `output/${pdf.file}`,
        target: "_blank", rel: "noopener", text: pdf.ok ? "Open PDF" : "Last good PDF",
        title: pdf.ok ? `${plural(pdf.pages, "page")}, built in ${pdf.seconds} s` : "the latest build failed" }));
    } else if (live && set.ready && !pdf.ok && pdf.problems) {
      links.push(el("span", { class: "muted", text: "no PDF yet" }));
    }
    const files = (set.files || []).filter((f) => f.path !== pdf.file);
    if (files.length) {
      links.push(el("details", { class: "files" }, el("summary", { text: `Files (${files.length})` }),
        el("ul", {}, files.map((f) => el("li", {}, el("a", { href: f.href || `output/${f.path}`, target: "_blank",
          rel: "noopener", text: f.path }))))));
    }
    $("links").replaceChildren(...links);
  }

  function problemItem(set, problem, index) {
    const hit = set.cards.filter((c) => c.problems.includes(index));
    return el("li", { class: `problem ${problem.severity}` },
      el("span", { class: "sev", text: problem.severity }),
      problem.where ? el("code", { class: "where", text: problem.where }) : null,
      el("span", { class: "msg", text: problem.card ? `card "${problem.card}": ${problem.message}` : problem.message }),
      hit.length ? el("button", { type: "button", class: "chip",
        text: hit.length === 1 ? `open ${hit[0].name}` : `show ${hit.length} cards`,
        onclick: () => {
          if (hit.length === 1) return openCard(hit[0].key);
          cardFilter = new Set(hit.map((c) => c.name)); renderGrid(set);
        } }) : null);
  }

  function renderPanels(set) {
    const banner = $("banner");
    banner.hidden = !set.failed.length;
    if (set.failed.length) {
      banner.replaceChildren(
        el("h2", { text: `The latest change could not be read: ${plural(set.failed.length, "problem")}` }),
        el("ul", {}, set.failed.map((p) => problemItem(set, p, -1))),
        el("p", { class: "muted", text: "The cards below are the last good ones; they update when the files are fixed." }));
    }
    const panel = $("problems");
    const problems = set.problems.concat((set.pdf && set.pdf.problems || []).filter(
      (p) => !set.problems.some((q) => q.text.startsWith(p.text)))); // the preview says more of the same
    panel.hidden = !problems.length;
    const errors = problems.filter((p) => p.severity === "error").length;
    panel.replaceChildren(el("details", { open: problems.length <= 12 },
      el("summary", {}, el("h2", { text: "Problems" }),
        el("span", { class: "counts" },
          errors ? el("span", { class: "badge error", text: plural(errors, "error") }) : null,
          problems.length - errors ? el("span", { class: "badge warning", text: plural(problems.length - errors, "warning") }) : null)),
      el("ul", {}, problems.map((p) => problemItem(set, p, set.problems.indexOf(p))))));
    const decks = $("decks");
    decks.hidden = !set.decks.length;
    decks.replaceChildren(el("h2", { text: "Deck lists" }), el("ul", { class: "decks" }, set.decks.map((d) =>
      el("li", { class: `deck ${d.ok ? "ok" : "bad"}` },
        el("span", { class: "deck-name", text: d.name }),
        el("code", { class: "where", text: d.file }),
        el("span", { class: "muted", text: plural(d.cards, "card") }),
        el("span", { class: `badge ${d.ok ? "ok" : "error"}`, text: d.ok ? (d.problems.length ? "passes, with warnings" : "passes every rule") : "breaks a rule" }),
        d.problems.length ? el("ul", {}, d.problems.map((p) => problemItem(set, p, -1))) : null))));
  }

  let shownLayout = ""; // the types and cards on screen, in order: unchanged, tiles are swapped in place

  function renderGrid(set) {
    const visibleTypes = set.types.map((type) => {
      const cards = set.cards.filter((c) => c.type === type.name);
      return { type, cards, visible: cards.filter((c) => matches(set, c)) };
    });
    const shown = visibleTypes.reduce((n, t) => n + t.visible.length, 0);
    const layout = JSON.stringify([set.name, visibleTypes.map((t) => [t.type, t.visible.map((c) => c.key)])]);
    const fresh = layout !== shownLayout;
    const sections = [];
    for (const { type, cards, visible } of visibleTypes) {
      if (!visible.length) continue;
      const grid = fresh ? el("div", { class: `grid${type.shape === "circle" ? " small" : ""}` }) : null;
      for (const card of visible) {
        const id = `${set.name}/${card.key}`;
        let known = tiles.get(id);
        const sig = `${card.sig}|${set.changed.includes(card.key)}|${card.problems.map((i) => set.problems[i] && set.problems[i].severity)}`;
        if (!known || known.sig !== sig) {
          const replaced = known && known.element;
          known = { sig, element: tile(set, card, Boolean(replaced)) }; // an update loads at once
          tiles.set(id, known);
          if (!fresh && replaced) replaced.replaceWith(known.element);
        }
        if (fresh) grid.append(known.element);
      }
      if (fresh) {
        sections.push(el("section", { class: "group", "data-type": type.name },
          el("h2", {}, el("span", { text: type.name }),
            el("span", { class: "count", text: `${visible.length === cards.length ? "" : visible.length + " of "}${plural(type.cards, "card")} · ${plural(type.copies, "copy", "copies")} · ${type.w} × ${type.h} mm` })),
          grid));
      }
    }
    if (fresh) {
      $("groups").replaceChildren(...sections);
      shownLayout = layout;
    }
    document.body.dataset.query = $("search").value; // what the cards shown were filtered by
    const status = $("status");
    const total = set.cards.length;
    status.replaceChildren(document.createTextNode(
      !set.ready && live && !total ? "Building the preview…" : shown === total ? `${plural(total, "card")}` : `${shown} of ${plural(total, "card")} shown`));
    if (set.progress) status.append(el("span", { class: "badge progress", text: `${set.progress}…` }));
    if (cardFilter) status.append(" ", el("button", { type: "button", class: "chip", text: "show all", onclick: () => { cardFilter = null; renderGrid(set); } }));
    if (set.changed.length) status.append(el("span", { class: "badge changed", text: `${set.changed.length} changed` }));
  }

  function openCard(key) {
    const set = theSet();
    const card = set.cards.find((c) => c.key === key);
    if (!card) return;
    openKey = key;
    const type = typeOf(set, card.type);
    $("detail-name").textContent = card.name;
    $("detail-meta").textContent = `${card.type} · ×${card.count} · ${type.w} × ${type.h} mm, bleed ${type.bleed} mm, safe ${type.safe} mm · ${card.source}`;
    $("detail-problems").replaceChildren(...(card.problems.length ? [el("ul", { class: "problems" },
      card.problems.map((i) => problemItem(set, set.problems[i], i)))] : []));
    $("detail-faces").replaceChildren(...card.faces.map((f) => faceFigure(set, card, f, true)));
    $("detail-fields").tBodies[0].replaceChildren(...card.fields.map(([name, value, where]) =>
      el("tr", {}, el("th", { text: name }), el("td", { text: value }), el("td", {}, el("code", { text: where })))));
    $("detail-guides").checked = $("guides").checked;
    const dialog = $("detail");
    if (!dialog.open) dialog.showModal();
  }

  // No set to show (every set folder removed from data/ while serving): an empty page saying so.
  function renderNothing() {
    $("title").textContent = "cardgen";
    $("version").textContent = "";
    document.title = "cardgen";
    for (const id of ["sets", "links", "groups"]) $(id).replaceChildren();
    for (const id of ["banner", "problems", "decks"]) $(id).hidden = true;
    $("status").textContent = "No set in data/";
    shownLayout = "";
    if ($("detail").open) $("detail").close();
    document.body.dataset.generation = state.generation || 0;
  }

  function render() {
    const set = theSet();
    if (!set) return renderNothing();
    if (current !== null && set.name !== current) { // the set shown was removed from data/
      cardFilter = null;
      if ($("detail").open) $("detail").close();
    }
    current = set.name;
    renderHeader(set);
    renderPanels(set);
    renderGrid(set);
    const dialog = $("detail");
    if (dialog.open && openKey) {
      if (set.cards.some((c) => c.key === openKey)) openCard(openKey); else dialog.close();
    }
    document.body.dataset.generation = state.generation || 0;
  }

  function setGuides(on) {
    document.body.classList.toggle("show-guides", on);
    $("guides").checked = on;
    $("detail-guides").checked = on;
  }

  function connect() {
    const badge = $("live");
    badge.hidden = false;
    const events = new EventSource("api/events");
    const take = (message, apply) => {
      const received = Date.now(), started = performance.now();
      apply(JSON.parse(message.data));
      const parsed = performance.now();
      badge.textContent = "live";
      badge.className = "live on";
      render();
      // for bench/bench_serve.py: when the last update came, and what it cost here
      window.cardgenUpdate = { received, parseMs: parsed - started, renderMs: performance.now() - parsed };
    };
    events.addEventListener("state", (message) => take(message, (data) => {
      state = prepare(data);
      const names = new Set(state.sets.map((s) => s.name)); // a set removed from data/: its tiles go
      for (const id of tiles.keys()) if (!names.has(id.slice(0, id.indexOf("/")))) tiles.delete(id);
    }));
    // one set changed: its changed cards, the order of all its cards and the rest of its state
    events.addEventListener("delta", (message) => take(message, (delta) => {
      const set = state.sets.find((s) => s.name === delta.set);
      const fresh = new Map(prepare({ sets: [{ cards: delta.cards }] }).sets[0].cards.map((c) => [c.key, c]));
      const known = new Map(set.cards.map((c) => [c.key, c]));
      Object.assign(set, delta.rest);
      set.cards = delta.order.map((key) => fresh.get(key) || known.get(key));
      state.generation = delta.generation;
    }));
    events.onerror = () => { badge.textContent = "reconnecting…"; badge.className = "live off"; };
  }

  document.addEventListener("DOMContentLoaded", () => {
    let typing = null;
    $("search").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(() => renderGrid(theSet()), 80); });
    $("type-filter").addEventListener("change", () => renderGrid(theSet()));
    $("problem-filter").addEventListener("change", () => { cardFilter = null; renderGrid(theSet()); });
    $("guides").addEventListener("change", (e) => setGuides(e.target.checked));
    $("detail-guides").addEventListener("change", (e) => setGuides(e.target.checked));
    $("detail-close").addEventListener("click", () => $("detail").close());
    $("detail").addEventListener("click", (e) => { if (e.target === $("detail")) $("detail").close(); });
    $("detail").addEventListener("close", () => { openKey = null; });
    document.addEventListener("keydown", (e) => {
      if (e.key === "/" && document.activeElement !== $("search")) { e.preventDefault(); $("search").focus(); }
      if ($("detail").open && openKey && (e.key === "ArrowRight" || e.key === "ArrowLeft")) {
        // the next or previous card on screen
        const shown = [...document.querySelectorAll("#groups article.card")].map((c) => c.dataset.key);
        const next = shown[shown.indexOf(openKey) + (e.key === "ArrowRight" ? 1 : -1)];
        if (next !== undefined) openCard(next);
      }
    });
    if (live) connect(); else render();
  });
})();
