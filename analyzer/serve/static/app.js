// The page of `euchre serve`. Every rule comes from the server: the variants, house rules,
// ways to play and strategies (/api/spec); the deck, the rules in force, whose turn it is and
// the calls they may say, and in the play the contract, the tricks, whose turn it is and the
// cards that seat may play (/api/table); the answers (/api/jobs/odds, /api/practice,
// /api/review). This script only draws them and remembers clicks.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { spec: null, variant: "knock", rules: {}, seat: null, dealer: null,
                hand: [], upcard: null, calls: [], deck: [], table: null, job: null,
                tableRequest: 0,
                // the play so far: each "SEAT CARD" in order, your discard as the dealer, the
                // trump a bid's winner named, and a hand held now read from a link (the server
                // turns it into the hand as dealt)
                plays: [], discard: null, trump: null, heldFromLink: null,
                // the score a link gave, sent as it is until a score box is edited
                linkScore: null };

// ---------------------------------------------------------------- small helpers

// a card drawn as a card: ``card`` is an entry of the server's deck ({id, text, red})
function cardSpan(card) {
  const span = document.createElement("span");
  span.textContent = card.text;
  span.className = "card-text" + (card.red ? " red" : "");
  return span;
}

function cardsInto(box, texts) {
  box.textContent = "";
  for (const t of texts) {
    const card = state.deck.find((c) => c.text === t) || { text: t, red: /[HD]$/.test(t) };
    box.append(cardSpan(card), " ");
  }
}

class HttpError extends Error {
  constructor(message, status, retryAfter) { super(message); this.status = status; this.retryAfter = retryAfter; }
}

async function getJSON(url, options) {
  const response = await fetch(url, options);
  let body = null;
  try { body = await response.json(); } catch (e) { body = { error: `HTTP ${response.status}` }; }
  if (!response.ok) {
    throw new HttpError(body.error || `HTTP ${response.status}`, response.status,
                        response.headers.get("Retry-After"));
  }
  return body;
}

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "className") e.className = v; else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v);
  }
  if (text !== undefined) e.textContent = text;
  return e;
}

function showError(message) { $("error").textContent = message || ""; }

