// The page of `euchre serve`. Every rule comes from the server: the variants and house rules
// (/api/spec), the deck, whose turn it is and the calls they may say (/api/table), the
// answers (/api/jobs/odds, /api/review). This script only draws them and remembers clicks.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { spec: null, variant: "knock", rules: {}, seat: null, dealer: null,
                hand: [], upcard: null, calls: [], deck: [], table: null, job: null };
function cardButtonText(text) { return text.replace("T", "10"); }

// a card drawn as a card: ``card`` is an entry of the server's deck ({id, text, red})
function cardSpan(card) {
  const span = document.createElement("span");
  span.textContent = cardButtonText(card.text) + " ";
  if (card.red) span.className = "red";
  return span;
}

async function getJSON(url, options) {
  const response = await fetch(url, options);
  let body = null;
  try { body = await response.json(); } catch (e) { body = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

function showError(message) { $("error").textContent = message || ""; }

// ---------------------------------------------------------------- the question as parameters

function cardText(id) { return state.deck.find((c) => c.id === id)?.text; }

function questionParams(withRun) {
  const p = new URLSearchParams();
  p.set("variant", state.variant);
  for (const [name, value] of Object.entries(state.rules)) p.set(name, value);
  if (state.seat) p.set("seat", state.seat);
  if (state.dealer) p.set("dealer", state.dealer);
  if (state.upcard !== null) p.set("upcard", cardText(state.upcard));
  if (state.calls.length) p.set("auction", state.calls.join(", "));
  if (withRun) {
    p.set("hand", state.hand.map(cardText).join(" "));
    p.set("deals", $("deals").value);
    p.set("seed", $("seed").value);
    p.set("method", $("method").value);
    p.set("others", $("others").value);
  }
  return p;
}

// ---------------------------------------------------------------- the form

function buildRules() {
  const box = $("house-rules");
  box.textContent = "";
  const variant = state.spec.variants[state.variant];
  for (const opt of variant.options) {
    const label = document.createElement("label");
    label.title = opt.help;
    const input = document.createElement("input");
    input.id = "rule-" + opt.name;
    if (opt.kind === "bool") {
      input.type = "checkbox";
      input.checked = state.rules[opt.name] !== undefined ? state.rules[opt.name] === "true"
                                                           : Boolean(opt.default);
      input.addEventListener("change", () => { state.rules[opt.name] = String(input.checked);
                                               resetCards(); refresh(); });
    } else {
      input.type = "number";
      input.min = "0";
      input.value = state.rules[opt.name] ?? (opt.default ?? "");
      input.addEventListener("change", () => { state.rules[opt.name] = input.value; refresh(); });
    }
    label.append(input, " " + opt.name.replaceAll("_", " "));
    box.append(label);
  }
  $("pick-upcard-label").hidden = !variant.upcard;
  $("upcard-line").hidden = !variant.upcard;
}

function buildSeats() {
  const grid = $("table-diagram");
  grid.textContent = "";
  const seats = state.spec.variants[state.variant].seats;
  const where = { N: 2, W: 4, E: 6, S: 8 };
  for (let cell = 1; cell <= 9; cell++) {
    const div = document.createElement("div");
    const seat = Object.keys(where).find((s) => where[s] === cell);
    if (cell === 5) div.className = "felt";
    if (seat) {
      div.className = "seat" + (seats.includes(seat) ? "" : " absent")
        + (state.seat === seat ? " you" : "") + (state.dealer === seat ? " dealer" : "");
      div.id = "seat-" + seat;
      const name = document.createElement("b");
      name.textContent = seat;
      const you = document.createElement("button");
      you.type = "button"; you.textContent = "you"; you.id = "you-" + seat;
      you.className = state.seat === seat ? "on" : "";
      you.addEventListener("click", () => { state.seat = seat; state.calls = []; redraw(); });
      const dealer = document.createElement("button");
      dealer.type = "button"; dealer.textContent = "dealer"; dealer.id = "dealer-" + seat;
      dealer.className = state.dealer === seat ? "on" : "";
      dealer.addEventListener("click", () => { state.dealer = seat; state.calls = []; redraw(); });
      div.append(name, document.createElement("br"), you, " ", dealer);
    }
    grid.append(div);
  }
}

function buildDeck() {
  const box = $("deck");
  box.textContent = "";
  const size = state.table ? state.table.hand_size : 0;
  for (const card of state.deck) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card " + (card.red ? "red" : "black");
    b.textContent = cardButtonText(card.text);
    b.dataset.card = card.text;
    b.id = "card-" + card.id;
    const inHand = state.hand.includes(card.id);
    if (inHand) b.classList.add("in-hand");
    if (state.upcard === card.id) b.classList.add("is-upcard");
    const picking = document.querySelector("input[name=pick]:checked").value;
    b.disabled = (picking === "hand" && !inHand && (state.upcard === card.id || state.hand.length >= size))
              || (picking === "upcard" && inHand);
    b.addEventListener("click", () => clickCard(card.id));
    box.append(b);
  }
  $("hand-count").textContent = `(${state.hand.length} of ${size})`;
  $("hand-text").textContent = "";
  const byId = (id) => state.deck.find((c) => c.id === id);
  state.hand.forEach((id) => $("hand-text").append(cardSpan(byId(id))));
  $("upcard-text").textContent = "";
  if (state.upcard !== null) $("upcard-text").append(cardSpan(byId(state.upcard)));
}

function clickCard(id) {
  const picking = document.querySelector("input[name=pick]:checked").value;
  if (picking === "upcard") {
    state.upcard = state.upcard === id ? null : id;
    state.calls = [];
  } else if (state.hand.includes(id)) {
    state.hand = state.hand.filter((c) => c !== id);
  } else {
    state.hand.push(id);
  }
  redraw();
}

function buildCalls() {
  const box = $("calls");
  box.textContent = "";
  const t = state.table;
  $("auction-text").textContent = state.calls.length ? state.calls.join(", ") : "nothing yet";
  if (!t || !state.seat || !state.dealer) {
    $("turn-line").textContent = "Choose your seat, the dealer" +
      (state.spec.variants[state.variant].upcard ? " and the upcard" : "") + " first.";
    return;
  }
  if (t.turn === null) { $("turn-line").textContent = "The bidding is over."; return; }
  if (t.your_turn) {
    $("turn-line").textContent = `Your turn (${t.turn}): ask what to call.`;
    return;
  }
  $("turn-line").textContent = `${t.turn} to call: click what they said.`;
  for (const call of t.calls) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = call;
    b.className = "call";
    b.dataset.call = call;
    b.addEventListener("click", () => { state.calls.push(`${t.turn} ${call}`); refresh(); });
    box.append(b);
  }
}

