// xqa venue page: the running live counts of every table (with their claim state), a count's
// moves entered from any device, and the case book. Everything is stored on the server
// (xqa serve --db) before it is acknowledged; this script only draws and sends.
"use strict";

const $ = (id) => document.getElementById(id);
const V = {
  lang: (navigator.language || "zh").toLowerCase().startsWith("zh") ? "zh" : "en",
  info: null,
  count: null,
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
};
const t = (k, vars = {}) => {
  const pair = WORDS[k] || [k, k];
  let s = V.lang === "zh" ? pair[0] : pair[1];
  for (const [n, v] of Object.entries(vars)) s = s.replace(`{${n}}`, v);
  return s;
};
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

async function call(method, path, body, query) {
  const url = query ? `${path}?${new URLSearchParams(query)}` : path;
  const opts = { method, credentials: "same-origin" };
  if (body !== undefined) {
    opts.body = typeof body === "string" ? body : JSON.stringify(body);
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
  $("login-name").value = V.name;
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
  await refresh();
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
    <td>${c.moves.length}</td><td>${claimCell(c)}</td><td>${esc(c.started_by)}</td></tr>`);
  $("counts").innerHTML = `<tr><th>${t("round")}</th><th>${t("table")}</th><th>${t("players")}</th>` +
    `<th>${t("plies")}</th><th>${t("state")}</th><th>${t("by")}</th></tr>` +
    (rows.join("") || `<tr><td colspan="6" class="muted">${t("none")}</td></tr>`);
  for (const tr of document.querySelectorAll(".count-row")) {
    tr.onclick = () => openCount(Number(tr.dataset.id), true).catch(showError);
  }
  $("counts-note").textContent = t("refresh");
}

async function openCount(id, scroll) {
  const c = (await call("GET", `/api/venue/counts/${id}`)).count;
  V.count = c;
  $("count-panel").hidden = false;
  $("count-title").textContent = `#${c.id} ${t("count_of", { r: c.round, t: c.table })} · ${c.red || "?"} – ${c.black || "?"}`;
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
    html += `<div class="cycle">#${e.id} <b>${t("kind_" + e.kind)}</b> ${esc(verdict)}
      <span class="muted">${esc(e.arbiter)} · ${esc(e.at)}</span>
      ${e.corrects ? ` · ${t("corrects")} #${e.corrects}` : ""}
      ${e.corrected_by.length ? ` · <span class="warn">${t("corrected_by")} #${e.corrected_by.join(", #")}</span>` : ""}
      ${e.has_sheet ? ` · <a href="/api/venue/casebook/${e.id}/sheet" target="_blank">${t("sheet")}</a>` : ""}</div>`;
  }
  $("casebook").innerHTML = html;
}

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
    await refresh();
  } catch (e) {
    showError(e);
  }
};

$("rule-claim").onclick = async () => {
  const c = V.count;
  if (!c) return;
  // Ruled by the server on the count as stored, at the revision shown here (409 if it moved on).
  try {
    const r = await call("POST", `/api/venue/counts/${c.id}/rule`, withName({ revision: c.revision }));
    lastBook = 0;
    await refresh();
    $("count-state").innerHTML += ` · <a href="/api/venue/casebook/${r.entry.id}/sheet" target="_blank">${t("sheet")} #${r.entry.id}</a>`;
  } catch (e) {
    showError(e);
  }
};

boot();
setInterval(() => { if (!$("venue-main").hidden) refresh(); }, 5000);