function capitalized(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function pct(x) { return x === null || x === undefined ? "" : (100 * x).toFixed(1) + "%"; }
// a share with a tenth, or two significant figures below 1% (as the command line prints it)
function sharePct(x) { return x > 0 && x < 0.01 ? (100 * x).toPrecision(2) + "%" : pct(x); }
function pts(x) { return x === null || x === undefined ? "" : (x >= 0 ? "+" : "") + x.toFixed(2); }
function seconds(s) { return s < 90 ? `${Math.ceil(s)} s` : `${Math.round(s / 60)} min`; }

// ---------------------------------------------------------------- the question as parameters

function cardText(id) { return state.deck.find((c) => c.id === id)?.text; }

function rulesParams(p) {
  p.set("variant", state.variant);
  for (const [name, value] of Object.entries(state.rules)) p.set(name, value);
  return p;
}

// the seats, the upcard and the calls heard
function pointParams(p) {
  if (state.seat) p.set("seat", state.seat);
  if (state.dealer) p.set("dealer", state.dealer);
  if (state.upcard !== null) p.set("upcard", cardText(state.upcard));
  if (state.calls.length) p.set("auction", state.calls.join(", "));
  return p;
}

// the table's question: the point, the hand as dealt and the cards tapped in the play
function tableParams() {
  const p = pointParams(rulesParams(new URLSearchParams()));
  if (state.heldFromLink) p.set("hand", state.heldFromLink.join(" "));
  else if (state.hand.length) p.set("dealt", state.hand.map(cardText).join(" "));
  if (state.plays.length) p.set("played", state.plays.join(", "));
  if (state.discard) p.set("discarded", state.discard);
  if (state.trump) p.set("trump", state.trump);
  return p;
}

// the question's own fields of the play (the hand held now, the tricks as the engine split
// them), once the auction is over; the hand as dealt before
function playParams(p) {
  const play = state.table?.phase === "play" ? state.table.play : null;
  p.set("hand", play && play.held ? play.held : state.hand.map(cardText).join(" "));
  if (!play) return p;
  if (play.played) p.set("played", play.played);
  if (play.discarded) p.set("discarded", play.discarded);
  if (state.trump) p.set("trump", state.trump);
  return p;
}

// the question's options the page offers, as the server describes them (/api/spec's
// "fields", the same description as the command line's flags, each labelled by its words):
// a box or a list each

function buildFields() {
  const box = $("fields");
  box.textContent = "";
  for (const f of state.spec.fields) {
    const label = el("label", { title: f.help });
    let input;
    if (f.choices.length) {
      input = el("select", { id: f.name });
      for (const c of f.choices) input.append(el("option", { value: c.value }, c.text));
    } else if (f.kind === "bool") {
      input = el("input", { id: f.name, type: "checkbox" });
      input.checked = Boolean(f.default);
    } else {
      // a number is typed as text: the server reads it by its one rule for numbers and says
      // why it refuses one (a number box would drop ' 5' or '٩' without a word)
      input = el("input", { id: f.name, type: "text", inputmode: f.kind === "str" ? "text" : "numeric" });
    }
    if (f.default !== null && f.kind !== "bool") input.value = String(f.default);
    label.append(capitalized(f.words) + " ", input);
    box.append(label);
  }
  if ($("deals")) $("deals").value = "";
}

function fieldValue(f) {
  const input = $(f.name);
  if (f.kind === "bool") return String(input.checked);
  if (f.name === "deals") return input.value || String(state.table?.deals ?? state.spec.deals);
  return input.value;
}

// the game's score before the hand: two boxes (us, them) with partners, else N, E, S; all
// filled (the answer is then in games won) or none. A link's score is sent as the link gave
// it until a box is edited, so the server reads it (and says why it refuses one) even when
// the boxes cannot show it.
function buildScore() {
  const v = state.spec.variants[state.variant];
  const box = $("score-inputs");
  const old = scoreValues();
  box.textContent = "";
  const names = v.scores === 2 ? ["us", "them"] : v.seats.slice(0, 3);
  names.forEach((name, i) => {
    const input = el("input", { id: "score-" + i, type: "text", inputmode: "numeric" });
    if (old.length === names.length) input.value = old[i];
    input.addEventListener("input", () => { state.linkScore = null; });
    const label = el("label");
    label.append(name + " ", input);
    box.append(label);
  });
}

function scoreValues() {
  return [...document.querySelectorAll("#score-inputs input")].map((i) => i.value);
}

// the boxes' score as the server reads it: none when every box is blank; with a box left
// blank, separated by ':' (so '9:' and ':-3' keep which side is blank), which the server
// refuses naming the side
function scoreText() {
  if (state.linkScore !== null) return state.linkScore;
  const values = scoreValues();
  if (values.every((v) => v === "")) return "";
  return values.join(values.includes("") ? ":" : "-");
}

function questionParams() {
  const p = playParams(pointParams(rulesParams(new URLSearchParams())));
  if (scoreText()) p.set("score", scoreText());
  for (const f of state.spec.fields) {  // every one, so that a shared link reproduces it
    const value = fieldValue(f) || (f.default === null ? "" : String(f.default));
    if (value !== "") p.set(f.name, value);
  }
  return p;
}

// ---------------------------------------------------------------- the form

function buildRules() {
  const box = $("house-rules");
  box.textContent = "";
  const variant = state.spec.variants[state.variant];
  $("variant-title").textContent = variant.title;
  const inForce = state.table?.rules ?? {};
  for (const opt of variant.options) {
    const row = el("div", { className: "rule" });
    const label = el("label");
    const input = el("input", { id: "rule-" + opt.name });
    if (opt.kind === "bool") {
      input.type = "checkbox";
      input.checked = state.rules[opt.name] !== undefined ? state.rules[opt.name] === "true"
                                                           : Boolean(inForce[opt.name] ?? opt.default);
      input.addEventListener("change", () => { state.rules[opt.name] = String(input.checked);
                                               resetCards(); refresh(); });
    } else {
      input.type = "text";  // read by the server's rule for numbers, as typed
      input.inputMode = "numeric";
      input.value = state.rules[opt.name] ?? (inForce[opt.name] ?? opt.default ?? "");
      input.addEventListener("change", () => { state.rules[opt.name] = input.value; refresh(); });
    }
    label.append(input, " " + opt.label);
    const help = el("small", { className: "rule-help", id: "help-" + opt.name }, opt.help);
    help.hidden = true;
    const toggle = el("button", { type: "button", className: "help-toggle",
                                  "aria-label": "what " + opt.label + " means" }, "?");
    toggle.addEventListener("click", () => { help.hidden = !help.hidden; });
    row.append(label, " ", toggle, help);
    box.append(row);
  }
  $("pick-upcard-label").hidden = !variant.upcard;
  $("upcard-line").hidden = !variant.upcard;
}

// the number boxes show the rules in force (a double deck's failed moon costs 12, not 6)
function showRulesInForce() {
  const inForce = state.table?.rules ?? {};
  for (const opt of state.spec.variants[state.variant].options) {
    const input = $("rule-" + opt.name);
    if (!input || state.rules[opt.name] !== undefined || !(opt.name in inForce)) continue;
    if (opt.kind === "bool") input.checked = Boolean(inForce[opt.name]);
    else input.value = inForce[opt.name];
  }
}

const WHERE = { N: 2, W: 4, E: 6, S: 8 };

// the table: the four places, the dealer's chip, and the upcard on the felt by the dealer
function drawTable(grid, seats, opts) {
  grid.textContent = "";
  for (let cell = 1; cell <= 9; cell++) {
    const seat = Object.keys(WHERE).find((s) => WHERE[s] === cell);
    const div = el("div");
    if (cell === 5) {
      div.className = "felt" + (opts.dealer ? " toward-" + opts.dealer : "");
      if (opts.upcard) {
        const card = state.deck.find((c) => c.text === opts.upcard) || { text: opts.upcard, red: /[HD]$/.test(opts.upcard) };
        const up = el("span", { className: "upcard" + (card.red ? " red" : ""), id: grid.id + "-upcard" },
                      card.text);
        div.append(up, el("small", {}, "upcard"));
      }
    } else if (seat) {
      const here = seats.includes(seat);
      div.className = "seat" + (here ? "" : " absent") + (opts.you === seat ? " you" : "");
      div.id = grid.id + "-seat-" + seat;
      div.append(el("b", {}, seat));
      if (opts.dealer === seat) div.append(" ", el("span", { className: "chip" }, "dealer"));
      if (opts.you === seat) div.append(" ", el("span", { className: "chip you-chip" }, "you"));
      if (opts.buttons && here) opts.buttons(div, seat);
    }
    grid.append(div);
  }
}

function buildSeats() {
  const seats = state.spec.variants[state.variant].seats;
  drawTable($("table-diagram"), seats, {
    you: state.seat, dealer: state.dealer,
    upcard: state.upcard !== null ? cardText(state.upcard) : null,
    buttons: (div, seat) => {
      const line = el("div", { className: "seat-buttons" });
      const you = el("button", { type: "button", id: "you-" + seat,
                                 className: state.seat === seat ? "on" : "" }, "you");
      you.addEventListener("click", () => { state.seat = seat; state.calls = []; clearPlay(); redraw(); });
      const dealer = el("button", { type: "button", id: "dealer-" + seat,
                                    className: state.dealer === seat ? "on" : "" }, "dealer");
      dealer.addEventListener("click", () => { state.dealer = seat; state.calls = []; clearPlay(); redraw(); });
      line.append(you, dealer);
      div.append(line);
    },
  });
}

function buildDeck() {
  const box = $("deck");
  box.textContent = "";
  const size = state.table ? state.table.hand_size : 0;
  const picking = document.querySelector("input[name=pick]:checked").value;
  const others = new Set(state.plays.filter((p) => !p.startsWith(state.seat + " ")).map((p) => p.split(" ")[1]));
  for (const card of state.deck) {
    const b = el("button", { type: "button", className: "card " + (card.red ? "red" : "black"),
                             id: "card-" + card.id, dataset: { card: card.text } },
                 card.text);
    const inHand = state.hand.includes(card.id);
    if (inHand) b.classList.add("in-hand");
    if (state.upcard === card.id) b.classList.add("is-upcard");
    b.disabled = (picking === "hand" && !inHand && (state.upcard === card.id || state.hand.length >= size
                                                     || others.has(card.text)))
              || (picking === "upcard" && inHand);
    b.addEventListener("click", () => clickCard(card.id));
    box.append(b);
  }
  $("hand-count").textContent = `(${state.hand.length} of ${size})`;
  cardsInto($("hand-text"), state.hand.map(cardText));
  cardsInto($("upcard-text"), state.upcard !== null ? [cardText(state.upcard)] : []);
}

function clickCard(id) {
  const picking = document.querySelector("input[name=pick]:checked").value;
  if (picking === "upcard") {
    state.upcard = state.upcard === id ? null : id;
    state.calls = [];
    clearPlay();
  } else if (state.hand.includes(id)) {
    state.hand = state.hand.filter((c) => c !== id);
  } else {
    state.hand.push(id);
  }
  redraw();
}

// a call the seat may say: its words are the answers' (``words``), its value the calls heard's
// notation (``call``)
function callButton(seat, call, words, mine) {
  const b = el("button", { type: "button", className: "call" + (mine ? " mine" : ""),
                           dataset: { call, seat } }, words);
  b.addEventListener("click", () => { state.calls.push(`${seat} ${call}`); refresh(); });
  return b;
}

const ASK_WORDS = { call: "What should I call?", discard: "Which card should I discard?",
                    defend: "Should I defend alone?", card: "Which card should I play?" };

function buildCalls() {
  const box = $("calls");
  box.textContent = "";
  const t = state.table;
  const heard = t?.heard?.length === state.calls.length ? t.heard : state.calls;
  $("auction-text").textContent = heard.length ? heard.join(", ") : "nothing yet";
  $("auction-text").dataset.auction = state.calls.join(", ");
  const asked = t?.your_turn ? t.decision : t?.phase === "play" ? "card" : "call";
  $("ask-button").textContent = ASK_WORDS[asked] || ASK_WORDS.call;
  if (!t || !state.seat || !state.dealer || (t.upcard && state.upcard === null)) {
    $("turn-line").textContent = "Choose your seat, the dealer" +
      (state.spec.variants[state.variant].upcard ? " and the upcard" : "") + " first.";
    return;
  }
  if (t.phase === "play") { $("turn-line").textContent = "The bidding is over: the play is below."; return; }
  if (t.turn === null) { $("turn-line").textContent = "The bidding is over: nothing is left for you to decide."; return; }
  if (t.your_turn) {
    const what = t.decision === "discard" ? "which card to discard" : t.decision === "defend" ? "whether to defend alone" : "what to call";
    $("turn-line").textContent = `Your turn (${t.turn}): ask ${what} below` +
      (t.calls.length ? " — or, to ask about a later turn, tap what you said:" : ".");
    t.calls.forEach((call, i) => box.append(callButton(t.turn, call, t.call_words[i], true)));
    return;
  }
  $("turn-line").textContent = `${t.turn} to call: tap what they said.`;
  t.calls.forEach((call, i) => box.append(callButton(t.turn, call, t.call_words[i], false)));
}

async function refresh() {
  showError("");
  const mine = ++state.tableRequest;  // a slower answer to an older click must not win
  try {
    const table = await getJSON("/api/table?" + tableParams());
    if (mine !== state.tableRequest) return;
    state.table = table;
    if (state.heldFromLink) {  // a link's hand held now, as the server says it was dealt
      const dealt = table.play?.dealt;
      state.hand = placeCards(dealt ? dealt.split(" ") : state.heldFromLink, false);
      state.heldFromLink = null;
    }
    const before = state.deck.map((c) => c.id).join();
    state.deck = table.deck;
    if (before !== state.deck.map((c) => c.id).join()) {
      const ids = new Set(state.deck.map((c) => c.id));
      state.hand = state.hand.filter((c) => ids.has(c));
      if (!ids.has(state.upcard)) state.upcard = null;
    }
    $("deals").placeholder = table.deals.toLocaleString();
    showRulesInForce();
  } catch (e) {
    if (mine !== state.tableRequest) return;
    // the last tap was not legal (a 4xx): take it back and say why; a lost connection keeps it
    if (e.status >= 400 && e.status < 500 && takeBack()) await refresh();
    showError(e.message);
    return;
  }
  buildSeats();
  buildDeck();
  buildCalls();
  buildPlay();
}

// the last thing tapped, taken back: a card played, your discard, the trump named, a call
// (a link's hand held now gets back the cards of yours taken back: what was valid stays)
function takeBack() {
  if (state.heldFromLink && !state.plays.length && !state.discard) {
    state.heldFromLink = null; clearPlay(); return true;
  }
  if (state.plays.length) {
    const [seat, card] = state.plays.pop().split(" ");
    if (state.heldFromLink && seat === state.seat) state.heldFromLink.push(card);
    return true;
  }
  if (state.heldFromLink && state.discard) { state.heldFromLink.push(state.discard); state.discard = null; return true; }
  if (state.discard) { state.discard = null; return true; }
  if (state.trump) { state.trump = null; return true; }
  if (state.calls.length) { state.calls.pop(); return true; }
  return false;
}

function clearPlay() { state.plays = []; state.discard = null; state.trump = null; }

// ---------------------------------------------------------------- the play so far

const SUIT_NAMES = { C: "clubs ♣", D: "diamonds ♦", H: "hearts ♥", S: "spades ♠" };

function deckCard(text) {
  return state.deck.find((c) => c.text === text) || { text, red: /[HD]$/.test(text) };
}

function playButton(text, onClick, mine) {
  const card = deckCard(text);
  const b = el("button", { type: "button", className: "card " + (card.red ? "red" : "black") + (mine ? " mine" : ""),
                           dataset: { play: text } }, text);
  b.addEventListener("click", onClick);
  return b;
}

// the tricks as the server split them, each card drawn as a card, with who took it
function drawTricks(list, tricks) {
  list.textContent = "";
  tricks.forEach((trick, i) => {
    const li = el("li", { className: "trick", dataset: { trick: String(i + 1) } });
    trick.cards.forEach((c, j) => {
      if (j) li.append(" · ");
      li.append(el("b", {}, c.seat + " "), cardSpan(deckCard(c.card)));
    });
    if (trick.winner) li.append(el("span", { className: "winner" }, ` — ${trick.winner} takes it`));
    list.append(li);
  });
}

function buildPlay() {
  const t = state.table;
  const panel = $("play-panel");
  panel.hidden = !(t && t.phase === "play" && t.play);
  if (panel.hidden) return;
  const play = t.play;
  $("contract-line").textContent = play.contract.text ? `Contract: ${play.contract.text}.` : "";
  const list = $("tricks");
  drawTricks(list, play.tricks);
  if (play.discarded) {
    const li = el("li", { className: "trick discarded" }, "You discarded ");
    li.append(cardSpan(deckCard(play.discarded)));
    list.prepend(li);
  }
  cardsInto($("held-text"), play.held ? play.held.split(" ") : []);
  $("held-line").hidden = !play.held;
  const box = $("play-cards");
  box.textContent = "";
  $("undo-play").hidden = !(state.plays.length || state.discard || state.trump);
  const line = $("play-turn-line");
  if (play.note) { line.textContent = capitalized(play.note) + "."; return; }
  if (play.over) { line.textContent = "The hand is over: nothing is left to decide."; return; }
  if (play.need_trump) {
    line.textContent = play.contract.maker === state.seat ? "You won the bidding: tap the trump you named."
      : `${play.contract.maker} won the bidding: tap the trump they named.`;
    for (const suit of state.spec.suits) {
      const b = el("button", { type: "button", className: "call", dataset: { trump: suit } }, SUIT_NAMES[suit]);
      b.addEventListener("click", () => { state.trump = suit; refresh(); });
      box.append(b);
    }
    return;
  }
  const trick = play.tricks.length ? play.tricks[play.tricks.length - 1] : null;
  const number = !trick || trick.winner ? play.tricks.length + 1 : play.tricks.length;
  if (t.your_turn && t.decision === "discard") {
    line.textContent = "You are the dealer and took the upcard: ask which card to discard, " +
      "or tap the card you discarded to go on to the play:";
    for (const c of play.cards) box.append(playButton(c, () => { state.discard = c; refresh(); }, true));
  } else if (t.your_turn) {
    line.textContent = `Trick ${number}: your turn (${t.turn}). ` +
      "Ask which card to play, or tap the card you played to go on:";
    for (const c of play.cards) box.append(playButton(c, () => { state.plays.push(`${t.turn} ${c}`); refresh(); }, true));
  } else {
    line.textContent = `Trick ${number}: ${t.turn} to play: tap the card they played.`;
    for (const c of play.cards) box.append(playButton(c, () => { state.plays.push(`${t.turn} ${c}`); refresh(); }, false));
  }
}

function redraw() { buildSeats(); refresh(); }

function resetCards() { state.hand = []; state.upcard = null; state.calls = []; clearPlay(); }

// ---------------------------------------------------------------- the answer

function clearAnswer() {
  $("answer").hidden = true;
  for (const id of ["verdict", "verdict-figures", "answer-notes", "chart", "options-table"]) $(id).textContent = "";
  $("options-table-more").hidden = true;
}

const COLUMNS = [["label", "call"], ["ev", "net points"], ["interval", "95% interval"], ["vs_best", "vs best"]];
const IN_PLAY = ["card", "discard"];  // decisions whose rows also say our side's tricks
const MEANING = { "net points": "what the call is worth to your side a hand, on average: your points minus theirs",
                  "95% interval": "the true value is in it 19 times in 20",
                  "vs best": "what the call costs against the best one, on the same deals",
                  "win game %": "the chance your side wins the game after this hand, from the score given",
                  "our tricks": "the tricks your side takes in the whole hand, on average",
                  "we make": "your side named trump and took what it needed",
                  "we're set": "your side named trump and did not take what it needed",
                  "they make": "the other side named trump and made it",
                  "they're set": "the other side named trump and did not make it",
                  "redeal": "everyone passed: the cards are dealt again" };

const SHOWN_ROWS = 10;  // a longer answer (a double deck's 45 bids) shows its best, the rest folded

// the options a long answer folds away: all but the SHOWN_ROWS best (and the best itself)
function foldedRows(result) {
  if (result.options.length <= SHOWN_ROWS) return new Set();
  const scored = result.score !== null && result.score !== undefined;
  const value = (r) => (scored ? r.p_win : r.ev);
  const kept = new Set([...result.options].sort((a, b) => value(b) - value(a)).slice(0, SHOWN_ROWS)
    .map((r) => r.label));
  kept.add(result.best.label);
  return new Set(result.options.map((r) => r.label).filter((label) => !kept.has(label)));
}

// the table's button that shows the folded rows or folds them again; ``onToggle(open)`` redraws
// what else shows the rows (the chart)
function foldButton(table, result, folded, onToggle) {
  const b = $(table.id + "-more");
  b.hidden = !folded.size;
  const show = (open) => {
    for (const tr of table.querySelectorAll("tr.folded")) tr.hidden = !open;
    b.textContent = open ? `show the best ${result.options.length - folded.size} only`
      : `show all ${result.options.length} (${folded.size} more)`;
    b.dataset.open = open ? "1" : "";
    if (onToggle) onToggle(open);
  };
  b.onclick = () => show(!b.dataset.open);
  show(false);
}

// every option's row, a long answer's worst folded away (``onToggle``: see foldButton)
function optionsTable(table, result, outcomes, onToggle) {
  table.textContent = "";
  const head = table.createTHead().insertRow();
  const first = IN_PLAY.includes(result.decision) ? result.decision : "call";
  const scored = result.score !== null && result.score !== undefined;
  const cols = [["label", first], ...(scored ? [["p_win", "win game %"]] : []), ...COLUMNS.slice(1),
                ...(IN_PLAY.includes(result.decision) ? [["tricks", "our tricks"]] : []),
                ...outcomes.map(([k, w]) => ["p_" + k, w])];
  for (const [, h] of cols) head.append(el("th", MEANING[h] ? { title: MEANING[h] } : {}, h));
  const body = table.createTBody();
  const folded = foldedRows(result);
  for (const row of result.options) {
    const tr = body.insertRow();
    if (row.label === result.best.label) tr.className = "best";
    if (folded.has(row.label)) tr.className = "folded";
    const texts = {
      label: row.label + (row.received_most ? `, gets ${row.received_most}` : ""),
      ev: pts(row.ev), interval: `[${pts(row.ev_low)}, ${pts(row.ev_high)}]`,
      vs_best: (row.label === result.best.label ? "best"
        : scored ? `${(100 * row.vs_best).toFixed(1)} pts of %` : pts(row.vs_best)) +
        (row.dropped_after !== null && row.dropped_after !== undefined ? "*" : ""),
      tricks: row.tricks === null || row.tricks === undefined ? "" : row.tricks.toFixed(2),
    };
    for (const [key, h] of cols) {
      const td = tr.insertCell();
      td.dataset.label = h;
      td.textContent = key in texts ? texts[key] : pct(row[key]);
    }
  }
  foldButton(table, result, folded, onToggle && ((open) => onToggle(open ? result.options
    : result.options.filter((r) => !folded.has(r.label)))));
}

function shownOutcomes(result) {
  return Object.entries(state.spec.outcomes)
    .filter(([k]) => k !== "redeal" || result.options.some((r) => r.p_redeal > 0));
}

function figuresLine(result) {
  const b = result.best;
  let line = `Best: ${b.label}: ${pts(b.ev)} net points a hand`;
  if (b.win !== null && b.win !== undefined) return `Best: ${b.label}: ${pct(b.win)} to win the game (${pts(b.ev)} net points a hand)`;
  if (b.runner_up_label) {
    line += result.exact ? `, ${pts(b.margin)} against ${b.runner_up_label}`
      : `, ${pts(b.margin)} [${pts(b.margin_low)}, ${pts(b.margin_high)}] against ${b.runner_up_label}`;
  }
  return line;
}

function showAnswer(result, params) {
  clearAnswer();
  $("answer").hidden = false;
  $("verdict").textContent = result.best.sentence;
  $("verdict-figures").textContent = figuresLine(result);
  const method = state.spec.methods.find((m) => m.value === result.method)?.text ?? result.method;
  const notes = [`${result.deals.toLocaleString()} deals, card play ${method}, ${result.seconds.toFixed(1)} s`];
  if (result.others_play && result.others_play !== result.method) {
    notes.push(`the other calls by the ${result.others} strategy, valued with ${result.others_play} play`);
  }
  if (result.inference) notes.push(`${sharePct(result.acceptance)} of the deals tried fit the calls heard`);
  if (result.interrupted) notes.push("cancelled");
  notes.push(...(result.inferred || []));
  notes.push(...result.notes);
  $("answer-notes").textContent = notes.join("; ");
  optionsTable($("options-table"), result, shownOutcomes(result), drawChart);
  const link = new URL(location.href);
  link.search = params + "&ask=1";
  $("share-link").href = link.toString();
  $("share-link").textContent = link.toString();
}

// each call's net points as a bar with its interval; labels above the bars, so no label is
// cut whatever its length, and the drawing scales to the width it is given
function drawChart(rows) {
  const w = Math.max(280, Math.min(640, $("chart").clientWidth || 600));
  const rowH = 38, top = 8, h = rows.length * rowH + 44;
  const lo = Math.min(0, ...rows.map((r) => r.ev_low ?? r.ev));
  const hi = Math.max(0, ...rows.map((r) => r.ev_high ?? r.ev));
  const pad = 16;
  const x = (v) => pad + (v - lo) / ((hi - lo) || 1) * (w - 2 * pad);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("width", "100%");
  svg.setAttribute("style", `max-width: ${w}px`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "net points of each call, with 95% intervals");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    svg.append(e);
  };
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    add("text", { x: pad, y: y + 12, "font-size": 13 }, `${r.label}  ${pts(r.ev)}`);
    add("rect", { x: Math.min(x(0), x(r.ev)), y: y + 18, width: Math.max(1, Math.abs(x(r.ev) - x(0))),
                  height: 12, fill: r.ev >= 0 ? "#4a8" : "#c66" });
    add("line", { x1: x(r.ev_low ?? r.ev), x2: x(r.ev_high ?? r.ev), y1: y + 24, y2: y + 24, stroke: "#222" });
  });
  const axis = h - 30;
  add("line", { x1: pad, x2: w - pad, y1: axis, y2: axis, stroke: "#888" });
  add("line", { x1: x(0), x2: x(0), y1: top, y2: axis + 4, stroke: "#888" });
  for (const [v, anchor] of [[lo, "start"], [0, "middle"], [hi, "end"]]) {
    // zero once, in the middle; an end only when it is not crowded against zero
    if (v === 0 ? anchor === "middle" : Math.abs(x(v) - x(0)) > 40) add("text", { x: x(v), y: axis + 16, "text-anchor": anchor, "font-size": 12 }, pts(v));
  }
  add("text", { x: w / 2, y: h - 2, "text-anchor": "middle", "font-size": 12 }, "net points a hand");
  $("chart").textContent = "";
  $("chart").append(svg);
}

