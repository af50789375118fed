// xqa arbiter's workbench: review a record, count a natural-limit claim live. Everything is
// computed by the server's API (the same service calls as the CLI); this script only draws.
"use strict";

const $ = (id) => document.getElementById(id);
// The page opens in the browser's language: Chinese unless the browser asks for another.
const browserLang = (navigator.languages?.[0] || navigator.language || "zh").toLowerCase();
const S = {
  mode: "review",
  lang: browserLang.startsWith("zh") ? "zh" : "en",
  events: [],        // /api/events: the events a request can name, each with its time controls
  eventFile: null,   // an event file loaded in the page: {name, text, event}
  record: null,      // {bytes: Blob|string, name}
  game: 1,
  review: null,      // /api/review answer of the reviewed game
  report: null,      // /api/adjudicate answer
  ply: 0,
  live: { start: null, moves: [], fromClaim: null, selected: null, review: null, report: null },
  seq: 0,
  venue: null,       // with xqa serve --db: {info (GET /api/venue), count (the server's count, or null)}
};

const VERDICT = {
  red_must_vary: ["红方必须变着", "Red must vary"],
  black_must_vary: ["黑方必须变着", "Black must vary"],
  draw: ["不变作和", "Draw"],
  undetermined: ["无法判定", "Undetermined"],
  none: ["无循环", "No repetition"],
};
const LIMIT_VERDICT = {
  valid: ["提和成立", "claim valid: draw"],
  game_over: ["棋局已结束", "game over on the board"],
  claimant_short: ["提和方着数不足", "claimant short of counted moves"],
  opponent_short: ["对方着数不足", "opponent short of moves"],
  inadmissible: ["原则上不予判和（裁判酌情）", "refused in principle (at the arbiter's discretion)"],
};
// The natures of moves, and of idle moves (as cycles list them), in both languages.
const IDLE_KIND = { offer: ["献", "offer"], exchange: ["兑", "exchange"], block: ["拦", "block"], follow: ["跟", "follow"] };
const NATURE = { check: ["将", "check"], mate_threat: ["杀", "mate threat"], chase: ["捉", "chase"], idle: ["闲", "idle"], undetermined: ["未定", "undetermined"], ...IDLE_KIND };
const PATTERN = { forbidden: ["禁止着法", "forbidden"], allowed: ["允许着法", "allowed"], undetermined: ["未定", "undetermined"] };
const HOW = { capture: ["吃子", "capture"], exchange: ["兑换得子", "exchange"], checks: ["连将得子", "checks"] };
const t = (pair) => (S.lang === "zh" ? pair[0] : pair[1]);
const tr = (table, key) => (table[key] ? t(table[key]) : key);
// One word for a ply everywhere: 步 (a move, 回合, is Red's and Black's ply together).
const plyText = (n) => t([`第${n}步`, `ply ${n}`]);
const sideText = (side) => t(side === "red" ? ["红", "Red"] : ["黑", "Black"]);
// The static texts of the page (data-t="中文|English"), in the page's language.
function applyLang() {
  document.documentElement.lang = S.lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t.split("|"));
  for (const el of document.querySelectorAll("[data-placeholder]")) el.placeholder = t(el.dataset.placeholder.split("|"));
  fillTimeControls();
  if (S.venue) {
    venueFillTimeControls();
    venueCountLabel();
    venueListDraw();
  }
}
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") u.set(k, v);
  return u.toString();
}

async function api(method, path, params, body) {
  const r = await fetch(`${path}?${qs(params)}`, { method, body: method === "POST" ? (body ?? "") : undefined });
  const text = await r.text();
  if (!r.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error.message; } catch (_) { /* keep text */ }
    // A venue server (xqa serve --db, off loopback) asks for the event's access code: the venue
    // page lets this device in, and links back here.
    if (r.status === 401) location.assign("/venue");
    const err = new Error(msg);
    err.status = r.status;
    throw err;
  }
  return text;
}
const apiJson = async (...a) => JSON.parse(await api(...a));

// Where an error object (docs/schema.json $defs/error) points: line and column in a text
// record, the byte offset in a binary one.
function where(e) {
  if (e.line != null) return `line ${e.line}${e.column != null ? `, column ${e.column}` : ""}`;
  if (e.offset != null) return `byte ${e.offset} (0x${e.offset.toString(16)})`;
  return "position unknown";
}

function showError(msg) {
  const e = $("error");
  e.hidden = !msg;
  e.textContent = msg || "";
}

function settings() {
  return { rules: $("rules").value, profile: $("profile").value, event: $("event").value, timeControl: $("time-control").value };
}

// ---------------------------------------------------------------------------------------------
// The event and its time control: every request rules under the choice

function chosenEvent() {
  const id = $("event").value;
  if (id === "none") return null;
  if (id === "file") return S.eventFile?.event ?? null;
  return S.events.find((e) => e.id === id) ?? null;
}
function chosenTimeControl() {
  const e = chosenEvent();
  return e?.time_controls.find((tc) => tc.name === $("time-control").value) ?? null;
}
// The parameters that carry the choice: the event and its time control, or (no event) the rules
// and the limit profile (`limitKey`: "profile" for a claim, "limit_profile" for adjudicate).
function ruling(limitKey) {
  const s = settings();
  if (s.event === "none") return { event: "none", rules: s.rules, [limitKey]: s.profile };
  const p = { time_control: s.timeControl };
  if (s.event === "file") p.event_json = S.eventFile.text;
  else if (s.event !== "") p.event = s.event;
  return p;
}
function tcName(tc) {
  return tc ? (S.lang === "zh" && tc.name_zh ? tc.name_zh : tc.name) : "";
}
function fillTimeControls() {
  const e = chosenEvent();
  const sel = $("time-control");
  const keep = sel.value;
  sel.innerHTML = e
    ? e.time_controls.map((tc) => `<option value="${esc(tc.name)}">${esc(tcName(tc))}${tc.clock ? ` · ${esc(tc.clock)}` : ""}</option>`).join("")
    : `<option value="">—</option>`;
  if (e) sel.value = e.time_controls.some((tc) => tc.name === keep) ? keep : (e.default_time_control ?? e.time_controls[0]?.name ?? "");
  sel.disabled = !e;
  $("rules").disabled = !!e;
  $("profile").disabled = !!e;
  // A venue count keeps the time control it was started with; a venue server has its rules.
  if (S.venue?.count) { sel.disabled = true; $("profile").disabled = true; }
  if (S.venue) $("rules").disabled = true;
  showRegulations();
}
// The header names the choice: the event, its time control, and what the regulations add.
function showRegulations() {
  const e = chosenEvent();
  const tc = chosenTimeControl();
  const el = $("regulations");
  if (!e) {
    el.textContent = t([`无赛事：${$("rules").value.toUpperCase()}规则，${$("profile").selectedOptions[0]?.textContent ?? ""}`,
      `No event: ${$("rules").value.toUpperCase()} rules, ${$("profile").selectedOptions[0]?.textContent ?? ""}`]);
    return;
  }
  const name = S.lang === "zh" ? e.name : (e.name_en ?? e.name);
  const notes = [];
  if (tc) {
    notes.push(t([`自然限着${tc.limit.moves}回合`, `natural limit ${tc.limit.moves} moves`]));
    if (tc.draw === "black_wins") notes.push(t(["和棋黑胜", "a draw counts as a Black win (和棋黑胜)"]));
    if (tc.draw === "replay") notes.push(t(["和棋重赛，直至分出胜负", "drawn games are replayed until someone wins"]));
    if (tc.claims_after_game) notes.push(t(["限着可于对局终了后（签字前）提出", "a limit claim may be made after the game, before signing"]));
  }
  if (e.no_draw_offer_within) notes.push(t([`${e.no_draw_offer_within}回合内不得提和`, `no draw offers within ${e.no_draw_offer_within} moves`]));
  el.textContent = `${t(["赛事", "Event"])}: ${name} · ${t(["赛制", "time control"])}: ${tcName(tc)}${tc?.clock ? ` (${tc.clock})` : ""}${notes.length ? ` · ${notes.join(t(["；", "; "]))}` : ""}`;
}
async function loadEvents() {
  let answer;
  try {
    answer = await apiJson("GET", "/api/events", {});
  } catch (e) {
    showError(e.message);
    return;
  }
  S.events = answer.events;
  const sel = $("event");
  sel.innerHTML = `<option value="none" data-t="无（按下列规则）|none (the rules below)"></option>` +
    answer.events.map((e) => `<option value="${esc(e.id)}">${esc(e.name)}${e.id === "" ? t(["（服务器默认）", " (the server's)"]) : ""}</option>`).join("");
  sel.value = answer.default;
}
async function rerule() {
  showRegulations();
  if (S.live.review && !S.venue) saveLive();
  return S.mode === "live" ? liveUpdate() : S.review && adjudicateReview();
}

