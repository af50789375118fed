// xqa venue page: the running live counts of every table (with their claim state), a count's
// moves entered from any device, and the case book: an entry read whole, and corrected by a new
// ruling of its stored record. Everything is stored on the server
// (xqa serve --db) before it is acknowledged; this script only draws and sends.
"use strict";

const $ = (id) => document.getElementById(id);
const V = {
  lang: (navigator.language || "zh").toLowerCase().startsWith("zh") ? "zh" : "en",
  info: null,
  count: null,
  entry: null,
  name: localStorage.getItem("xqa.arbiter") || "",
};
const WORDS = {
  arbiter: ["裁判姓名", "Arbiter's name"],
  code: ["赛场口令", "Access code"],
  enter: ["进入", "Enter"],
  running: ["进行中的计数", "Running counts"],
  new_count: ["新计数", "New count"],
  round: ["轮次", "Round"],
  table: ["台次", "Table"],
  red: ["红方", "Red"],
  black: ["黑方", "Black"],
  time_control: ["赛制", "Time control"],
  claimant: ["提和方", "Claimant"],
  start: ["开始", "Start"],
  add: ["记录", "Enter"],
  takeback: ["悔着", "Take back"],
  rule_claim: ["裁决提和并记录", "Rule the claim and record it"],
  close: ["结束计数", "Close the count"],
  casebook: ["裁决记录簿", "Case book"],
  plies: ["步数", "plies"],
  players: ["对局者", "players"],
  state: ["提和状态", "claim"],
  by: ["裁判", "arbiter"],
  none: ["暂无", "none yet"],
  valid: ["提和成立", "claim valid"],
  needed: ["尚缺", "still needed"],
  sheet: ["裁决书", "sheet"],
  corrects: ["更正", "corrects"],
  corrected_by: ["已被更正", "corrected by"],
  kind_claim: ["限着裁决", "claim"],
  kind_cycle: ["循环裁决", "cycle"],
  kind_sheet: ["裁决书", "sheet"],
  ply_n: ["第 {n} 步", "ply {n}"],
  count_of: ["第 {r} 轮 第 {t} 台", "round {r}, table {t}"],
  refresh: ["每 5 秒自动刷新", "refreshed every 5 s"],
  switch: ["换人 Switch arbiter", "Switch arbiter 换人"],
  correct: ["更正 Correct this entry", "Correct this entry 更正"],
  close_entry: ["关闭", "Close"],
  record_correction: ["重新裁决并记录更正", "Re-rule and record the correction"],
  entry_of: ["第 {n} 号记录", "Entry #{n}"],
  kind: ["类别", "Kind"],
  event: ["赛事", "Event"],
  at: ["时间", "Time"],
  record: ["棋谱（原样保存）", "Record (exactly as stored)"],
  record_hex: ["原始字节（十六进制）", "The record's bytes (hex)"],
  ruling: ["裁决", "Ruling"],
  verdict: ["结论", "Verdict"],
  reasons: ["理由", "Reasons"],
  raw_json: ["原始 JSON", "raw JSON"],
  no_sheet: ["无裁决书", "no sheet"],
  event_limit: ["本赛事统一限着", "the event's limit"],
  record_lossy: ["棋谱（非 UTF-8 文件：下面是其文字的近似读法，原样字节见十六进制）", "Record (not UTF-8: an approximate reading of its text; the exact bytes are in hex below)"],
  hex_more: ["共 {n} 字节，完整内容见原始 JSON", "{n} bytes in all: the raw JSON holds them whole"],
  tc_gone: ["原裁决的赛制“{tc}”已不在可选之列，改为默认赛制", "The original's time control \"{tc}\" is no longer a choice: the default is offered"],
  other_event: ["原裁决所依据的赛事“{e}”不在本服务器的赛事中，无法在此更正", "The event the original was ruled under (\"{e}\") is not one this server has: it cannot be corrected here"],
  no_event: ["（未指定赛事）", "(no event)"],
  counted: ["计数 {c} / {r}，尚缺 {n}", "counted {c} of {r}, {n} still needed"],
  valid_yes: ["提和成立", "the claim is valid"],
  valid_no: ["提和不成立", "the claim is not valid"],
  result: ["结果", "result"],
  outcome: ["判定", "outcome"],
  cycle_n: ["循环 {n}（第 {a}–{b} 步）", "cycle {n} (plies {a}–{b})"],
};
const t = (k, vars = {}) => {
  const pair = WORDS[k] || [k, k];
  let s = V.lang === "zh" ? pair[0] : pair[1];
  // (One pass, with a function: a name holding "$'" or "{t}" is shown as it is.)
  return s.replace(/\{(\w+)\}/g, (m, n) => (n in vars ? String(vars[n]) : m));
};
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