async function refresh() {
  showError("");
  try {
    state.table = await getJSON("/api/table?" + questionParams(false));
    const before = state.deck.map((c) => c.id).join();
    state.deck = state.table.deck;
    if (before !== state.deck.map((c) => c.id).join()) {
      const ids = new Set(state.deck.map((c) => c.id));
      state.hand = state.hand.filter((c) => ids.has(c));
      if (!ids.has(state.upcard)) state.upcard = null;
    }
  } catch (e) {
    showError(e.message);
    if (state.calls.length) state.calls.pop();  // the last call clicked was not legal
  }
  buildDeck();
  buildCalls();
}

function redraw() { buildSeats(); refresh(); }

function resetCards() { state.hand = []; state.upcard = null; state.calls = []; }

// ---------------------------------------------------------------- asking

function pct(x) { return x === null || x === undefined ? "" : (100 * x).toFixed(1) + "%"; }
// a share with a tenth, or two significant figures below 1% (as the command line prints it)
function share(x) { return x > 0 && x < 0.01 ? (100 * x).toPrecision(2) + "%" : pct(x); }
function pts(x) { return x === null || x === undefined ? "" : (x >= 0 ? "+" : "") + x.toFixed(2); }

function showAnswer(result) {
  $("answer").hidden = false;
  const b = result.best;
  let verdict = `Best: ${b.label}: ${pts(b.ev)} net points a hand`;
  if (b.runner_up_label) {
    verdict += `, ${pts(b.margin)} [${pts(b.margin_low)}, ${pts(b.margin_high)}] against ${b.runner_up_label}`;
    if (b.too_close) verdict += ": too close to call";
  }
  $("verdict").textContent = verdict;
  const notes = [`${result.deals.toLocaleString()} deals, ${result.seconds.toFixed(1)} s`];
  if (result.others_play && result.others_play !== result.method) {
    notes.push(`later calls by the ${result.others} strategy, its values from ${result.others_play} play`);
  }
  if (result.inference) notes.push(`${share(result.acceptance)} of the deals tried fit the calls heard`);
  if (result.interrupted) notes.push("cancelled: these are the estimates so far");
  notes.push(...result.notes);
  $("answer-notes").textContent = notes.join("; ");
  const outcomes = Object.entries(state.spec.outcomes)
    .filter(([k]) => k !== "redeal" || result.options.some((r) => r.p_redeal > 0));
  const table = $("options-table");
  table.textContent = "";
  const head = table.insertRow();
  for (const h of ["call", "net points", "95% interval", ...outcomes.map(([, w]) => w)]) {
    const th = document.createElement("th"); th.textContent = h; head.append(th);
  }
  for (const row of result.options) {
    const tr = table.insertRow();
    if (row.label === b.label) tr.className = "best";
    const cells = [row.label + (row.received_most ? `, gets ${row.received_most}` : ""),
                   pts(row.ev), `[${pts(row.ev_low)}, ${pts(row.ev_high)}]`,
                   ...outcomes.map(([k]) => pct(row["p_" + k]))];
    for (const c of cells) tr.insertCell().textContent = c;
  }
  drawChart(result.options);
  const share = new URL(location.href);
  share.search = questionParams(true).toString() + "&ask=1";
  $("share-link").href = share.toString();
  $("share-link").textContent = share.toString();
}