// ---------------------------------------------------------------------------------------------
// Loading and review

async function loadRecord(bytes, name) {
  S.record = { bytes, name };
  S.game = 1;
  await loadGame();
}

async function loadGame() {
  showError("");
  let review;
  try {
    review = await apiJson("POST", "/api/review", { game: S.game, name: S.record.name }, S.record.bytes);
  } catch (e) {
    showError(e.message);
    return;
  }
  const sel = $("game");
  sel.innerHTML = review.games
    .map((g) => {
      // The game's number is in its header (docs/schema.json: header.source.game, 1-based).
      const n = g.header.source.game;
      const who = [g.header.red, g.header.black].filter(Boolean).map(esc).join(" – ");
      return `<option value="${n}">${n}${g.ok ? "" : " ✗"} · ${g.plies} plies${who ? ` · ${who}` : ""}</option>`;
    })
    .join("") +
    (review.games_total > review.games.length
      ? `<option disabled>… ${review.games_total} games in all (the first ${review.games.length} listed)</option>`
      : "");
  if (S.game > review.games.length) sel.insertAdjacentHTML("beforeend", `<option value="${S.game}">${S.game}</option>`);
  sel.value = String(S.game);
  if (review.error) {
    const e = review.error;
    showError(`Game ${review.game}: the record stops at ply ${e.ply ?? "?"}` +
      `${e.move_text ? ` '${e.move_text}'` : ""} (${where(e)}): ${e.message} [${e.kind}]` +
      (e.suggestions.length ? `; did you mean ${e.suggestions.join(" or ")}?` : ""));
  }
  showRepairs(review);
  S.review = review;
  S.report = null;
  S.ply = review.plies.length;
  setMode("review");
  await adjudicateReview();
}

// The score-sheet repairs of a broken record (docs/schema.json $defs/repair), best first, each
// with a button that loads the game repaired (POST /api/repair: the record rewritten, each edit
// marked by a comment).
function showRepairs(review) {
  const box = $("repairs");
  const repairs = (review.error && review.error.repairs) || [];
  box.hidden = repairs.length === 0;
  if (box.hidden) {
    box.innerHTML = "";
    return;
  }
  const cut = review.error.repairs_cut_short
    ? `<p class="muted">搜索达到预算上限，未尝试全部修正 · The search reached its budget before trying every repair.</p>`
    : "";
  box.innerHTML = `<h3>记录修正 Score-sheet repairs</h3>` + cut + `<ol>` +
    repairs.map((r, k) =>
      `<li><div>${esc(r.explanation_zh)}</div><div class="muted">${esc(r.explanation_en)}</div>` +
      (r.replays_to_end ? `<button data-pick="${k + 1}">载入此修正 Load this repair</button>` : "") +
      `</li>`).join("") + `</ol>`;
  for (const b of box.querySelectorAll("button[data-pick]")) {
    b.onclick = async () => {
      try {
        const text = await api("POST", "/api/repair", { name: S.record.name, game: S.game, pick: b.dataset.pick }, S.record.bytes);
        await loadRecord(new Blob([text], { type: "text/plain" }), S.record.name.replace(/(\.[^.]*)?$/, " (repaired).pgn"));
      } catch (e) {
        showError(e.message);
      }
    };
  }
}

async function adjudicateReview() {
  const r = S.review;
  try {
    S.report = await apiJson("POST", "/api/adjudicate", { fen: r.start_fen, moves: r.moves, ...ruling("limit_profile") });
  } catch (e) {
    showError(e.message);
    S.report = null;
  }
  await render();
}

// The line on screen: the reviewed game, or the live one.
function line() {
  return S.mode === "live" ? S.live.review : S.review;
}
function report() {
  return S.mode === "live" ? S.live.report : S.report;
}
function fenAt(ply) {
  const l = line();
  return ply === 0 ? l.start_fen : l.plies[ply - 1].fen;
}

async function render() {
  const l = line();
  if (!l) return;
  const rep = report();
  const seq = ++S.seq;
  const ply = S.mode === "live" ? l.plies.length : S.ply;
  $("ply-label").textContent = t([`第${ply}步 / 共${l.plies.length}步`, `ply ${ply} / ${l.plies.length}`]);
  const move = rep && ply > 0 ? rep.moves[ply - 1] : null;
  const params = {
    fen: fenAt(ply),
    last: ply > 0 ? l.plies[ply - 1].iccs : "",
    targets: move ? move.targets.map((x) => x.square).join(",") : "",
  };
  if (S.mode === "live" && S.live.selected) {
    params.selected = S.live.selected;
    params.dots = l.legal.filter((m) => m.startsWith(S.live.selected)).map((m) => m.slice(2)).join(",");
  }
  const svg = await api("GET", "/api/board", params);
  if (seq !== S.seq) return;
  $("board").innerHTML = svg.slice(svg.indexOf("<svg"));
  renderMoves(l, rep, ply);
  renderNature(move);
  renderCycles(rep, ply);
  renderOutcome(rep);
  $("status").textContent = ply === l.plies.length && l.status ? l.status : "";
  await renderLimit(l, ply, seq);
}