async function call(method, path, body, query) {
  const url = query ? `${path}?${new URLSearchParams(query)}` : path;
  const opts = { method, credentials: "same-origin" };
  if (body !== undefined) {
    opts.body = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  }
  const r = await fetch(url, opts);
  const text = await r.text();
  let json = null;
  try { json = JSON.parse(text); } catch (_) { /* not JSON */ }
  if (!r.ok) {
    const e = new Error(json && json.error ? json.error.message : text);
    e.status = r.status;
    throw e;
  }
  return json;
}

function showError(e) {
  $("error").innerHTML = e ? `<div class="error">${esc(e.message || e)}</div>` : "";
  if (e && e.status === 401) showLogin();
}

function translate() {
  document.documentElement.lang = V.lang === "zh" ? "zh-CN" : "en";
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  $("lang").textContent = V.lang === "zh" ? "EN" : "中文";
}

function showLogin() {
  $("login").hidden = false;
  $("venue-main").hidden = true;
  $("switch").hidden = true;
  $("who").textContent = "";
  $("login-name").value = V.name;
  $("login-code").value = "";
  const asked = !!(V.info && V.info.access_required);
  $("login-code-label").hidden = !asked;
  // (A hidden field that is required would keep the form from being sent.)
  $("login-code").required = asked;
}

function arbiterName() {
  return (V.info && V.info.arbiter) || V.name;
}

function withName(body) {
  return V.info && V.info.access_required ? body : { ...body, arbiter: V.name };
}

// The time controls a count may use (the event's, or without one the limit profiles).
function choices() {
  return (V.info && V.info.time_controls) || [];
}

// A time control as the page names it: Chinese first.
function tcLabel(name) {
  if (name === null || name === undefined) return t("event_limit");
  const c = choices().find((x) => x.name === name);
  return c && c.name_zh ? `${c.name_zh} ${name}` : name;
}

function fillTimeControls(select, chosen) {
  select.innerHTML = choices().map((c) => {
    const value = c.name ?? "";
    const pick = chosen === undefined ? c.default : value === (chosen ?? "");
    const clock = c.clock ? ` · ${c.clock}` : "";
    return `<option value="${esc(value)}"${pick ? " selected" : ""}>${esc(tcLabel(c.name))}${esc(clock)}</option>`;
  }).join("");
}

function drawHeader() {
  const e = V.info && V.info.event;
  $("event-name").textContent = e ? [e.name, e.name_en].filter((x) => x).join(" · ") : "";
  $("open-tc").textContent = V.count && !V.count.closed_at
    ? `#${V.count.id} ${t("time_control")}: ${tcLabel(V.count.time_control)}` : "";
}