// ---------------------------------------------------------------- asking

function showProgress(s) {
  $("progress-bar").max = s.total || 1;
  $("progress-bar").value = s.done;
  const left = s.seconds_left === null ? "" : `, about ${seconds(s.seconds_left)} left`;
  $("progress-text").textContent = s.total
    ? `${s.done.toLocaleString()} / ${s.total.toLocaleString()} deals${left}`
    : `starting… ${Math.floor(s.seconds)} s`;
}

async function ask() {
  showError("");
  if (state.job) return;
  if (state.table?.hand_size && state.hand.length !== state.table.hand_size) {
    showError(`Choose your ${state.table.hand_size} cards first (${state.hand.length} so far).`);
    return;
  }
  clearAnswer();  // the numbers are the server's to read: it refuses a bad one at once, saying why
  const params = questionParams().toString();
  try {
    const job = await getJSON("/api/jobs/odds?" + params, { method: "POST" });
    state.job = job.id;
    $("progress").hidden = false;
    $("ask-button").disabled = true;
    showProgress(job);
    history.replaceState(null, "", "?" + params);
    await poll(params);
  } catch (e) {
    showError(e.message);
    if (e.status === 409) checkRunning();
  }
}

async function poll(params) {
  try {
    while (state.job) {
      const s = await getJSON("/api/jobs/" + state.job);
      showProgress(s);
      if (s.state !== "running") {
        if (s.result) showAnswer(s.result, params);
        else showError(s.error);
        return;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (e) {
    showError(e.message);
  } finally {
    state.job = null;
    $("progress").hidden = true;
    $("ask-button").disabled = false;
  }
}

async function cancel() {
  if (state.job) {
    try { await getJSON("/api/jobs/" + state.job, { method: "DELETE" }); } catch (e) { showError(e.message); }
  }
}

// a question someone else (or this page before a reload) started: say so, offer to cancel
async function checkRunning() {
  try {
    const r = await getJSON("/api/jobs");
    const run = r.running;
    if (!run || state.job || practice.dealing || playHand.busy) { $("running").hidden = true; return; }
    $("running").hidden = false;
    const done = run.total ? `, ${Math.floor(100 * run.done / run.total)}% done` : "";
    $("running-text").textContent = `The analyzer is busy with ${run.label} (${Math.floor(run.seconds)} s so far${done}).`;
  } catch (e) { /* the banner is a courtesy: a failed look leaves it as it was */ }
}

async function cancelRunning() {
  try { await getJSON("/api/jobs/running", { method: "DELETE" }); } catch (e) { /* it finished meanwhile */ }
  $("running").hidden = true;
}

// ---------------------------------------------------------------- practice

const GRADES = [[0.25, "inaccuracy"], [0.75, "mistake"], [Infinity, "blunder"]];
// ``dealing``: this page's own practice question runs (the banner is for someone else's)
const practice = { position: null, result: null, picked: null, seed: null, n: 0, dealing: false };

function practiceKey() {
  return `practice:${$("practice-variant").value}:${$("practice-seat").value}:${$("practice-decisions").value}:${practice.seed}`;
}

function tally() {
  try { return JSON.parse(sessionStorage.getItem(practiceKey())) || { graded: {}, lost: 0 }; }
  catch (e) { return { graded: {}, lost: 0 }; }
}

function showTally() {
  const t = tally();
  const grades = Object.values(t.graded);
  if (!grades.length) { $("practice-tally").textContent = ""; return; }
  const count = (g) => grades.filter((x) => x === g).length;
  $("practice-tally").textContent = `${grades.length} position${grades.length > 1 ? "s" : ""}: ` +
    ["best", "fine", "inaccuracy", "mistake", "blunder"].map((g) => `${count(g)} ${g}`).join(", ") +
    `; ${t.lost.toFixed(2)} points a hand lost in all`;
}

function practiceParams() {
  const p = new URLSearchParams({ tab: "practice", variant: $("practice-variant").value,
                                  seat: $("practice-seat").value, decisions: $("practice-decisions").value,
                                  seed: String(practice.seed), n: String(practice.n) });
  if (p.get("variant") === state.variant) for (const [k, v] of Object.entries(state.rules)) p.set(k, v);
  return p;
}

function fillPracticeSeats() {
  $("practice-variant-title").textContent = state.spec.variants[$("practice-variant").value].title;
  const seats = state.spec.variants[$("practice-variant").value].seats;
  const box = $("practice-seat");
  const before = box.value;
  box.textContent = "";
  for (const s of seats) box.append(el("option", { value: s }, s));
  box.value = seats.includes(before) ? before : seats[seats.length > 3 ? 3 : 0];
}

async function dealPractice() {
  $("practice-error").textContent = "";
  $("practice-position").hidden = false;
  for (const id of ["practice-grade", "practice-figures", "practice-choices", "practice-options"]) $(id).textContent = "";
  $("practice-options-more").hidden = true;
  $("practice-next").hidden = true;
  $("practice-prompt").textContent = "Dealing…";
  practice.result = null;
  practice.picked = null;
  practice.dealing = true;
  $("running").hidden = true;
  const params = practiceParams();
  history.replaceState(null, "", "?" + params);
  $("practice-link").href = "?" + params;
  try {
    const pos = await getJSON("/api/practice?" + params);
    practice.position = pos;
    practice.seed = pos.seed; practice.n = pos.n;  // numbers, as the server read them
    $("practice-title").textContent = `Position ${practice.n + 1}`;
    drawTable($("practice-table"), state.spec.variants[pos.variant].seats,
              { you: pos.seat, dealer: pos.dealer, upcard: pos.upcard });
    cardsInto($("practice-hand"), pos.hand.split(" "));
    $("practice-prompt").textContent = "Thinking about your choices…";
    const table = await getJSON("/api/table?" + practiceTableParams(pos));
    $("practice-heard").textContent = table.heard.join(", ") || "nothing: you speak first";
    showPracticePlay(pos, table);
    const q = new URLSearchParams({ variant: pos.variant, ...pos.rules, seat: pos.seat, dealer: pos.dealer,
                                    hand: pos.hand, seed: String(pos.seed), deals: String(table.deals) });
    if (pos.upcard) q.set("upcard", pos.upcard);
    if (pos.auction) q.set("auction", pos.auction);
    if (pos.played) q.set("played", pos.played);
    if (pos.discarded) q.set("discarded", pos.discarded);
    if (pos.trump && pos.decision !== "call") q.set("trump", pos.trump);
    const job = await getJSON("/api/jobs/odds?" + q, { method: "POST" });
    let s = job;
    while (s.state === "running") {
      await new Promise((r) => setTimeout(r, 250));
      s = await getJSON("/api/jobs/" + job.id);
    }
    if (!s.result) throw new Error(s.error || "the question was cancelled");
    practice.result = s.result;
    showChoices();
  } catch (e) {
    $("practice-prompt").textContent = "";
    $("practice-error").textContent = e.message;
  } finally {
    practice.dealing = false;
  }
}

// the table of a practice position: the calls heard in words, and in the play the contract and tricks
function practiceTableParams(pos) {
  const p = new URLSearchParams({ variant: pos.variant, ...pos.rules });
  const point = [["seat", pos.seat], ["dealer", pos.dealer], ["upcard", pos.upcard], ["auction", pos.auction]];
  const play = [["hand", pos.hand], ["played", pos.played], ["discarded", pos.discarded], ["trump", pos.trump]];
  for (const [k, v] of pos.decision === "call" ? point : [...point, ...play]) if (v) p.set(k, v);
  return p;
}

function showPracticePlay(pos, table) {
  const play = table.phase === "play" ? table.play : null;
  $("practice-contract").hidden = !play;
  $("practice-tricks").hidden = !play || !play.tricks.length;
  drawTricks($("practice-tricks"), play ? play.tricks : []);
  if (!play) return;
  $("practice-contract").textContent = `Contract: ${play.contract.text}.` +
    (pos.discarded ? ` You discarded ${pos.discarded}.` : "");
}

// the choices are the calls, each at its best detail, which stays hidden until the pick (the
// label without its detail); a discard or a card is its label, as the answer's rows name it
function choiceName(row) {
  if (practice.position?.decision !== "call") return row.label;
  return `${row.option} ${row.trump || ""}`.trim();
}

const PROMPTS = { call: "Your call:", discard: "Your discard:", card: "Your card:" };

function showChoices() {
  $("practice-prompt").textContent = PROMPTS[practice.position.decision] || PROMPTS.call;
  const box = $("practice-choices");
  box.textContent = "";
  for (const row of practice.result.options) {
    const b = el("button", { type: "button", className: "call", dataset: { call: choiceName(row) } }, choiceName(row));
    b.addEventListener("click", () => grade(row));
    box.append(b);
  }
}

function grade(row) {
  if (practice.picked) return;
  practice.picked = row;
  const r = practice.result;
  const best = r.options.find((o) => o.label === r.best.label);
  // the cost is the row's "vs best", on the same deals (a choice dropped early was played on
  // fewer deals: its net points against the best's would be another number)
  const cost = row.label === best.label ? 0 : -row.vs_best;
  let word;
  if (row.label === best.label) word = "best";
  else if (row.vs_best_high >= 0) word = "fine";
  else word = GRADES.find(([limit]) => cost < limit)[1];
  const sentence = { best: "Best: the analyzer's choice too.",
                     fine: `Fine: within the margin of error of the best (${choiceName(best)}).`,
                     inaccuracy: `An inaccuracy: ${choiceName(best)} was better.`,
                     mistake: `A mistake: ${choiceName(best)} was better.`,
                     blunder: `A blunder: ${choiceName(best)} was much better.` }[word];
  $("practice-grade").textContent = sentence;
  $("practice-grade").dataset.grade = word;
  $("practice-figures").textContent = word === "best" ? r.best.sentence
    : `You chose ${choiceName(row)}: it costs ${cost.toFixed(2)} points a hand ` +
      `[${(-row.vs_best_high).toFixed(2)}, ${(-row.vs_best_low).toFixed(2)}] against ${best.label}. ${r.best.sentence}`;
  for (const b of $("practice-choices").querySelectorAll("button")) {
    b.disabled = true;
    if (b.dataset.call === choiceName(row)) b.classList.add("picked");
  }
  optionsTable($("practice-options"), r, shownOutcomes(r));
  const t = tally();
  if (!(practice.n in t.graded)) {
    t.graded[practice.n] = word;
    t.lost += Math.max(0, cost);
    sessionStorage.setItem(practiceKey(), JSON.stringify(t));
  }
  showTally();
  $("practice-next").hidden = false;
}

// ---------------------------------------------------------------- review

function reviewHeadline(r) {
  const res = r.result || {};
  const points = Object.entries(res.points || {}).map(([side, p]) => `${side} ${p > 0 ? "+" : ""}${p}`).join(", ");
  return `${r.variant}: ${r.declarer} ${r.contract}, trump ${r.trump}; needs ${r.need}, worth ` +
    `${r.dd_tricks_at_first_lead} double dummy at the first lead (${r.makeable ? "makeable" : "not makeable"}); ` +
    `took ${r.declarer_tricks}` + (points ? `; points: ${points}` : "");
}

function reviewTable(id, headers, rows) {
  const table = el("table", { id, className: "options" });
  const head = table.createTHead().insertRow();
  for (const h of headers) head.append(el("th", {}, h));
  const body = table.createTBody();
  for (const [cells, flagged] of rows) {
    const tr = body.insertRow();
    if (flagged) tr.className = "best";
    cells.forEach((c, i) => {
      const td = tr.insertCell();
      td.dataset.label = headers[i];
      if (c instanceof Node) td.append(c); else td.textContent = c;
    });
  }
  return table;
}

// the record's whole text goes to the server, which reads it as euchre review reads a file:
// one record (on one line or indented), or several (then ``which`` picks one)
async function review() {
  $("review-error").textContent = "";
  $("review-answer").textContent = "reviewing…";
  const text = $("record-text").value.trim();
  const which = Number($("review-which").value || 1);
  try {
    const r = await getJSON("/api/review", { method: "POST", headers: { "content-type": "application/json" },
                                             body: JSON.stringify({ record: text, which, others: $("others").value }) });
    showRecordChoice(r.records || 1, r.which || 1);
    state.deck = (await getJSON("/api/table?" + new URLSearchParams({ variant: r.variant, ...(r.rules || {}) }))).deck;
    const asCard = (t) => { const c = state.deck.find((x) => x.text === t); return c ? cardSpan(c) : t; };
    const box = $("review-answer");
    box.textContent = "";
    box.append(el("p", { className: "verdict", id: "review-headline" }, reviewHeadline(r)));
    const calls = r.decisions.filter((d) => d.kind === "call");
    const play = r.decisions.filter((d) => d.kind !== "call");
    if (calls.length) {
      box.append(el("h3", {}, "Calls, each priced where it was made (net points for the caller)"));
      box.append(reviewTable("review-calls", ["#", "seat", "call", "net points", "best call", "its points", "cost"],
        calls.map((d) => [[String(d.step), d.seat, d.choice, pts(d.value_after), d.best || "(this one)",
                           pts(d.value_before), d.best ? pts(d.cost_points) : "-"], (d.cost_points ?? 0) > 0])));
    }
    box.append(el("h3", {}, `The play: the declaring side's tricks (${r.judged_by}), best choice and the one made`));
    box.append(reviewTable("review-table", ["#", "decision", "seat", "trick", "made", "best", "before", "after", "cost (tricks)", "cost (points)"],
      play.map((d) => [[String(d.step), d.kind, d.seat, d.trick ?? "", asCard(d.choice), d.best ? asCard(d.best) : "",
                        String(d.value_before ?? ""), String(d.value_after ?? ""),
                        d.cost_tricks ? String(d.cost_tricks) : "-", d.cost_points ? pts(d.cost_points) : "-"],
                       (d.cost_tricks ?? 0) > 0 || (d.cost_points ?? 0) > 0])));
    for (const n of r.notes || []) box.append(el("p", { className: "notes" }, n));
  } catch (e) {
    $("review-answer").textContent = "";
    $("review-error").textContent = e.message;
  }
}

// a text of several records: which one is reviewed, and a list to review another
function showRecordChoice(count, which) {
  const box = $("review-which");
  $("review-which-line").hidden = count < 2;
  if (box.options.length !== count) {
    box.textContent = "";
    for (let i = 1; i <= count; i++) box.append(el("option", { value: String(i) }, String(i)));
  }
  box.value = String(which);
  $("review-count").textContent = String(count);
}

// ---------------------------------------------------------------- play a hand

// the hand being played: its table as the server last sent it (``table``, with its id), what
// of it is drawn (calls, plays), and whether a request of ours is on its way
const playHand = { table: null, shownCalls: 0, shownPlays: 0, busy: false };
const STEP_MS = 250;  // the others' calls and cards arrive one at a time, this far apart
const PLAY_PROMPTS = { call: "Your call:", discard: "Your discard (you took the upcard):",
                       defend: "Defend alone?", keep: "Keep five of your cards and the dummy's:",
                       card: "Your card:" };

function playRulesBox() {
  const box = $("play-rules");
  box.textContent = "";
  for (const opt of state.spec.variants[$("play-variant").value].options) {
    const label = el("label", { title: opt.help });
    const input = el("input", { id: "play-rule-" + opt.name, dataset: { rule: opt.name } });
    if (opt.kind === "bool") { input.type = "checkbox"; input.checked = !!opt.default; }
    else { input.setAttribute("inputmode", "numeric"); input.size = 5; input.value = opt.default ?? ""; }
    label.append(input, " ", opt.label);
    box.append(label);
  }
}

function fillPlaySeats() {
  const v = state.spec.variants[$("play-variant").value];
  $("play-variant-title").textContent = v.title;
  const box = $("play-seat");
  const before = box.value;
  box.textContent = "";
  for (const s of v.seats) box.append(el("option", { value: s }, s));
  box.value = v.seats.includes(before) ? before : (v.seats.includes("S") ? "S" : v.seats[0]);
  playRulesBox();
}

// the deal's fields: variant, seat, seed, a game or a hand and each house rule that differs
// from its default
function playBody() {
  const body = { variant: $("play-variant").value, seat: $("play-seat").value,
                 seed: $("play-seed").value.trim() || "0" };
  if ($("play-mode").value === "game") body.game = true;
  for (const opt of state.spec.variants[body.variant].options) {
    const input = $("play-rule-" + opt.name);
    const value = opt.kind === "bool" ? input.checked : input.value.trim();
    if (value !== "" && String(value) !== String(opt.default ?? "")) body[opt.name] = value;
  }
  return body;
}

async function playRequest(url, body) {
  playHand.busy = true;
  $("running").hidden = true;  // the question running is ours
  $("play-error").textContent = "";
  try {
    return await getJSON(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                body: JSON.stringify(body) });
  } catch (e) {
    $("play-error").textContent = e.retryAfter ? `${e.message} (try again in ${e.retryAfter} s)` : e.message;
    return null;
  } finally {
    playHand.busy = false;
  }
}

async function dealPlay() {
  if (playHand.busy) return;
  if (!$("play-seed").value.trim()) $("play-seed").value = String(Math.floor(Math.random() * 1e9));
  const body = playBody();
  $("play-prompt").textContent = "Dealing…";
  $("play-choices").textContent = "";
  const table = await playRequest("/api/play", body);
  if (!table) { $("play-prompt").textContent = ""; return; }
  const link = new URLSearchParams({ tab: "play", ...body });
  history.replaceState(null, "", "?" + link);
  $("play-link").href = "?" + link;
  $("play-link").hidden = false;
  playHand.table = null;
  $("play-game-end").hidden = true;
  await showNewHand(table);
}

// a hand dealt (a game's first or next one): the board cleared and the hand drawn
async function showNewHand(table) {
  playHand.shownCalls = 0; playHand.shownPlays = 0;
  $("play-grade").textContent = "";
  $("play-end").hidden = true;
  $("play-board").hidden = false;
  await showPlayTable(table);
}

// a game's next hand, once the player has seen the last one's review
async function nextGameHand() {
  if (playHand.busy || !playHand.table) return;
  $("play-again").disabled = true;
  const t = await playRequest(`/api/play/${playHand.table.id}`, { action: "next hand" });
  $("play-again").disabled = false;
  if (t) await showNewHand(t);
}

function scoreByUnit(score) {
  return Object.entries(score).map(([unit, n]) => `${unit} ${n}`).join(", ");
}

// a game's line above the table: the hand's number, the score and the chance of winning
function drawGameLine(t) {
  $("play-score").hidden = !t.game;
  if (!t.game) return;
  const g = t.game;
  $("play-score").textContent = `Game to ${g.target}, hand ${g.hand}. Score: ${scoreByUnit(g.score)}` +
    (g.win_chance === null ? "." : `; your chance of winning the game: ${(100 * g.win_chance).toFixed(0)}%.`);
}

function playCardButton(label, onClick) {
  const card = label.startsWith("play ") ? label.slice(5) : null;
  const b = el("button", { type: "button", className: card ? "card" + (/[HD]$/.test(card) ? " red" : " black") : "call",
                           dataset: { action: label } }, card || label);
  b.addEventListener("click", onClick);
  return b;
}

function drawPlayBoard(t) {
  drawTable($("play-table"), t.seats, { dealer: t.dealer, you: t.seat, upcard: t.upcard });
  $("play-contract").textContent = t.contract ? `${t.declarer}: ${t.contract}, trump ${SUIT_NAMES[t.trump]}` +
    (t.discarded ? `; you discarded ${t.discarded}` : "") : "";
  cardsInto($("play-hand"), t.hand);
}

// the calls and cards that came since the last answer, drawn one at a time
async function showPlayTable(t) {
  drawPlayBoard(t);
  drawGameLine(t);
  const calls = $("play-calls");
  if (playHand.shownCalls === 0) calls.textContent = "";
  for (const c of t.calls.slice(playHand.shownCalls)) {
    calls.append(el("span", { className: "new" }, `${c.seat} ${c.call}`), "; ");
    await pause();
  }
  playHand.shownCalls = t.calls.length;
  const plays = t.tricks.flatMap((trick, i) => trick.plays.map((p) => ({ ...p, trick: i })));
  const list = $("play-tricks");
  if (playHand.shownPlays === 0) list.textContent = "";
  for (const p of plays.slice(playHand.shownPlays)) {
    while (list.children.length <= p.trick) list.append(el("li"));
    const li = list.children[p.trick];
    const span = el("span", { className: "new" });
    cardsInto(span, [p.card]);
    li.append(el("b", {}, p.seat), " ", span, " ");
    await pause();
  }
  playHand.shownPlays = plays.length;
  t.tricks.forEach((trick, i) => {
    const li = list.children[i];
    if (trick.winner && li && !li.querySelector(".winner")) li.append(el("span", { className: "winner" }, `won by ${trick.winner}`));
  });
  playHand.table = t;
  $("play-choices").textContent = "";
  if (t.done || t.hand_done) { $("play-prompt").textContent = "The hand is over."; showPlayEnd(t); return; }
  $("play-prompt").textContent = PLAY_PROMPTS[t.decision.kind] || "Your decision:";
  for (const option of t.decision.options) {
    $("play-choices").append(playCardButton(option, () => playAction(option)));
  }
}

function pause() { return new Promise((resolve) => setTimeout(resolve, STEP_MS)); }

// a cost as its grade gives it: net points a hand, or at a score the chance of winning
function costText(g, cost) {
  return g.unit === "win" ? `${(100 * cost).toFixed(1)}%` : cost.toFixed(2);
}

function gradeText(g, ungraded) {
  if (!g) return ungraded || "not graded";
  const verdict = capitalized(g.verdict);
  if (g.verdict === "best") return `${verdict}.`;
  const what = g.unit === "win" ? "win chance" : "points a hand";
  return `${verdict}: ${costText(g, g.cost)} ${what} (${costText(g, g.low)} to ${costText(g, g.high)}) behind the best, ${g.best}.`;
}

// a summary's decisions by verdict and what they gave away, in words
function summaryText(s) {
  return Object.entries(s.by_verdict).filter(([, n]) => n).map(([v, n]) => `${n} ${v}`).join(", ") +
    `; ${s.points_given_away.toFixed(2)} points a hand given away` +
    (s.win_given_away === undefined ? "." : `, ${(100 * s.win_given_away).toFixed(1)} points of win chance.`);
}

async function playAction(option) {
  if (playHand.busy || !playHand.table) return;
  for (const b of $("play-choices").querySelectorAll("button")) b.disabled = true;
  $("play-grade").textContent = `${option}: grading…`;
  $("play-grade").className = "verdict";
  const t = await playRequest(`/api/play/${playHand.table.id}`, { action: option });
  if (!t) { for (const b of $("play-choices").querySelectorAll("button")) b.disabled = false; $("play-grade").textContent = ""; return; }
  $("play-grade").textContent = `${option} — ${gradeText(t.grade, t.ungraded)}`;
  $("play-grade").className = "verdict" + (t.grade ? " grade-" + t.grade.verdict : "");
  $("play-choices").textContent = "";
  await showPlayTable(t);
}

// a table of ``headers`` and ``rows`` (each its cells' texts and a class), each cell named by
// its column (a phone shows a row as a card, each figure with its column's name)
function fillTable(table, headers, rows) {
  table.textContent = "";
  const head = el("tr");
  for (const h of headers) head.append(el("th", {}, h));
  table.append(el("thead"));
  table.firstChild.append(head);
  const body = el("tbody");
  for (const { cells, className } of rows) {
    const row = el("tr", { className: className || "" });
    cells.forEach((text, k) => row.append(el("td", { dataset: { label: headers[k] } }, text)));
    body.append(row);
  }
  table.append(body);
}

function showPlayEnd(t) {
  const pts = t.points;
  $("play-points").textContent = (pts.status === "played" ? `${pts.declarer} ${pts.contract}, trump ${SUIT_NAMES[pts.trump]}: ` : `${capitalized(pts.status)}: `) +
    scoreByUnit(pts.points);
  $("play-summary").textContent = "Your decisions: " + summaryText(t.summary);
  fillTable($("play-review"), ["decision", "you chose", "grade", "cost", "best"], t.decisions.map((d, i) => ({
    className: d.grade ? "grade-" + d.grade.verdict : "",
    cells: [`${i + 1}. ${d.trick ? "trick " + d.trick : d.kind}`, d.action,
            d.grade ? d.grade.verdict : (d.ungraded || "not graded"),
            d.grade ? costText(d.grade, d.grade.cost) : "", d.grade && d.grade.best !== d.action ? d.grade.best : ""],
  })));
  $("play-hands").textContent = "Hands as dealt: " + Object.entries(t.hands).map(([s, h]) => `${s} ${h}`).join("; ");
  $("play-again").hidden = !!(t.game && t.done);
  $("play-end").hidden = false;
  if (t.game) showGameEnd(t);
}

// a game's panel after each hand: the score, every decision so far by verdict, a row a hand;
// at the end the winner
function showGameEnd(t) {
  const g = t.game;
  $("play-game-result").textContent = t.done
    ? `Game over: ${g.winner ? g.winner + " won" : "no winner"} after ${g.hands.length} hands. Score: ${scoreByUnit(g.score)}.`
    : `After hand ${g.hand}: ${scoreByUnit(g.score)}.`;
  $("play-game-summary").textContent = "Your decisions in the game: " + summaryText(g.summary);
  fillTable($("play-game-hands"), ["hand", "dealer", "contract", "points", "score"], g.hands.map((h) => ({
    cells: [String(h.hand), h.dealer, h.contract || h.status, scoreByUnit(h.points), scoreByUnit(h.score)],
  })));
  $("play-new-game").hidden = !t.done;
  $("play-game-end").hidden = false;
}

function playFromURL(p) {
  $("play-variant").value = p.has("variant") && state.spec.variants[p.get("variant")] ? p.get("variant") : "knock";
  fillPlaySeats();
  if (p.has("seat")) $("play-seat").value = p.get("seat");
  if (p.has("seed")) $("play-seed").value = p.get("seed");
  $("play-mode").value = p.get("game") === "true" ? "game" : "hand";
  for (const opt of state.spec.variants[$("play-variant").value].options) {
    if (!p.has(opt.name)) continue;
    const input = $("play-rule-" + opt.name);
    if (opt.kind === "bool") input.checked = p.get(opt.name) === "true"; else input.value = p.get(opt.name);
  }
}

// ---------------------------------------------------------------- start

function showTab(name) {
  for (const t of ["ask", "practice", "play", "review"]) {
    $("tab-" + t).classList.toggle("active", t === name);
    $(t).hidden = t !== name;
  }
}

function fromURL() {
  const p = new URLSearchParams(location.search);
  if (p.has("variant") && state.spec.variants[p.get("variant")]) state.variant = p.get("variant");
  for (const opt of state.spec.variants[state.variant].options) {
    if (p.has(opt.name)) state.rules[opt.name] = p.get(opt.name);
  }
  state.seat = p.get("seat"); state.dealer = p.get("dealer");
  for (const f of state.spec.fields) {
    if (!p.has(f.name)) continue;
    if (f.kind === "bool") $(f.name).checked = p.get(f.name) === "true"; else $(f.name).value = p.get(f.name);
  }
  state.calls = (p.get("auction") || "").split(",").map((s) => s.trim()).filter(Boolean);
  state.plays = (p.get("played") || "").split(/[,;]/).map((s) => s.trim().split(/\s+/).join(" "))
    .filter(Boolean);
  state.discard = p.get("discarded") || null;
  state.trump = p.get("trump") || null;
  state.linkScore = p.get("score") || null;
  return p;
}

// the deck's ids of card texts, each copy once, never the upcard unless ``withUpcard``
function placeCards(texts, withUpcard) {
  const ids = [];
  for (const t of texts) {
    const id = state.deck.find((c) => c.text === t.toUpperCase() && !ids.includes(c.id)
                                    && (withUpcard || c.id !== state.upcard))?.id;
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

async function placeCardsFromURL(p) {
  state.table = await getJSON("/api/table?" + rulesParams(new URLSearchParams()));
  state.deck = state.table.deck;
  if (p.get("upcard")) state.upcard = placeCards([p.get("upcard")], true)[0] ?? null;
  const hand = (p.get("hand") || "").split(/\s+/).filter(Boolean);
  // in the play a link's hand is the one held now: the server says what was dealt
  if (state.plays.length || state.discard) state.heldFromLink = hand;
  else state.hand = placeCards(hand, false);
}

function fillSelect(box, items) {
  box.textContent = "";
  for (const it of items) box.append(el("option", { value: it.value }, it.text));
}

async function start() {
  state.spec = await getJSON("/api/spec");
  // the lists show each variant's short name (a phone's list is narrow), its title under it
  const variants = Object.entries(state.spec.variants).map(([value, v]) => ({ value, text: v.short }));
  fillSelect($("variant"), variants);
  fillSelect($("practice-variant"), variants);
  fillSelect($("play-variant"), variants);
  buildFields();
  const p = fromURL();
  $("variant").value = state.variant;
  buildScore();
  const m = (state.linkScore || "").match(/^(-?[^-]+)-(-?[^-]+)(?:-(-?[^-]+))?$/);
  const given = m ? m.slice(1).filter((x) => x !== undefined) : [];
  const boxes = document.querySelectorAll("#score-inputs input");
  if (given.length === boxes.length) boxes.forEach((input, i) => { input.value = given[i]; });
  $("variant").addEventListener("change", () => {
    state.variant = $("variant").value; state.rules = {}; state.table = null; state.linkScore = null;
    resetCards(); buildRules();
    buildScore(); redraw();
  });
  document.querySelectorAll("input[name=pick]").forEach((r) => r.addEventListener("change", buildDeck));
  $("clear-cards").addEventListener("click", () => { resetCards(); redraw(); });
  $("undo-call").addEventListener("click", () => { state.calls.pop(); clearPlay(); refresh(); });
  $("undo-play").addEventListener("click", () => {
    if (state.plays.length) state.plays.pop(); else if (state.discard) state.discard = null; else state.trump = null;
    refresh();
  });
  $("ask-button").addEventListener("click", ask);
  $("cancel-button").addEventListener("click", cancel);
  $("running-cancel").addEventListener("click", cancelRunning);
  $("review-button").addEventListener("click", review);
  $("record-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) { $("record-text").value = await file.text(); showRecordChoice(1, 1); }
  });
  $("record-text").addEventListener("input", () => showRecordChoice(1, 1));
  $("review-which").addEventListener("change", review);
  for (const t of ["ask", "practice", "play", "review"]) $("tab-" + t).addEventListener("click", () => showTab(t));
  $("practice-variant").value = p.get("tab") === "practice" && p.has("variant") ? state.variant : "knock";
  fillPracticeSeats();
  if (p.get("tab") === "practice" && p.has("seat")) $("practice-seat").value = p.get("seat");
  // a link without the kind of decisions is one made before the play joined practice: calls
  if (p.get("tab") === "practice") $("practice-decisions").value = p.get("decisions") || "calls";
  $("practice-variant").addEventListener("change", fillPracticeSeats);
  $("practice-start").addEventListener("click", () => {
    practice.seed = Math.floor(Math.random() * 1e9); practice.n = 0; showTally(); dealPractice();
  });
  $("practice-next").addEventListener("click", () => { practice.n += 1; dealPractice(); });
  playFromURL(p.get("tab") === "play" ? p : new URLSearchParams());
  $("play-variant").addEventListener("change", fillPlaySeats);
  $("play-deal").addEventListener("click", dealPlay);
  $("play-again").addEventListener("click", () => {
    if (playHand.table?.game && !playHand.table.done) { nextGameHand(); return; }
    $("play-seed").value = ""; dealPlay();
  });
  $("play-new-game").addEventListener("click", () => { $("play-seed").value = ""; dealPlay(); });
  buildRules();
  await placeCardsFromURL(p);
  redraw();
  setInterval(() => { if (!state.job) checkRunning(); }, 5000);
  checkRunning();
  if (p.get("tab") === "practice") {
    showTab("practice");
    practice.seed = p.get("seed") ?? "0";  // as the link gives them: the server reads them
    practice.n = p.get("n") ?? "0";
    showTally();
    dealPractice();
  } else if (p.get("tab") === "play") {
    showTab("play");
    dealPlay();
  } else if (p.get("tab") === "review") {
    showTab("review");
  } else if (p.get("ask") === "1") {
    await refresh();
    // a link whose question the server refused shows why, with what was valid: no other
    // question is asked in its place
    if (!$("error").textContent) ask();
  }
}

start().catch((e) => showError(e.message));
