// The playtest page: plain JavaScript, no build step, nothing loaded from the internet.
// Pages: "/" (packs, a new game, stored games, upload), "/play/ID/TOKEN" (a seat), "/game/ID" (a
// spectator), "/watch/ID" (step through a stored game). Everything is read from the JSON API (app.py).
"use strict";

const app = document.getElementById("app");
const statusLine = document.getElementById("status");
let timer = null;
let polling = null;   // the poll in flight, waited for before leaving the page (no aborted request)

async function leave(url) {
  clearInterval(timer);
  if (polling) { try { await polling; } catch (e) { /* it failed: leaving anyway */ } }
  location.href = url;
}

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick" || k === "onchange" || k === "onsubmit") el[k] = v;
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    el.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

function say(text, isError) {
  statusLine.textContent = text || "";
  statusLine.className = isError ? "error" : "";
}

async function api(method, path, data, raw) {
  const options = { method, headers: {} };
  if (raw !== undefined) { options.body = raw; }
  else if (data !== undefined) { options.body = JSON.stringify(data); options.headers["Content-Type"] = "application/json"; }
  const response = await fetch(path, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || ("HTTP " + response.status));
  return body;
}

function goods(obj) {
  const parts = Object.entries(obj || {}).filter(([, n]) => n).map(([g, n]) => n + " " + g);
  return parts.length ? parts.join(", ") : "nothing";
}

// ------------------------------------------------------------------ the lobby

async function lobby() {
  const packs = await api("GET", "/api/packs");
  const games = await api("GET", "/api/games");
  const packSelect = h("select", { id: "pack", name: "pack" },
    packs.map(p => h("option", { value: p.id }, p.id + " — " + p.name)));
  const players = h("input", { id: "players", type: "number", min: 1, max: 6, value: 4 });
  const seed = h("input", { id: "seed", type: "number", value: 1 });
  // the decks to deal hand cards from, e.g. "E,I"; empty: every deck of the pack
  const decks = h("input", { id: "decks", type: "text", size: 8, placeholder: "all" });
  const seats = h("div", { id: "seats" });
  function drawSeats() {
    const n = Math.max(1, Math.min(6, parseInt(players.value || "1", 10)));
    const old = [...seats.querySelectorAll("select")].map(s => s.value);
    seats.replaceChildren(...Array.from({ length: n }, (_, i) => h("label", {}, "P" + (i + 1) + " ",
      h("select", { class: "seat", "data-seat": i }, ["human", "greedy", "random"].map(k =>
        h("option", { value: k, selected: (old[i] || (i === 0 ? "human" : "greedy")) === k }, k))))));
  }
  players.onchange = drawSeats;
  players.oninput = drawSeats;
  drawSeats();
  const links = h("ul", { id: "links", class: "links" });
  const diagnostics = h("div", { id: "diagnostics" });
  function drawDiagnostics(list) {
    diagnostics.replaceChildren(...list.filter(p => p.diagnostics).map(p =>
      h("div", {}, h("h2", {}, "Pack " + p.id + " does not compile"), h("pre", { class: "diagnostics" }, p.diagnostics))));
  }
  drawDiagnostics(packs);
  async function start(event) {
    event.preventDefault();
    try {
      const kinds = [...seats.querySelectorAll("select")].map(s => s.value);
      const chosen = decks.value.split(",").map(d => d.trim()).filter(d => d);
      const made = await api("POST", "/api/games", { pack: packSelect.value, seats: kinds, seed: parseInt(seed.value || "0", 10),
        decks: chosen.length ? chosen : null });
      const urls = Object.entries(made.seats).map(([s, t]) => ["P" + (parseInt(s, 10) + 1), "/play/" + made.id + "/" + t]);
      links.replaceChildren(...urls.map(([who, url]) => h("li", {}, who + ": ", h("a", { href: url }, location.origin + url))),
        h("li", {}, "spectators: ", h("a", { href: "/game/" + made.id }, location.origin + "/game/" + made.id)));
      say("game " + made.id + " started");
      if (urls.length === 1) await leave(urls[0][1]);
    } catch (e) { say(e.message, true); }
  }
  const upload = h("input", { type: "file", id: "upload", accept: ".json,application/json" });
  upload.onchange = async () => {
    try {
      const made = await api("POST", "/api/saves", undefined, await upload.files[0].arrayBuffer());
      const first = Object.entries(made.seats)[0];
      await leave(first ? "/play/" + made.id + "/" + first[1] : "/game/" + made.id);
    } catch (e) { say(e.message, true); }
  };
  app.replaceChildren(
    diagnostics,
    h("section", {}, h("h2", {}, "New game"),
      h("form", { id: "new-game", onsubmit: start },
        h("label", {}, "Pack ", packSelect), h("label", {}, "Players ", players), h("label", {}, "Seed ", seed),
        h("label", {}, "Decks ", decks), seats, h("p", {}, h("button", { id: "start", type: "submit" }, "Start"))), links),
    h("section", {}, h("h2", {}, "Continue a save"), upload),
    h("section", { id: "games" }, h("h2", {}, "Games"),
      h("table", {}, games.map(g => h("tr", {}, h("td", {}, g.id), h("td", {}, g.pack), h("td", {}, g.players + " players"),
        h("td", {}, g.decisions + " decisions" + (g.finished ? ", finished" : "")),
        h("td", {}, h("a", { href: "/watch/" + g.id, class: "watch" }, "watch")),
        h("td", {}, h("a", { href: "/game/" + g.id }, "spectate")))))));
  // hot reload: the packs' diagnostics follow the files
  timer = setInterval(async () => {
    if (polling) return;   // the last poll is not answered yet: do not pile up requests
    try { polling = api("GET", "/api/packs"); drawDiagnostics(await polling); } catch (e) { /* the server restarts */ }
    polling = null;
  }, 800);
}