async function boot() {
  translate();
  try {
    V.info = (await call("GET", "/api/venue")).venue;
  } catch (e) {
    showError(e);
    return;
  }
  const known = V.info.access_required ? V.info.arbiter : V.name;
  if (!known) {
    showLogin();
    return;
  }
  $("login").hidden = true;
  $("venue-main").hidden = false;
  $("who").textContent = `${t("by")}: ${arbiterName()}`;
  $("switch").hidden = false;
  fillTimeControls($("nc-tc"));
  drawHeader();
  lastBook = 0;
  await refresh();
  const asked = /^#entry-(\d+)$/.exec(location.hash);
  if (asked && !V.entry) await openEntry(Number(asked[1])).catch(showError);
  else if (V.entry) await openEntry(V.entry.id).catch(showError);
}

let lastBook = 0;
async function refresh() {
  try {
    const counts = (await call("GET", "/api/venue/counts")).counts;
    drawCounts(counts);
    // (The case book changes rarely: read every 15 s, or after a ruling.)
    if (Date.now() - lastBook > 14000) {
      const book = await call("GET", "/api/venue/casebook");
      drawCasebook(book.entries);
      lastBook = Date.now();
    }
    if (V.count) await openCount(V.count.id, false);
    showError(null);
  } catch (e) {
    showError(e);
  }
}

function claimCell(c) {
  if (!c.claim) return `<span class="muted">—</span>`;
  if (c.claim.error) return `<span class="warn">${esc(c.claim.error)}</span>`;
  const k = c.claim;
  const head = `${k.counted} / ${k.required}`;
  return k.valid
    ? `<b class="verdict draw">${head} ${t("valid")}</b>`
    : `${head} <span class="muted">${t("needed")} ${k.needed}</span>`;
}

function drawCounts(counts) {
  const rows = counts.map((c) => `<tr data-id="${c.id}" class="count-row">
    <td>${esc(c.round)}</td><td>${esc(c.table)}</td>
    <td>${esc(c.red || "?")} – ${esc(c.black || "?")}</td>
    <td>${c.moves.length}</td><td>${esc(tcLabel(c.time_control))}</td><td>${claimCell(c)}</td><td>${esc(c.started_by)}</td></tr>`);
  $("counts").innerHTML = `<tr><th>${t("round")}</th><th>${t("table")}</th><th>${t("players")}</th>` +
    `<th>${t("plies")}</th><th>${t("time_control")}</th><th>${t("state")}</th><th>${t("by")}</th></tr>` +
    (rows.join("") || `<tr><td colspan="7" class="muted">${t("none")}</td></tr>`);
  for (const tr of document.querySelectorAll(".count-row")) {
    tr.onclick = () => openCount(Number(tr.dataset.id), true).catch(showError);
  }
  $("counts-note").textContent = t("refresh");
}

async function openCount(id, scroll) {
  const c = (await call("GET", `/api/venue/counts/${id}`)).count;
  V.count = c;
  $("count-panel").hidden = false;
  $("count-title").textContent = `#${c.id} ${t("count_of", { r: c.round, t: c.table })} · ${c.red || "?"} – ${c.black || "?"} · ${t("time_control")}: ${tcLabel(c.time_control)}`;
  drawHeader();
  $("count-state").innerHTML = claimCell(c);
  $("count-moves").innerHTML = c.moves.map((m) =>
    `<span class="muted">${m.ply}.</span> ${esc(m.iccs)} <span class="muted">(${esc(m.entered_by)})</span>`).join(" ");
  $("next-ply").textContent = t("ply_n", { n: c.moves.length + 1 });
  $("add-move").hidden = !!c.closed_at;
  $("rule-claim").hidden = !c.claimant;
  if (scroll) $("count-panel").scrollIntoView({ behavior: "smooth" });
}