function natureBadge(m) {
  if (!m) return "";
  return `<span class="nature n-${m.nature}">${esc(tr(NATURE, m.nature))}${m.idle_kind ? ` <small>(${esc(tr(IDLE_KIND, m.idle_kind))})</small>` : ""}</span>`;
}

// The ruling's outcome under the event (the result, with its draw odds), the early-draw flag,
// and whether it differs from the record's result.
// The reviewed record's result ("1-0" ...), if it gives one: the page rules on the line (FEN and
// moves), so it compares the outcome with the record itself, in the words of the reports.
function recordedResult() {
  if (S.mode !== "review") return null;
  const r = (S.review?.tags ?? []).find(([k]) => k === "Result")?.[1];
  return r && r !== "*" ? r : null;
}
function outcomeReason(o) {
  const rec = recordedResult();
  const reason = S.lang === "zh" ? o.reason_zh : o.reason_en;
  if (!o.result || !rec || o.recorded || rec === o.result) return reason;
  return reason + t([`；与棋谱记录的结果${rec}不同，以本裁决为准`, `; this differs from the recorded result ${rec}, which it overrides`]);
}

function renderOutcome(rep) {
  const el = $("outcome");
  if (!rep?.outcome) { el.innerHTML = ""; return; }
  const o = rep.outcome;
  let html = `<h3>${t(["裁决结果", "Outcome"])}: <span class="result">${esc(o.result ?? t(["未定", "none yet"]))}</span></h3>` +
    `<div class="reason">${esc(outcomeReason(o))}</div>`;
  if (rep.early_draw) html += `<div class="warn early-draw">${esc(S.lang === "zh" ? rep.early_draw.reason_zh : rep.early_draw.reason_en)}</div>`;
  el.innerHTML = html;
}

function renderMoves(l, rep, ply) {
  const inCycle = new Set();
  for (const c of rep?.cycles ?? []) for (let p = c.start_ply + 1; p <= c.end_ply; p++) inCycle.add(p);
  let rows = l.plies.map((p, i) => {
    const m = rep?.moves[i];
    const cls = [p.ply === ply ? "current" : "", inCycle.has(p.ply) ? "in-cycle" : ""].join(" ");
    // Numbered by move (回合) and side, as a score sheet; the ply in the title.
    return `<tr class="${cls}" data-ply="${p.ply}" title="${esc(plyText(p.ply))}"><td>${p.move_number}${p.side === "red" ? "." : "…"} ${sideText(p.side)}</td><td>${esc(S.lang === "zh" ? p.chinese : p.wxf)}</td><td class="muted">${esc(p.iccs)}</td><td>${natureBadge(m)}</td></tr>`;
  });
  if (S.mode === "review" && S.review?.error) {
    const e = S.review.error;
    rows.push(`<tr class="bad"><td>${e.ply ?? ""}</td><td colspan="3">✗ ${esc(e.move_text ?? "")} — ${esc(e.message)}</td></tr>`);
  }
  const body = $("moves").tBodies[0];
  body.innerHTML = rows.join("");
  const cur = body.querySelector("tr.current");
  const wrap = $("moves-wrap");
  if (cur && (cur.offsetTop < wrap.scrollTop || cur.offsetTop + cur.offsetHeight > wrap.scrollTop + wrap.clientHeight)) {
    wrap.scrollTop = cur.offsetTop - wrap.clientHeight / 2;
  }
}

function renderNature(m) {
  const el = $("nature");
  if (!m) {
    el.innerHTML = `<h3>${t(["着法性质", "Move nature"])}</h3><span class="muted">${t(["起始局面", "start position"])}</span>`;
    return;
  }
  const targets = m.targets.map((x) => `${esc(x.piece)}@${esc(x.square)}${x.joint ? t(["（联合）", " (joint)"]) : ""} <small class="muted">${esc(tr(HOW, x.how))}</small>`).join(t(["，", ", "]));
  el.innerHTML = `<h3>${t(["着法性质", "Move nature"])}: ${m.move_number}${m.side === "red" ? "." : "…"} ${sideText(m.side)} ${esc(m.chinese ?? m.iccs)} <small class="muted">${esc(plyText(m.ply))}</small></h3>` +
    `${natureBadge(m)} ${m.capture ? `${t(["吃", "captures"])} ${esc(m.capture)}` : ""}` +
    (targets ? `<div>${t(["目标", "Targets"])}: ${targets}</div>` : "");
}

function renderCycles(rep, ply) {
  const el = $("cycles");
  const cycles = rep?.cycles ?? [];
  let html = `<h3>${t(["循环", "Repetition cycles"])} · <span class="verdict ${rep?.verdict === "draw" ? "draw" : ""}">${esc(t(VERDICT[rep?.verdict ?? "none"]))}</span></h3>`;
  if (!cycles.length) html += `<span class="muted">${t(["没有重复局面", "no position has repeated"])}</span>`;
  for (const [i, c] of cycles.entries()) {
    const cur = ply > c.start_ply && ply <= c.end_ply ? " current" : "";
    html += `<div class="cycle${cur}" data-cycle="${i}" data-end="${c.end_ply}">` +
      `<div>${t([`第${c.first_move_number}–${c.last_move_number}回合（第${c.start_ply + 1}–${c.end_ply}步）· 第${c.occurrences}次出现`, `moves ${c.first_move_number}–${c.last_move_number} (plies ${c.start_ply + 1}–${c.end_ply}) · occurrence ${c.occurrences}`])}` +
      `${c.due_ply != null ? t([` · 第${c.due_move_number}回合（第${c.due_ply}步）裁决生效`, ` · ruling due at move ${c.due_move_number} (ply ${c.due_ply})`]) : ""}</div>` +
      `<div>${t(["红", "Red"])}: ${esc(c.red.name)} <small>(${esc(tr(PATTERN, c.red.pattern))}: ${esc(c.red.natures.map((n) => tr(NATURE, n)).join(t(["、", ", "])))})</small></div>` +
      `<div>${t(["黑", "Black"])}: ${esc(c.black.name)} <small>(${esc(tr(PATTERN, c.black.pattern))}: ${esc(c.black.natures.map((n) => tr(NATURE, n)).join(t(["、", ", "])))})</small></div>` +
      `<div class="verdict ${c.verdict === "draw" ? "draw" : ""}">${esc(t(VERDICT[c.verdict]))}</div>` +
      `<div class="reason">${esc(S.lang === "zh" ? c.reason_zh : c.reason_en)}</div></div>`;
  }
  el.innerHTML = html;
}