function drawChart(rows) {
  const w = 560, rowH = 26, left = 190, h = rows.length * rowH + 30;
  const lo = Math.min(0, ...rows.map((r) => r.ev_low ?? r.ev));
  const hi = Math.max(0, ...rows.map((r) => r.ev_high ?? r.ev));
  const x = (v) => left + (v - lo) / ((hi - lo) || 1) * (w - left - 20);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", w); svg.setAttribute("height", h);
  svg.setAttribute("role", "img"); svg.setAttribute("aria-label", "net points of each call");
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text) el.textContent = text;
    svg.append(el);
  };
  rows.forEach((r, i) => {
    const y = 10 + i * rowH;
    add("text", { x: left - 6, y: y + 15, "text-anchor": "end", "font-size": 12 }, r.label);
    add("rect", { x: Math.min(x(0), x(r.ev)), y: y + 4, width: Math.abs(x(r.ev) - x(0)),
                  height: 14, fill: r.ev >= 0 ? "#4a8" : "#c66" });
    add("line", { x1: x(r.ev_low), x2: x(r.ev_high), y1: y + 11, y2: y + 11, stroke: "#222" });
  });
  add("line", { x1: x(0), x2: x(0), y1: 5, y2: h - 15, stroke: "#888" });
  add("text", { x: x(0), y: h - 2, "text-anchor": "middle", "font-size": 11 }, "0 net points");
  $("chart").textContent = "";
  $("chart").append(svg);
}

async function ask() {
  showError("");
  if (state.job) return;
  try {
    const job = await getJSON("/api/jobs/odds?" + questionParams(true), { method: "POST" });
    state.job = job.id;
    $("progress").hidden = false;
    $("ask-button").disabled = true;
    history.replaceState(null, "", "?" + questionParams(true).toString());
    await poll();
  } catch (e) {
    showError(e.message);
  }
}