function drawCasebook(entries) {
  if (!entries.length) {
    $("casebook").innerHTML = `<span class="muted">${t("none")}</span>`;
    return;
  }
  let html = "";
  let group = null;
  for (const e of entries) {
    const g = `${e.round}/${e.table}`;
    if (g !== group) {
      group = g;
      html += `<h4>${esc(t("count_of", { r: e.round, t: e.table }))} · ${esc(e.red || "?")} – ${esc(e.black || "?")}</h4>`;
    }
    const verdict = [e.verdict, ...e.cycle_verdicts, e.result].filter((v) => v).join(" · ");
    const current = V.entry && V.entry.id === e.id ? " current-entry" : "";
    html += `<div class="cycle entry-row${current}" data-id="${e.id}">#${e.id} <b>${t("kind_" + e.kind)}</b> ${esc(verdict)}
      <span class="muted">${esc(e.arbiter)} · ${esc(e.at)}</span>
      ${e.corrects ? ` · ${t("corrects")} #${e.corrects}` : ""}
      ${e.corrected_by.length ? ` · <span class="warn">${t("corrected_by")} #${e.corrected_by.join(", #")}</span>` : ""}
      ${e.has_sheet ? ` · <a href="/api/venue/casebook/${e.id}/sheet" target="_blank">${t("sheet")}</a>` : ""}</div>`;
  }
  $("casebook").innerHTML = html;
  for (const row of document.querySelectorAll(".entry-row")) {
    row.onclick = (ev) => {
      if (ev.target.closest("a")) return;
      openEntry(Number(row.dataset.id)).catch(showError);
    };
  }
}

// Every reason the ruling gives (an object's reason_zh and reason_en), where it gives it.
function reasons(ruling) {
  const out = [];
  const walk = (v, where) => {
    if (!v || typeof v !== "object") return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, where.concat([i])));
      return;
    }
    if (v.reason_zh || v.reason_en) out.push({ where, v });
    for (const [k, x] of Object.entries(v)) {
      if (k !== "moves" && k !== "header") walk(x, where.concat([k]));
    }
  };
  walk(ruling, []);
  return out;
}

function reasonTitle(where, v) {
  if (where[0] === "cycles" && where.length === 2) {
    return t("cycle_n", { n: where[1] + 1, a: v.first_ply ?? v.start_ply, b: v.last_ply ?? v.end_ply });
  }
  if (where.length === 1 && where[0] === "outcome") return t("outcome");
  return where.join(".");
}

function rulingHtml(e) {
  const r = e.ruling || {};
  const lines = [];
  const verdicts = [r.verdict, ...(r.cycles || []).map((c) => c.verdict)].filter((x) => x);
  if (verdicts.length) lines.push(`<b>${t("verdict")}:</b> ${esc(verdicts.join(" · "))}`);
  if (typeof r.valid === "boolean") {
    lines.push(`${r.valid ? t("valid_yes") : t("valid_no")}` +
      (r.required !== undefined ? ` · ${esc(t("counted", { c: r.counted, r: r.required, n: r.needed }))}` : "") +
      (r.profile ? ` · ${esc(r.profile)}` : ""));
  }
  if (r.outcome && r.outcome.result) lines.push(`${t("result")}: <b>${esc(r.outcome.result)}</b>`);
  const why = reasons(r).map(({ where, v }) =>
    `<div class="reason"><span class="muted">${esc(reasonTitle(where, v))}</span><br>` +
    `<span class="zh" lang="zh-CN">${esc(v.reason_zh || "")}</span><br>` +
    `<span class="en" lang="en">${esc(v.reason_en || "")}</span></div>`);
  if (why.length) lines.push(`<b>${t("reasons")}:</b>${why.join("")}`);
  return lines.map((l) => `<div>${l}</div>`).join("");
}

const entryLink = (n) => `<a href="#entry-${n}" class="entry-link" data-entry="${n}">#${n}</a>`;

async function openEntry(id) {
  const e = (await call("GET", `/api/venue/casebook/${id}`)).entry;
  V.entry = e;
  $("entry-panel").hidden = false;
  $("correct-form").hidden = true;
  $("entry-title").textContent = `${t("entry_of", { n: e.id })} · ${t("kind_" + e.kind)}`;
  const row = (k, v) => `<tr><th>${t(k)}</th><td>${v}</td></tr>`;
  const fields = [
    row("kind", `${esc(t("kind_" + e.kind))} (${esc(e.kind)})`),
    row("event", e.event ? esc(e.event) : `<span class="muted">${t("no_event")}</span>`),
    row("time_control", e.time_control === null && !e.event ? "—" : esc(tcLabel(e.time_control))),
    row("round", esc(e.round)),
    row("table", esc(e.table)),
    row("players", `${esc(e.red || "?")} – ${esc(e.black || "?")}`),
    row("by", esc(e.arbiter)),
    row("at", `${esc(e.at)} (UTC)`),
  ];
  if (e.corrects) fields.push(row("corrects", entryLink(e.corrects)));
  if (e.corrected_by.length) {
    fields.push(row("corrected_by", `<span class="warn">${e.corrected_by.map(entryLink).join(", ")}</span>`));
  }
  fields.push(row("sheet", e.sheet !== null
    ? `<a href="/api/venue/casebook/${e.id}/sheet" target="_blank" id="entry-sheet">${t("sheet")} #${e.id}</a>`
    : `<span class="muted">${t("no_sheet")}</span>`));
  fields.push(row("raw_json", `<a href="/api/venue/casebook/${e.id}" target="_blank" id="entry-json">/api/venue/casebook/${e.id}</a>`));
  $("entry-body").innerHTML = `<table class="entry-fields">${fields.join("")}</table>` +
    `<h4>${t("ruling")}</h4><div id="entry-ruling">${rulingHtml(e)}</div>` +
    `<h4>${t(e.record_hex ? "record_lossy" : "record")}</h4><pre id="entry-record"></pre>` +
    (e.record_hex ? `<h4>${t("record_hex")}</h4><pre id="entry-hex" class="mono"></pre>` : "");
  // (Set as text: the record is shown exactly as stored, never read as markup.)
  $("entry-record").textContent = e.record;
  // (The hex of a large binary record is shown in part; the raw JSON holds it whole.)
  const HEX_SHOWN = 64 * 1024;
  if (e.record_hex) {
    $("entry-hex").textContent = e.record_hex.length > HEX_SHOWN
      ? `${e.record_hex.slice(0, HEX_SHOWN)}\n… ${t("hex_more", { n: e.record_hex.length / 2 })}`
      : e.record_hex;
  }
  for (const a of document.querySelectorAll("#entry-body .entry-link")) {
    a.onclick = (ev) => {
      ev.preventDefault();
      openEntry(Number(a.dataset.entry)).catch(showError);
    };
  }
  for (const r of document.querySelectorAll(".entry-row")) {
    r.classList.toggle("current-entry", Number(r.dataset.id) === e.id);
  }
  history.replaceState(null, "", `#entry-${e.id}`);
}

// Whether an entry's ruling is a claim's (a sheet records either a claim or an adjudication).
function isClaim(e) {
  return e.kind === "claim" || (e.kind === "sheet" && typeof e.ruling.claimant === "string");
}

// The stored record as the rule endpoint takes it again: its exact bytes, or (a position and
// moves, recorded as "FEN: ...\nMoves: ...") the fen and moves parameters with no body; with
// the game of the record that was ruled, and for a claim the ply it was made at (and the ply
// of the claim counted from), as the ruling states them.
function recordToSend(e, query) {
  const r = e.ruling || {};
  const source = r.header && r.header.source;
  if (source && source.game) query.game = source.game;
  if (source && source.file) query.name = source.file;
  if (isClaim(e)) {
    const at = r.claimed_at_ply ?? r.at_ply;
    if (Number.isInteger(at)) query.at = at;
    if (r.counting === "from_claim" && Number.isInteger(r.window_start_ply)) query.from_claim = r.window_start_ply;
    // The limits the original was given over its event's (its overrides), or without an event
    // a custom limit: the correction keeps them.
    for (const o of r.overrides ?? []) if (["limit", "attack_cap", "check_cap"].includes(o.option)) query[o.option] = o.given;
    if (!e.event && r.profile === "custom") {
      query.limit = r.required;
      query.attack_cap = r.attack_cap ?? "none";
      query.check_cap = r.check_cap ?? "none";
    }
  } else {
    const at = r.natural_limit?.at_ply;
    if (Number.isInteger(at)) query.at = at;
  }
  if (r.rules && !e.event) query.rules = r.rules;
  if (e.record_hex) {
    const bytes = new Uint8Array(e.record_hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(e.record_hex.substr(2 * i, 2), 16);
    return bytes;
  }
  // (The moves as given, over as many lines as they took; a live count's entry ends with the
  // count's id and revision.)
  const m = /^FEN: ([^\n]*)\nMoves: ([\s\S]*?)(?:\nLive count \d+, revision \d+)?$/.exec(e.record);
  if (m) {
    delete query.game;
    delete query.name;
    query.fen = m[1];
    query.moves = m[2];
    return "";
  }
  return e.record;
}

$("correct").onclick = () => {
  const e = V.entry;
  if (!e) return;
  fillTimeControls($("cf-tc"), e.time_control);
  // (A time control the choices no longer hold: the default is offered, and the page says so.)
  const held = choices().some((c) => (c.name ?? "") === (e.time_control ?? ""));
  if (!held) fillTimeControls($("cf-tc"));
  $("cf-note").textContent = held ? "" : t("tc_gone", { tc: e.time_control ?? "—" });
  const claim = isClaim(e);
  $("cf-claimant-label").hidden = !claim;
  if (claim && e.ruling.claimant) $("cf-claimant").value = e.ruling.claimant;
  $("correct-form").hidden = false;
};

$("entry-close").onclick = () => {
  V.entry = null;
  $("entry-panel").hidden = true;
  history.replaceState(null, "", location.pathname);
  for (const r of document.querySelectorAll(".entry-row")) r.classList.remove("current-entry");
};

$("correct-form").onsubmit = async (ev) => {
  ev.preventDefault();
  const e = V.entry;
  if (!e) return;
  const claim = isClaim(e);
  const query = {
    kind: e.kind, round: e.round, table: e.table, red: e.red, black: e.black, corrects: e.id,
  };
  if (e.kind === "sheet") query.sheet_of = claim ? "claim" : "adjudicate";
  if (claim) query.claimant = $("cf-claimant").value;
  const tc = $("cf-tc").value;
  if (tc) {
    const fromEvent = V.info.time_control_source === "event";
    query[fromEvent ? "time_control" : claim ? "profile" : "limit_profile"] = tc;
  }
  if (!V.info.access_required) query.arbiter = V.name;
  // The event the original was ruled under: none, the server's, or another shipped event.
  const server = V.info.event && V.info.event.name;
  if (!e.event && server) query.event = "none";
  else if (e.event && e.event !== server) {
    const known = ((await call("GET", "/api/events")).events || []).find((x) => x.name === e.event && x.id);
    if (!known) { showError(new Error(t("other_event", { e: e.event }))); return; }
    query.event = known.id;
  }
  if (query.event === "none") {
    // (Ruled under no event, the original named a limit profile, which the event's choices
    // here do not hold: it is kept; a custom limit is carried by its numbers.)
    delete query.time_control;
    delete query.profile;
    delete query.limit_profile;
    if (e.time_control && e.time_control !== "custom") query[claim ? "profile" : "limit_profile"] = e.time_control;
  }
  const body = recordToSend(e, query);
  const submit = $("correct-form").querySelector("button[type=submit]");
  submit.disabled = true; // (one correction per press: a second tap records nothing more)
  try {
    const r = await call("POST", "/api/venue/rule", body, query);
    lastBook = 0;
    await refresh();
    await openEntry(r.entry.id);
  } catch (err) {
    showError(err);
  } finally {
    submit.disabled = false;
  }
};

$("switch").onclick = async () => {
  // (Phones are shared: this device's session is closed on the server, its cookie cleared,
  // and the next arbiter gives a name, and the code where one is asked.)
  try {
    await call("POST", "/api/venue/logout", {});
  } catch (e) {
    showError(e);
    return;
  }
  if (V.info) V.info.arbiter = null;
  V.name = "";
  localStorage.removeItem("xqa.arbiter");
  showError(null);
  showLogin();
};

$("lang").onclick = () => {
  V.lang = V.lang === "zh" ? "en" : "zh";
  translate();
  boot();
};

$("login-form").onsubmit = async (ev) => {
  ev.preventDefault();
  V.name = $("login-name").value.trim();
  localStorage.setItem("xqa.arbiter", V.name);
  try {
    if (V.info && V.info.access_required) {
      await call("POST", "/api/venue/login", { code: $("login-code").value, arbiter: V.name });
    }
    await boot();
  } catch (e) {
    showError(e);
  }
};

$("new-count").onsubmit = async (ev) => {
  ev.preventDefault();
  const body = withName({
    round: $("nc-round").value, table: $("nc-table").value,
    red: $("nc-red").value, black: $("nc-black").value,
    time_control: $("nc-tc").value || null, claimant: $("nc-claimant").value || null,
    fen: $("nc-fen").value.trim() || null,
  });
  try {
    const c = (await call("POST", "/api/venue/counts", body)).count;
    await openCount(c.id, true);
    await refresh();
  } catch (e) {
    showError(e);
  }
};

$("add-move").onsubmit = async (ev) => {
  ev.preventDefault();
  if (!V.count) return;
  const ply = V.count.moves.length + 1;
  try {
    await call("POST", `/api/venue/counts/${V.count.id}/moves`, withName({ ply, revision: V.count.revision, move: $("move").value.trim() }));
    $("move").value = "";
    showError(null);
  } catch (e) {
    showError(e);
  }
  await openCount(V.count.id, false).catch(showError);
};

$("takeback").onclick = async () => {
  if (!V.count) return;
  try {
    await call("POST", `/api/venue/counts/${V.count.id}/takeback`, withName({ ply: V.count.moves.length, revision: V.count.revision }));
  } catch (e) {
    showError(e);
  }
  await openCount(V.count.id, false).catch(showError);
};

$("close-count").onclick = async () => {
  if (!V.count) return;
  try {
    await call("POST", `/api/venue/counts/${V.count.id}/close`, withName({}));
    V.count = null;
    $("count-panel").hidden = true;
    drawHeader();
    await refresh();
  } catch (e) {
    showError(e);
  }
};

$("rule-claim").onclick = async () => {
  const c = V.count;
  if (!c || $("rule-claim").disabled) return;
  // Ruled by the server on the count as stored, at the revision shown here (409 if it moved on);
  // one entry per press.
  $("rule-claim").disabled = true;
  try {
    const r = await call("POST", `/api/venue/counts/${c.id}/rule`, withName({ revision: c.revision }));
    lastBook = 0;
    await refresh();
    $("count-state").innerHTML += ` · <a href="/api/venue/casebook/${r.entry.id}/sheet" target="_blank">${t("sheet")} #${r.entry.id}</a>`;
  } catch (e) {
    showError(e);
  } finally {
    $("rule-claim").disabled = false;
  }
};

// An entry's link (#entry-N) opens it, also from the address bar, back and forward.
window.addEventListener("hashchange", () => {
  const asked = /^#entry-(\d+)$/.exec(location.hash);
  if (asked && Number(asked[1]) !== V.entry?.id && !$("venue-main").hidden) openEntry(Number(asked[1])).catch(showError);
});

boot();
setInterval(() => { if (!$("venue-main").hidden) refresh(); }, 5000);