async function renderLimit(l, ply, seq) {
  const el = $("limit");
  const fromClaim = S.mode === "live" && $("live-counting").value === "claim" ? S.live.fromClaim : null;
  if (S.mode === "live" && $("live-counting").value === "claim" && fromClaim === null) {
    el.innerHTML = `<h3>${t(["自然限着", "Natural move limit"])}</h3><span class="muted">${t(["按“提和”开始计数", "press Claim now to start counting"])}</span>`;
    return;
  }
  const base = { fen: l.start_fen, moves: l.moves, at: ply, ...ruling("profile"), from_claim: fromClaim };
  const tc = chosenTimeControl();
  const limitName = tc ? tcName(tc) : $("profile").selectedOptions[0]?.textContent ?? settings().profile;
  let html = `<h3>${t(["自然限着", "Natural move limit"])} · ${esc(limitName)} · ${t([`第${ply}步`, `at ply ${ply}`])}` +
    `${fromClaim !== null ? ` · ${t([`自第${fromClaim}步提和`, `from the claim at ply ${fromClaim}`])}` : ""}</h3>`;
  for (const side of ["red", "black"]) {
    let r;
    try {
      r = await apiJson("POST", "/api/claim", { ...base, claimant: side });
    } catch (e) {
      html += `<div class="warn">${esc(e.message)}</div>`;
      continue;
    }
    if (seq !== S.seq) return;
    html += `<div class="limit-side" data-side="${side}"><b>${t(side === "red" ? ["红方提和", "Red claims"] : ["黑方提和", "Black claims"])}: ` +
      `<span class="verdict ${r.valid ? "draw" : ""}">${esc(t(LIMIT_VERDICT[r.verdict] ?? [r.verdict, r.verdict]))}</span></b>` +
      `<span>${t(["计入", "counted"])}</span><span class="counted">${r.counted} / ${r.required}</span>` +
      `<span>${t(["不计", "void"])}</span><span class="void">${r.void}</span>` +
      `<span>${t(["尚需", "still needed"])}</span><span class="needed">${r.needed}</span>` +
      // As the CLI's claim report: "black: 4 moves of 60 required".
      `<span>${t(["对方", "opponent"])}</span><span class="opponent">${esc(t([`共${r.opponent_moves}着，须${r.required}着`, `${r.opponent_moves} moves of ${r.required} required`]))}</span>` +
      `<span>${t(["计数范围", "window"])}</span><span>${t([`第${r.window_start_ply + 1}–${r.window_end_ply}步`, `plies ${r.window_start_ply + 1}–${r.window_end_ply}`])}${r.last_capture_ply !== null ? ` (${t([`第${r.last_capture_ply}步吃子`, `last capture at ply ${r.last_capture_ply}`])})` : ""}</span>` +
      `<span>${t(["成立于", "valid from"])}</span><span class="valid-from">${r.valid_from_ply != null ? t([`第${r.valid_from_ply}步`, `ply ${r.valid_from_ply}`]) : "—"}</span>` +
      (r.verdict === "inadmissible" ? `<span>${t(["进攻子力", "attacking pieces"])}</span><span class="attackers">${esc(t([`场上${r.attacking_pieces}个（${(r.attackers ?? []).join("、")}），原则上不予判和（裁判酌情）`, `${r.attacking_pieces} on the board (${(r.attackers ?? []).join(", ")}): refused in principle, at the arbiter's discretion (裁判酌情)`]))}</span>` : "") +
      `<span>${t(["结果", "outcome"])}</span><span class="outcome">${esc(r.outcome.result ?? t(["未定", "none yet"]))} · ${esc(outcomeReason(r.outcome))}</span></div>`;
  }
  el.innerHTML = html;
}

function go(ply) {
  if (S.mode !== "review" || !S.review) return;
  S.ply = Math.max(0, Math.min(S.review.plies.length, ply));
  render();
}

// ---------------------------------------------------------------------------------------------
// Live count

async function liveStart(fen, moves, fromClaim = null) {
  if (S.venue) return venueStart(fen, moves);
  S.live = { start: fen, moves: moves.slice(), fromClaim, selected: null, review: null, report: null };
  $("live-note").textContent = "";
  setMode("live");
  await liveUpdate();
}

// The live count is kept in the browser's storage after every change (a reload, a restarted
// browser or a tab closed by mistake loses nothing) and restored on opening; only an explicit
// new count (or a count from a FEN or a review ply) replaces it.
const LIVE_KEY = "xqa.live.v1";
function saveLive() {
  try {
    localStorage.setItem(LIVE_KEY, JSON.stringify({
      start: S.live.start, moves: S.live.moves, fromClaim: S.live.fromClaim,
      counting: $("live-counting").value, profile: $("profile").value, rules: $("rules").value,
      event: $("event").value === "file" ? "none" : $("event").value, timeControl: $("time-control").value,
    }));
  } catch (_) { /* storage off: nothing to keep */ }
}
function savedLive() {
  try {
    const v = JSON.parse(localStorage.getItem(LIVE_KEY));
    return v && Array.isArray(v.moves) && v.moves.every((m) => typeof m === "string") ? v : null;
  } catch (_) {
    return null;
  }
}
async function restoreLive(saved) {
  const pick = (id, v) => { if ([...$(id).options].some((o) => o.value === v)) $(id).value = v; };
  pick("profile", saved.profile);
  pick("rules", saved.rules);
  if (typeof saved.event === "string") { pick("event", saved.event); fillTimeControls(); pick("time-control", saved.timeControl); showRegulations(); }
  pick("live-counting", saved.counting);
  const fromClaim = Number.isInteger(saved.fromClaim) ? saved.fromClaim : null;
  S.live = { start: saved.start || null, moves: saved.moves.slice(), fromClaim, selected: null, review: null, report: null };
  setMode("live");
  await liveUpdate();
  if (!S.live.review) return false;
  $("live-note").textContent = `${t(["已恢复计数", "count restored"])}: ${t([`${S.live.moves.length}步`, `${S.live.moves.length} plies`])}`;
  return true;
}

async function liveUpdate() {
  showError("");
  const live = S.live;
  const params = { fen: live.start, moves: live.moves.join(" ") };
  try {
    const review = await apiJson("POST", "/api/review", params);
    const report = await apiJson("POST", "/api/adjudicate", { ...params, ...ruling("limit_profile") });
    // (Another line may have replaced this one meanwhile: its own update draws it.)
    if (S.live !== live) return;
    live.review = review;
    live.report = report;
  } catch (e) {
    if (S.live !== live) return;
    showError(e.message);
    // (A venue count's moves are the server's, checked when they were stored: nothing to drop.)
    if (!S.venue?.count) S.live.moves.pop();
    return;
  }
  if (!S.venue) saveLive();
  const cycles = S.live.report.cycles;
  const c = cycles[cycles.length - 1];
  if (c && c.end_ply === S.live.moves.length) {
    showError(`${t(["循环警告", "Cycle warning"])}: ${t(VERDICT[c.verdict])} — ${S.lang === "zh" ? c.reason_zh : c.reason_en}`);
  }
  await render();
}

function squareAt(evt) {
  const svg = $("board").querySelector("svg");
  if (!svg) return null;
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const file = Math.round((p.x - 66) / 56), rank = 9 - Math.round((p.y - 66) / 56);
  if (file < 0 || file > 8 || rank < 0 || rank > 9) return null;
  return "abcdefghi"[file] + rank;
}

async function boardClick(sq) {
  if (S.mode !== "live" || !S.live.review || !sq) return;
  if (S.venue?.pending) return;
  if (S.venue && !S.venue.count) {
    showError(t(["请先开始新计数，或加入一个进行中的计数：着法记录在服务器上", "Start a new count or join a running one first: the moves are kept on the server"]));
    return;
  }
  const legal = S.live.review.legal;
  const sel = S.live.selected;
  if (sel && legal.includes(sel + sq)) {
    S.live.selected = null;
    if (S.venue?.count) return venueMove(sel + sq);
    S.live.moves.push(sel + sq);
    await liveUpdate();
    return;
  }
  S.live.selected = legal.some((m) => m.startsWith(sq)) ? sq : null;
  await render();
}

function setMode(mode) {
  S.mode = mode;
  $("tab-review").classList.toggle("active", mode === "review");
  $("tab-live").classList.toggle("active", mode === "live");
  $("live-controls").hidden = mode !== "live";
  $("load").hidden = mode !== "review";
}

// ---------------------------------------------------------------------------------------------
// The venue (xqa serve --db): the live count is the server's, the same on every device that opens
// it; each move is stored before the server acknowledges it, and a move for a count that moved on
// elsewhere is refused (409), never merged. Every sheet printed here is recorded in the case book.

const VENUE_KEY = "xqa.venue.v1"; // this device's round, table, players, claimant and count id
const VENUE_FIELDS = ["round", "table", "red", "black", "claimant", "tc"];
const venueKept = () => { try { return JSON.parse(localStorage.getItem(VENUE_KEY)) || {}; } catch (_) { return {}; } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const roundTable = (c) => t([`第${c.round}轮 第${c.table}台`, `round ${c.round}, table ${c.table}`]);

// Asks the server whether it keeps a venue database. Only a 404 means it does not (the workbench
// then works alone, as it always did); a server that cannot be reached is asked again, so that a
// venue device never falls back to counting in its own storage.
async function venueBoot() {
  let r;
  for (;;) {
    try {
      r = await fetch("/api/venue", { credentials: "same-origin" });
      if (r.ok || r.status === 404 || r.status === 401) break;
      showError(`${t(["服务器暂时无法回答，3秒后重试", "The server cannot answer now; trying again in 3 s"])} (HTTP ${r.status})`);
    } catch (_) {
      showError(t(["无法连接服务器，3秒后重试", "The server cannot be reached; trying again in 3 s"]));
    }
    await sleep(3000);
  }
  showError("");
  if (r.status === 401) { location.assign("/venue"); return; }
  if (r.status === 404) return;
  S.venue = { info: (await r.json()).venue, count: null, pending: false, polling: false };
  const kept = venueKept();
  // A venue server runs one event: the server's (or none, with the default rules), for every
  // count and every entry.
  const sel = $("event");
  sel.value = [...sel.options].some((o) => o.value === "") ? "" : "none";
  sel.disabled = true;
  $("event-file").disabled = true;
  $("rules").value = "cxa";
  // Without an event a count's time control is a limit profile: every one the server takes is
  // in the header's list, so that the page rules a count as the server does.
  if (S.venue.info.time_control_source === "profiles") {
    for (const tc of S.venue.info.time_controls ?? []) {
      if (![...$("profile").options].some((o) => o.value === tc.name)) {
        $("profile").insertAdjacentHTML("beforeend", `<option value="${esc(tc.name)}" data-t="${esc(tc.name_zh ?? tc.name)}|${esc(tc.name)}">${esc(tc.name)}</option>`);
      }
    }
  }
  fillTimeControls();
  venueFillTimeControls();
  for (const k of VENUE_FIELDS) if (kept[k] && [...($(`v-${k}`).options ?? [{ value: kept[k] }])].some((o) => o.value === kept[k])) $(`v-${k}`).value = kept[k];
  // With an access code the name is the session's (given once, on the venue page).
  $("v-arbiter").value = S.venue.info.arbiter || localStorage.getItem("xqa.arbiter") || "";
  $("v-arbiter").disabled = !!S.venue.info.access_required;
  $("venue-bar").hidden = false;
  // A venue count counts from its start (start it from the position when the claim is made,
  // or from the review's ply to count from the last capture): the page's own claim mark is not
  // shared with other devices, so it is not offered here.
  $("live-counting").value = "capture";
  $("live-counting").closest("label").hidden = true;
  $("live-claim").hidden = true;
  $("print").dataset.t = "裁决书（记录）|Ruling sheet (recorded)";
  await venueList();
  S.venue.poll = setInterval(venuePoll, 3000);
}

// The time controls a new count may take, as the server lists them (GET /api/venue): the
// event's, or without an event the limit profiles; the default chosen first.
function venueFillTimeControls() {
  const list = S.venue.info.time_controls ?? [];
  const keep = $("v-tc").value;
  $("v-tc").innerHTML = list.map((tc) => `<option value="${esc(tc.name)}">${esc(tcName(tc))}${tc.clock ? ` · ${esc(tc.clock)}` : ""}</option>`).join("");
  const have = (v) => list.some((tc) => tc.name === v);
  $("v-tc").value = have(keep) ? keep : (list.find((tc) => tc.default)?.name ?? list[0]?.name ?? "");
}

// Keeps this device's venue fields; `count` (an id or null) when the count shown changes.
function venueKeep(count) {
  const kept = venueKept();
  for (const k of VENUE_FIELDS) kept[k] = $(`v-${k}`).value;
  if (count !== undefined) kept.count = count;
  try { localStorage.setItem(VENUE_KEY, JSON.stringify(kept)); } catch (_) { /* storage off */ }
  if (!S.venue?.info.access_required) {
    try { localStorage.setItem("xqa.arbiter", $("v-arbiter").value.trim()); } catch (_) { /* storage off */ }
  }
}

// The name the server records (with an access code the server knows it from the session).
function venueBody(body) {
  return S.venue.info.access_required ? body : { ...body, arbiter: $("v-arbiter").value.trim() };
}
function venueNeedsName() {
  if (S.venue.info.access_required || $("v-arbiter").value.trim()) return false;
  showError(t(["请先填写裁判姓名（记录在每一步和每份裁决中）", "Give the arbiter's name first (it is recorded with every move and ruling)"]));
  $("v-arbiter").focus();
  return true;
}
const venuePost = (path, body) => apiJson("POST", path, {}, JSON.stringify(venueBody(body)));
const venueGet = async (id) => (await apiJson("GET", `/api/venue/counts/${id}`, {})).count;

// One change at a time: while a move, a take-back or a ruling is on its way, the board and the
// buttons wait, and the poll does not run.
const VENUE_BUTTONS = ["live-undo", "live-rule", "live-close", "print", "live-start", "live-from-fen", "live-from-ply"];
async function venueBusy(job) {
  if (S.venue.pending) return;
  const wait = (on) => { S.venue.pending = on; for (const id of VENUE_BUTTONS) $(id).disabled = on; };
  wait(true);
  try {
    await job();
  } finally {
    wait(false);
  }
}

// The running counts, to join one another device started.
async function venueList() {
  let counts;
  try {
    counts = (await apiJson("GET", "/api/venue/counts", {})).counts;
  } catch (_) {
    return; // the next poll asks again
  }
  S.venue.running = counts;
  venueListDraw();
}
function venueListDraw() {
  const open = S.venue.count?.id;
  const html = `<option value="">${t(["—（不在计数中）", "— (no count)"])}</option>` + (S.venue.running ?? []).map((c) =>
    `<option value="${c.id}"${c.id === open ? " selected" : ""}>#${c.id} ${esc(roundTable(c))} · ${esc(c.red || "?")} – ${esc(c.black || "?")} · ${esc(t([`${c.moves.length}步`, `${c.moves.length} plies`]))}</option>`).join("");
  // (Rebuilt only when it changed: a list open on a phone is not reset under the finger.)
  if ($("v-counts").dataset.html !== html) { $("v-counts").innerHTML = html; $("v-counts").dataset.html = html; }
  $("v-counts").value = open ? String(open) : "";
}
function venueCountLabel() {
  const c = S.venue?.count;
  $("v-count").textContent = c
    ? `#${c.id} · ${roundTable(c)} · ${c.red || "?"} – ${c.black || "?"} · ${t(["赛制", "time control"])} ${c.time_control ?? "—"} · ` +
      `${t(["修订", "revision"])} ${c.revision}` + (c.claimant ? ` · ${t(["提和方", "claimant"])} ${sideText(c.claimant)}` : "")
    : "";
}

// Shows the server's count: its moves are the live line, ruled under the count's time control.
// An answer about another count, or older than the count shown, is not shown (answers can
// arrive out of order).
async function venueShow(count, note) {
  const shown = S.venue.count;
  if (shown && shown.id === count.id && count.revision < shown.revision) return;
  S.venue.count = count;
  venueKeep(count.id);
  // The bar names the count's table, so that what is recorded next is this table's.
  for (const k of ["round", "table", "red", "black"]) $(`v-${k}`).value = count[k] ?? "";
  if (count.claimant) $("v-claimant").value = count.claimant;
  const e = chosenEvent();
  const tc = count.time_control ?? (e ? e.default_time_control ?? e.time_controls[0]?.name : "slow");
  const target = e ? "time-control" : "profile";
  if (![...$(target).options].some((o) => o.value === tc)) {
    showError(t([`计数 #${count.id} 的赛制“${tc}”不是本赛事的赛制：此计数无法在这里裁决`, `Count #${count.id}'s time control "${tc}" is not one of this event's: it cannot be ruled here`]));
    S.venue.badTc = true;
  } else {
    S.venue.badTc = false;
    $(target).value = tc;
  }
  fillTimeControls();
  venueCountLabel();
  venueListDraw();
  $("live-rule").hidden = false;
  $("live-close").hidden = false;
  const live = { start: count.fen, moves: count.moves.map((m) => m.iccs), fromClaim: null, selected: null, review: null, report: null, count: count.id, revision: count.revision };
  // A piece picked on the board stays picked while the count has not changed.
  if (S.live.count === count.id && S.live.revision === count.revision) live.selected = S.live.selected;
  S.live = live;
  setMode("live");
  await liveUpdate();
  if (note) $("live-note").textContent = note;
}

// This device leaves the count (the count itself goes on, on the server).
function venueDrop(note) {
  S.venue.count = null;
  venueKeep(null);
  venueCountLabel();
  venueListDraw();
  $("live-rule").hidden = true;
  $("live-close").hidden = true;
  fillTimeControls();
  S.live = { start: null, moves: [], fromClaim: null, selected: null, review: null, report: null };
  $("live-note").textContent = note ?? "";
  if (S.mode === "live") liveUpdate();
}

async function venueJoin(id) {
  if (!id) { if (S.venue.count) venueDrop(t(["已离开计数（计数仍在服务器上进行）", "left the count (it goes on on the server)"])); return; }
  try {
    const c = await venueGet(id);
    if (c.closed_at) throw new Error(t([`计数 #${id} 已由${c.closed_by}结束`, `count #${id} was closed by ${c.closed_by}`]));
    await venueShow(c, t([`已加入计数 #${id}`, `joined count #${id}`]));
  } catch (e) {
    showError(e.message);
  }
  await venueList();
}

// On opening: the count this device last worked on, if it still runs. It is forgotten only when
// the server says it is closed or gone; a server that cannot be reached is asked again.
async function venueRestore() {
  const id = venueKept().count;
  if (!Number.isInteger(id)) return false;
  for (;;) {
    try {
      const c = await venueGet(id);
      if (c.closed_at) { venueDrop(); return false; }
      await venueShow(c, `${t(["已恢复计数", "count restored"])} #${id}: ${t([`${c.moves.length}步`, `${c.moves.length} plies`])}`);
      return true;
    } catch (e) {
      if (e.status === 404) { venueDrop(); return false; }
      showError(`${t([`无法读取计数 #${id}，3秒后重试`, `Count #${id} cannot be read; trying again in 3 s`])}: ${e.message}`);
      await sleep(3000);
    }
  }
}

// A new count on the server: from the start, a FEN, or the review's ply (then with the record's
// moves up to it, so the count reaches back to the last capture).
async function venueStart(fen, moves) {
  if (venueNeedsName()) return;
  const round = $("v-round").value.trim(), table = $("v-table").value.trim();
  if (!round || !table) {
    showError(t(["赛场计数须填写轮次和台次", "A venue count needs its round and table"]));
    $(round ? "v-table" : "v-round").focus();
    return;
  }
  await venueBusy(async () => {
    let count, failed = null;
    try {
      count = (await venuePost("/api/venue/counts", {
        round, table, red: $("v-red").value.trim(), black: $("v-black").value.trim(),
        time_control: $("v-tc").value || null, claimant: $("v-claimant").value || null, fen,
      })).count;
      for (const [k, mv] of moves.entries()) {
        count = (await venuePost(`/api/venue/counts/${count.id}/moves`, { ply: k + 1, revision: count.revision, move: mv })).count;
      }
    } catch (e) {
      failed = e;
    }
    if (count) {
      S.venue.count = null;
      await venueShow(count, t([`新计数 #${count.id}`, `new count #${count.id}`]));
    }
    // (Shown after the count: a count that took only some of the review's moves says so.)
    if (failed) showError(count ? `${t([`计数 #${count.id} 只记录了${count.moves.length}步`, `count #${count.id} holds only ${count.moves.length} plies`])}: ${failed.message}` : failed.message);
    await venueList();
  });
}

// After a refused or unanswered change, the count as the server has it is shown, and why.
async function venueRefused(e, id) {
  let why = e.message;
  if (e.status === 409) why = `${t(["未记录：计数已在另一台设备上更新，这里显示的是服务器上的计数", "Not recorded: the count moved on on another device; this is the count as stored"])} — ${e.message}`;
  else if (e.status === undefined) why = `${t(["网络中断：不能确定是否已记录，已重新读取服务器上的计数", "The network failed: it is not known whether this was recorded; the count as stored is shown"])} — ${e.message}`;
  try {
    const c = await venueGet(id);
    if (S.venue.count?.id !== id) return;
    if (c.closed_at) {
      venueDrop();
      why = t([`计数 #${id} 已由${c.closed_by}结束`, `count #${id} was closed by ${c.closed_by}`]);
    } else {
      await venueShow(c);
    }
  } catch (e2) {
    if (e2.status === 404 && S.venue.count?.id === id) venueDrop();
  }
  showError(why);
}

async function venueMove(mv) {
  const c = S.venue.count;
  if (venueNeedsName()) return;
  await venueBusy(async () => {
    try {
      const answer = await venuePost(`/api/venue/counts/${c.id}/moves`, { ply: c.moves.length + 1, revision: c.revision, move: mv });
      if (S.venue.count?.id === c.id) await venueShow(answer.count);
    } catch (e) {
      await venueRefused(e, c.id);
    }
  });
}

async function venueTakeBack() {
  const c = S.venue.count;
  if (!c.moves.length || venueNeedsName()) return;
  await venueBusy(async () => {
    try {
      const answer = await venuePost(`/api/venue/counts/${c.id}/takeback`, { ply: c.moves.length, revision: c.revision });
      if (S.venue.count?.id === c.id) await venueShow(answer.count, t([`已悔第${c.moves.length}步（留有记录）`, `ply ${c.moves.length} taken back (kept on record)`]));
    } catch (e) {
      await venueRefused(e, c.id);
    }
  });
}

async function venueClose() {
  const c = S.venue.count;
  if (!c || venueNeedsName()) return;
  if (!confirm(t([`结束计数 #${c.id}（${roundTable(c)}）？`, `Close count #${c.id} (${roundTable(c)})?`]))) return;
  await venueBusy(async () => {
    try {
      await venuePost(`/api/venue/counts/${c.id}/close`, {});
      if (S.venue.count?.id === c.id) venueDrop(t([`计数 #${c.id} 已结束`, `count #${c.id} closed`]));
    } catch (e) {
      await venueRefused(e, c.id);
    }
    await venueList();
  });
}

// Another device's moves appear here within seconds. One poll at a time, and only an answer
// about the count still shown, newer than it, is shown.
let venueListed = 0;
async function venuePoll() {
  if (document.hidden || S.venue.polling || S.venue.pending) return;
  S.venue.polling = true;
  try {
    // (The list rules every running count's claim: every 15 s is enough to find one to join.)
    if (Date.now() - venueListed > 14000) { venueListed = Date.now(); await venueList(); }
    const c = S.venue.count;
    if (!c || S.mode !== "live") return;
    const now = await venueGet(c.id);
    if (S.venue.pending || S.venue.count?.id !== c.id) return;
    if (now.closed_at) { venueDrop(t([`计数 #${c.id} 已由${now.closed_by}结束`, `count #${c.id} was closed by ${now.closed_by}`])); return; }
    if (now.revision > S.venue.count.revision) await venueShow(now, t([`计数已由其他设备更新（修订 ${now.revision}）`, `the count was moved on by another device (revision ${now.revision})`]));
  } catch (_) {
    /* the next poll asks again */
  } finally {
    S.venue.polling = false;
  }
}

// The sheet of an entry, as the case book stores it. The window is opened before the ruling is
// asked for (browsers refuse windows opened later); where none opens, the note links the sheet.
function sheetWindow() {
  const w = window.open("", "_blank");
  if (w) w.document.write(`<p style="font-family:sans-serif">${t(["正在裁决并记录……", "Ruling and recording..."])}</p>`);
  return w;
}
function showEntry(w, entry, noteId) {
  const url = `/api/venue/casebook/${entry.id}/sheet`;
  $(noteId).innerHTML = `${esc(t([`已记录：裁决记录簿第 ${entry.id} 条`, `recorded: case book entry #${entry.id}`]))} · <a href="${url}" target="_blank">${esc(t(["裁决书", "sheet"]))}</a>`;
  if (w) {
    w.location.href = url;
    w.addEventListener("load", () => w.print());
  }
}

// A ruling on the count as stored at the revision shown here (409 if it moved on), recorded in
// the case book with its sheet: its cycles when it has any, else its claim (the count's
// claimant, or the one in the bar).
async function venueRuleCount(of) {
  const c = S.venue.count;
  if (!c || venueNeedsName()) return;
  if (S.venue.badTc) { showError(t(["此计数的赛制不是本赛事的赛制，无法裁决", "This count's time control is not the event's: it cannot be ruled"])); return; }
  const claimant = c.claimant || $("v-claimant").value || null;
  if (of === "claim" && !claimant) { showError(t(["请先选择提和方", "Choose the claimant first"])); $("v-claimant").focus(); return; }
  await venueBusy(async () => {
    const w = sheetWindow();
    try {
      const r = await venuePost(`/api/venue/counts/${c.id}/rule`, { revision: c.revision, of, claimant: c.claimant ? null : claimant });
      showEntry(w, r.entry, "live-note");
    } catch (e) {
      if (w) w.close();
      await venueRefused(e, c.id);
    }
  });
}

// The sheet of the game on the board, recorded in the case book (who, when, the exact record and
// the ruling). A count's is ruled on the count as stored; a reviewed record's on the record.
async function venueSheet() {
  if (S.mode === "live") {
    if (!S.venue.count) { showError(t(["请先开始新计数，或加入一个进行中的计数", "Start a new count or join a running one first"])); return; }
    const cycles = S.live.report?.cycles?.length;
    return venueRuleCount(cycles ? "cycles" : "claim");
  }
  const req = sheetRequest();
  if (!req || venueNeedsName()) return;
  const header = S.review?.games?.find((g) => g.header.source.game === S.game)?.header ?? {};
  const where = {
    round: $("v-round").value.trim(), table: $("v-table").value.trim(),
    red: $("v-red").value.trim() || header.red || "", black: $("v-black").value.trim() || header.black || "",
  };
  if (!where.round || !where.table) {
    showError(t(["记录裁决须填写轮次和台次", "A ruling recorded in the case book needs its round and table"]));
    $(where.round ? "v-table" : "v-round").focus();
    return;
  }
  const { kind, ...rest } = req.params;
  const params = { ...rest, ...where, kind: "sheet", sheet_of: kind };
  if (!S.venue.info.access_required) params.arbiter = $("v-arbiter").value.trim();
  await venueBusy(async () => {
    const w = sheetWindow();
    try {
      const r = await apiJson("POST", "/api/venue/rule", params, req.body);
      showEntry(w, r.entry, "status");
    } catch (e) {
      if (w) w.close();
      showError(e.message);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Wiring

// The sheet's parameters and body: the game on the board, its claim (the side to move claims; a
// venue count's claimant if it has one) or, with repetitions, its adjudication.
function sheetRequest() {
  const l = line();
  if (!l) return null;
  const p = { fen: l.start_fen, moves: l.moves };
  let params;
  const rep = report();
  const ply = S.mode === "live" ? l.plies.length : S.ply;
  if (rep && rep.cycles.length) {
    params = { ...p, kind: "adjudicate", ...ruling("limit_profile") };
  } else {
    // The claimant: the venue bar's, else the side to move at the ply on the board.
    const toMove = fenAt(ply).split(" ")[1] === "b" ? "black" : "red";
    const claimant = (S.venue && $("v-claimant").value) || toMove;
    params = { ...p, kind: "claim", claimant, at: ply, ...ruling("profile") };
    if (S.mode === "live" && !S.venue && $("live-counting").value === "claim" && S.live.fromClaim !== null) params.from_claim = S.live.fromClaim;
  }
  const useRecord = S.mode === "review" && S.record && !S.review.error;
  if (useRecord) { delete params.fen; delete params.moves; params.game = S.game; params.name = S.record.name; }
  return { params, body: useRecord ? S.record.bytes : "" };
}

async function printSheet() {
  const req = sheetRequest();
  if (!req) return;
  try {
    const html = await api("POST", "/api/sheet", req.params, req.body);
    const w = window.open(URL.createObjectURL(new Blob([html], { type: "text/html" })), "_blank");
    if (w) w.addEventListener("load", () => w.print());
  } catch (e) {
    showError(e.message);
  }
}

$("file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (f) await loadRecord(f, f.name);
});
$("load-paste").addEventListener("click", () => {
  const text = $("paste").value;
  const name = /\[DhtmlXQ/i.test(text) ? "pasted.txt" : "pasted.pgn";
  loadRecord(new Blob([text], { type: "text/plain" }), name);
});
$("game").addEventListener("change", (e) => { S.game = Number(e.target.value); loadGame(); });
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(S.ply - 1));
$("next").addEventListener("click", () => go(S.ply + 1));
$("last").addEventListener("click", () => go(Infinity));
$("moves").addEventListener("click", (e) => { const tr = e.target.closest("tr[data-ply]"); if (tr) go(Number(tr.dataset.ply)); });
$("cycles").addEventListener("click", (e) => { const c = e.target.closest(".cycle"); if (c) go(Number(c.dataset.end)); });
$("lang").addEventListener("click", () => { S.lang = S.lang === "zh" ? "en" : "zh"; applyLang(); render(); });
$("rules").addEventListener("change", rerule);
$("profile").addEventListener("change", rerule);
$("event").addEventListener("change", () => { fillTimeControls(); return rerule(); });
$("time-control").addEventListener("change", rerule);
$("event-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  const text = await f.text();
  let event;
  try {
    event = await apiJson("GET", "/api/events", { event_json: text });
  } catch (err) {
    showError(`${f.name}: ${err.message}`);
    return;
  }
  showError("");
  S.eventFile = { name: f.name, text, event: event.events[0] };
  const sel = $("event");
  sel.querySelector("option[value=file]")?.remove();
  sel.insertAdjacentHTML("beforeend", `<option value="file">${esc(event.events[0].name)} (${esc(f.name)})</option>`);
  sel.value = "file";
  fillTimeControls();
  await rerule();
});
$("print").addEventListener("click", () => (S.venue ? venueSheet() : printSheet()));
$("tab-review").addEventListener("click", () => { setMode("review"); render(); });
$("tab-live").addEventListener("click", () => {
  if (S.live.review) { setMode("live"); render(); }
  else if (S.venue) { setMode("live"); $("live-note").textContent = t(["新计数，或在上方加入一个进行中的计数", "a new count, or join a running one above"]); liveUpdate(); }
  else liveStart(null, []);
});
$("live-start").addEventListener("click", () => liveStart(null, []));
$("live-from-fen").addEventListener("click", () => liveStart($("live-fen").value.trim() || null, []));
$("live-from-ply").addEventListener("click", () => {
  if (S.review) liveStart(S.review.start_fen, S.review.plies.slice(0, S.ply).map((p) => p.iccs));
});
$("live-claim").addEventListener("click", () => { S.live.fromClaim = S.live.moves.length; $("live-counting").value = "claim"; saveLive(); render(); });
$("live-counting").addEventListener("change", () => { saveLive(); render(); });
$("live-undo").addEventListener("click", () => {
  if (S.venue?.count) return venueTakeBack();
  if (S.live.moves.length) { S.live.moves.pop(); S.live.selected = null; liveUpdate(); }
});
$("live-rule").addEventListener("click", () => venueRuleCount("claim"));
$("live-close").addEventListener("click", () => venueClose());
for (const id of ["v-arbiter", "v-round", "v-table", "v-red", "v-black", "v-claimant", "v-tc"]) {
  $(id).addEventListener("change", () => venueKeep());
}
$("v-counts").addEventListener("change", (e) => venueJoin(Number(e.target.value)));
$("board").addEventListener("click", (e) => boardClick(squareAt(e)));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowLeft") { go(S.ply - 1); e.preventDefault(); }
  else if (e.key === "ArrowRight") { go(S.ply + 1); e.preventDefault(); }
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(Infinity);
});

// Open on the start position, or on the live count this browser kept.
(async () => {
  await loadEvents();
  await venueBoot();
  applyLang();
  S.review = await apiJson("POST", "/api/review", {});
  S.report = await apiJson("POST", "/api/adjudicate", ruling("limit_profile"));
  // With a venue database the count is the server's: the one this device last worked on, if it
  // is still running; the browser's own count is not used there.
  if (S.venue) {
    if (await venueRestore()) return;
  } else {
    const saved = savedLive();
    if (saved && (await restoreLive(saved))) return;
  }
  setMode("review");
  render();
})();