async function poll() {
  while (state.job) {
    const s = await getJSON("/api/jobs/" + state.job);
    $("progress-bar").max = s.total || 1;
    $("progress-bar").value = s.done;
    const left = s.seconds_left === null ? "" : `, about ${Math.ceil(s.seconds_left)} s left`;
    $("progress-text").textContent = `${s.done.toLocaleString()} / ${s.total.toLocaleString()} deals${left}`;
    if (s.state !== "running") {
      state.job = null;
      $("progress").hidden = true;
      $("ask-button").disabled = false;
      if (s.result) showAnswer(s.result);
      else showError(s.error);
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function cancel() {
  if (state.job) await getJSON("/api/jobs/" + state.job, { method: "DELETE" });
}

// ---------------------------------------------------------------- review

async function review() {
  $("review-error").textContent = "";
  $("review-answer").textContent = "reviewing…";
  const text = $("record-text").value.trim().split("\n")[0];
  try {
    const r = await getJSON("/api/review", { method: "POST", headers: { "content-type": "application/json" },
                                             body: JSON.stringify({ record: text, others: $("others").value }) });
    const deck = (await getJSON("/api/table?" + new URLSearchParams({ variant: r.variant }))).deck;
    const asCard = (text) => deck.find((c) => c.text === text);
    const box = $("review-answer");
    box.textContent = "";
    const p = document.createElement("p");
    p.className = "verdict";
    p.textContent = `${r.contract}: needs ${r.need}, took ${r.declarer_tricks}; ` +
      `${r.dd_tricks_at_first_lead} double dummy at the first lead (${r.makeable ? "makeable" : "not makeable"}). ${r.result}`;
    box.append(p);
    const table = document.createElement("table");
    table.id = "review-table";
    const head = table.insertRow();
    for (const h of ["trick", "seat", "kind", "choice", "best", "cost (tricks)", "cost (points)", "note"]) {
      const th = document.createElement("th"); th.textContent = h; head.append(th);
    }
    for (const d of r.decisions) {
      const tr = table.insertRow();
      tr.insertCell().textContent = d.trick ?? "";
      tr.insertCell().textContent = d.seat ?? "";
      tr.insertCell().textContent = d.kind ?? "";
      for (const key of ["choice", "best"]) {
        const cell = tr.insertCell();
        const text = String(d[key] ?? "");
        const card = asCard(text);
        if (card) cell.append(cardSpan(card));
        else cell.textContent = text;
      }
      tr.insertCell().textContent = d.cost_tricks ?? "";
      tr.insertCell().textContent = d.cost_points === null || d.cost_points === undefined ? "" : pts(d.cost_points);
      tr.insertCell().textContent = d.note ?? "";
      if ((d.cost_tricks ?? 0) > 0 || (d.cost_points ?? 0) > 0) tr.className = "best";
    }
    box.append(table);
  } catch (e) {
    $("review-answer").textContent = "";
    $("review-error").textContent = e.message;
  }
}

// ---------------------------------------------------------------- start

function fromURL() {
  const p = new URLSearchParams(location.search);
  if (p.has("variant")) state.variant = p.get("variant");
  for (const opt of state.spec.variants[state.variant]?.options ?? []) {
    if (p.has(opt.name)) state.rules[opt.name] = p.get(opt.name);
  }
  state.seat = p.get("seat"); state.dealer = p.get("dealer");
  for (const [id, name] of [["deals", "deals"], ["seed", "seed"], ["method", "method"], ["others", "others"]]) {
    if (p.has(name)) $(id).value = p.get(name);
  }
  state.calls = (p.get("auction") || "").split(",").map((s) => s.trim()).filter(Boolean);
  return p;
}

async function placeCardsFromURL(p) {
  state.table = await getJSON("/api/table?" + new URLSearchParams({ variant: state.variant, ...state.rules }));
  state.deck = state.table.deck;
  const take = (text) => state.deck.find((c) => c.text === text.toUpperCase()
                                           && !state.hand.includes(c.id) && c.id !== state.upcard)?.id;
  if (p.get("upcard")) state.upcard = take(p.get("upcard")) ?? null;
  for (const t of (p.get("hand") || "").split(/\s+/).filter(Boolean)) {
    const id = take(t);
    if (id !== undefined) state.hand.push(id);
  }
}

async function start() {
  state.spec = await getJSON("/api/spec");
  const variantSelect = $("variant");
  for (const [name, v] of Object.entries(state.spec.variants)) {
    const o = document.createElement("option"); o.value = name; o.textContent = v.title;
    variantSelect.append(o);
  }
  for (const m of state.spec.methods) {
    const o = document.createElement("option"); o.value = m; o.textContent = m; $("method").append(o);
  }
  $("others").value = state.spec.others;
  $("deals").max = document.body.dataset.maxDeals;
  const p = fromURL();
  variantSelect.value = state.variant;
  variantSelect.addEventListener("change", () => {
    state.variant = variantSelect.value; state.rules = {}; resetCards(); buildRules(); redraw();
  });
  document.querySelectorAll("input[name=pick]").forEach((r) => r.addEventListener("change", buildDeck));
  $("clear-cards").addEventListener("click", () => { resetCards(); refresh(); });
  $("undo-call").addEventListener("click", () => { state.calls.pop(); refresh(); });
  $("ask-button").addEventListener("click", ask);
  $("cancel-button").addEventListener("click", cancel);
  $("review-button").addEventListener("click", review);
  $("record-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("record-text").value = await file.text();
  });
  for (const [tab, main] of [["tab-ask", "ask"], ["tab-review", "review"]]) {
    $(tab).addEventListener("click", () => {
      document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.id === tab));
      $("ask").hidden = main !== "ask"; $("review").hidden = main !== "review";
    });
  }
  buildRules();
  await placeCardsFromURL(p);
  redraw();
  if (p.get("ask") === "1") { await refresh(); ask(); }
}

start().catch((e) => showError(e.message));