// ------------------------------------------------------------------ the table

function boardSection(view) {
  return h("section", { id: "board" }, h("h2", {}, "Round " + view.round + " of " + view.last_round +
      (view.stage ? ", stage " + view.stage : "") + (view.harvest_rounds.includes(view.round) ? " (harvest)" : "")),
    h("table", {}, view.board.map(s => h("tr", { "data-space": s.id },
      h("td", {}, s.name), h("td", {}, s.round !== null ? "round " + s.round : ""),
      h("td", {}, Object.keys(s.goods).length ? goods(s.goods) : ""),
      h("td", { class: s.occupants.length ? "occupied" : "" }, s.occupants.join(", "))))),
    h("p", {}, view.hidden_round_cards + " round cards face down. Major improvements: " +
      (view.major_supply.map(m => m.name).join(", ") || "none")));
}

function playersSection(state) {
  const names = state.card_names || {};
  const card = id => names[id] || id;
  const texts = state.card_texts || {};
  return h("section", { id: "players" }, h("h2", {}, "Players"),
    h("div", { id: "farms" }, state.view.players.map((p, i) => {
      const box = h("div", { class: "farm-box" + (i === state.seat ? " mine" : ""), "data-player": p.name });
      const svg = h("div", { class: "svg" });
      svg.innerHTML = state.farms[i];   // drawn by the server (compiler/web/svg.py), its text escaped there
      box.append(h("h2", {}, p.name + " (" + state.seats[i].kind + ")" + (p.start_player ? " — start player" : "")), svg,
        h("div", { class: "goods" }, "Goods: " + goods(p.goods) + "; animals: " + goods(p.animals)),
        h("div", {}, "People " + p.people + (p.begging ? ", " + p.begging + " begging" : "") + "; score so far " + p.score.total),
        h("div", {}, "In play: " + ([...p.cards.majors, ...p.cards.minors, ...p.cards.occupations].map(card).join(", ") || "nothing")),
        p.hand ? h("div", { class: "hand" }, "Hand: ", p.hand.occupations.length + p.hand.minors.length ? h("ul", {},
          [...p.hand.occupations, ...p.hand.minors].map(id => h("li", {}, h("b", {}, card(id)),
            texts[id] ? h("span", { class: "card-text" }, ": " + texts[id]) : ""))) : "none") :
          h("div", {}, "Hand: " + p.hand_size.occupations + " occupations, " + p.hand_size.minors + " minors"));
      return box;
    })));
}

function scoresSection(state) {
  const t = state.score_table;
  return h("section", { id: "scores" }, h("h2", {}, state.finished ? "Final scores" : "Scores so far"),
    h("table", {}, h("tr", {}, h("th", {}, ""), t.players.map(n => h("th", { class: "n" }, n))),
      t.labels.map((label, k) => h("tr", {}, h("td", {}, label), t.rows.map(r => h("td", { class: "n" }, r[k])))),
      h("tr", { class: "total" }, h("th", {}, "Total"), t.totals.map(n => h("th", { class: "n" }, n)))));
}

function logSection(state) {
  const log = h("div", { id: "log" }, state.log.join("\n"));
  setTimeout(() => { log.scrollTop = log.scrollHeight; }, 0);
  return h("section", {}, h("h2", {}, "Log"), log);
}

async function table(id, token) {
  let shown = null;
  async function draw(state) {
    shown = state;
    const pending = state.pending;
    let request;
    if (state.finished) {
      request = h("section", { id: "request" }, h("h2", { id: "final" }, "The game is over"));
    } else if (pending && pending.yours) {
      request = h("section", { id: "request", "data-decision": pending.decision },
        h("h2", {}, pending.player + ", decision " + pending.decision + ": " + pending.kind + (pending.prompt ? " — " + pending.prompt + "?" : "")),
        h("p", { id: "explain" }, pending.explain),
        h("div", { id: "options" }, pending.options.map(o => h("button", { class: "option", "data-index": o.index,
          onclick: () => answer(pending.decision, o.index) }, o.label))));
    } else {
      request = h("section", { id: "request" }, h("h2", {}, pending ? "Waiting for " + pending.player + " (" + pending.kind + ")" : ""));
    }
    const tools = h("p", {},
      h("a", { href: "/api/games/" + id + "/save", id: "download", download: "agricola-" + id + ".json" }, "download the save"), " · ",
      h("a", { href: "/watch/" + id }, "watch from the start"),
      state.can_undo ? [" · ", h("button", { id: "undo", onclick: undo }, "take back my last decision")] : null);
    app.replaceChildren(request, tools, h("div", { class: "columns" }, boardSection(state.view), scoresSection(state)),
      playersSection(state), logSection(state));
  }
  async function refresh() {
    try { await draw(await api("GET", "/api/games/" + id + (token ? "?token=" + encodeURIComponent(token) : ""))); say(""); }
    catch (e) { say(e.message, true); }
  }
  async function answer(decision, index) {
    try { await draw(await api("POST", "/api/games/" + id + "/answer", { token, decision, index })); say(""); }
    catch (e) { say(e.message, true); await refresh(); }
  }
  async function undo() {
    try { await draw(await api("POST", "/api/games/" + id + "/undo", { token })); say("taken back"); }
    catch (e) { say(e.message, true); }
  }
  await refresh();
  // other people at the table: follow their decisions
  timer = setInterval(() => {
    if (shown && !shown.finished && !(shown.pending && shown.pending.yours)) refresh();
  }, 1000);
}

// ------------------------------------------------------------------ watching a stored game

async function watch(id) {
  let at = 0;
  let total = 0;
  const rounds = await api("GET", "/api/games/" + id + "/rounds");
  async function go(k) {
    try {
      const state = await api("GET", "/api/games/" + id + "/at/" + k);
      at = state.at; total = state.total;
      const controls = h("section", { id: "controls" },
        h("h2", { id: "position" }, "Decision " + at + " of " + total + (state.finished ? " — the game is over" : "")),
        h("button", { id: "first", onclick: () => go(0) }, "start"), " ",
        h("button", { id: "back", onclick: () => go(Math.max(0, at - 1)) }, "back"), " ",
        h("button", { id: "next", onclick: () => go(Math.min(total, at + 1)) }, "next"), " ",
        h("button", { id: "end", onclick: () => go(total) }, "end"), " ",
        h("label", {}, "round ", h("select", { id: "round", onchange: e => go(parseInt(e.target.value, 10)) },
          h("option", { value: at }, "…"), rounds.map(r => h("option", { value: r.at }, "round " + r.round)))),
        " ", h("a", { href: "/api/games/" + id + "/save", download: "agricola-" + id + ".json" }, "download the save"));
      app.replaceChildren(controls, h("div", { class: "columns" }, boardSection(state.view), scoresSection(state)),
        playersSection(state), logSection(state));
      say("");
    } catch (e) { say(e.message, true); }
  }
  await go(0);
}

// ------------------------------------------------------------------ routing

const parts = location.pathname.split("/").filter(Boolean);
if (parts[0] === "play" && parts.length === 3) table(parts[1], parts[2]);
else if (parts[0] === "game" && parts.length === 2) table(parts[1], null);
else if (parts[0] === "watch" && parts.length === 2) watch(parts[1]);
else lobby();
