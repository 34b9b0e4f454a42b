// The explorer's page: everything it shows comes from the server's API
// (/api/info, /api/query, /api/trace), which answers as `retrograde query`.
"use strict";

const OUTCOMES = ["win", "lose", "tie", "draw"];
const NAMES = { win: "win", lose: "loss", tie: "tie", draw: "draw", open: "undecided" };
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

// An SVG element with attributes and, if given, text (never parsed as markup).
function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

let info = null;
let start = null;
const history = []; // positions played, in notation
const values = []; // their answers

async function api(path) {
  const r = await fetch(path);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

function valueText(v) {
  return v.remoteness === null ? v.outcome : `${v.outcome} in ${v.remoteness}`;
}

function flip(outcome) {
  return outcome === "win" ? "lose" : outcome === "lose" ? "win" : outcome;
}

function legend(el, names) {
  el.innerHTML = "";
  for (const o of names) {
    const s = document.createElement("span");
    s.innerHTML = `<i class="${o}"></i>${NAMES[o]}`;
    el.appendChild(s);
  }
}

// ---- the board -------------------------------------------------------

const CHESS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", k: "\u265A" };

function drawBoard(text) {
  const game = info.game;
  const box = $("board");
  box.innerHTML = "";
  const table = document.createElement("table");
  table.className = `board ${game}`;
  const lines = text.split("\n").filter((l) => l.length > 0);
  let row = 0;
  for (const line of lines) {
    if (line.startsWith("in hand:")) {
      const p = document.createElement("p");
      p.className = "hand";
      p.textContent = line;
      box.appendChild(p);
      continue;
    }
    const tr = document.createElement("tr");
    const spaced = line.includes(" ");
    const cells = spaced ? line.trim().split(/ +/) : [...line];
    const labels = spaced && !/^[0-9]/.test(line.trim()) ; // the files' line
    if (spaced && !labels) {
      // A rank's number first.
      const td = document.createElement("td");
      td.className = "label";
      td.textContent = cells.shift();
      tr.appendChild(td);
    } else if (labels) {
      tr.appendChild(Object.assign(document.createElement("td"), { className: "label" }));
    }
    cells.forEach((c, col) => {
      const td = document.createElement("td");
      if (labels) {
        td.className = "label";
        td.textContent = c;
      } else {
        fillCell(td, c, game, row, col);
      }
      tr.appendChild(td);
    });
    table.appendChild(tr);
    if (!labels) row += 1;
  }
  box.prepend(table);
}

function fillCell(td, c, game, row, col) {
  td.dataset.piece = c;
  if (game === "chess") {
    td.className = (row + col) % 2 === 0 ? "light" : "dark";
    td.textContent = CHESS[c] || "";
  } else if (game === "cop-thief") {
    td.className = c === "*" ? "wall" : c === "E" ? "exit" : "";
    td.textContent = { P: "P", T: "T", X: "P+T", E: "E" }[c] || "";
    if (c === "P" || c === "T" || c === "X") td.classList.add(c === "T" ? "thief" : "cop");
    td.title = { P: "the cop", T: "the thief", X: "caught", E: "exit", "*": "wall" }[c] || "free";
  } else if (game === "dobutsu") {
    td.className = c === "." ? "" : c === c.toLowerCase() ? "gote" : "sente";
    td.textContent = c === "." ? "" : c.toUpperCase();
    td.title = { L: "lion", G: "giraffe", E: "elephant", C: "chick", H: "hen" }[c.toUpperCase()] || "";
  } else {
    td.className = c === "X" ? "mark-x" : c === "O" ? "mark-o" : "";
    td.textContent = c === "." ? "" : c;
  }
}

// A vertex's label: a short one (an id) inside its circle at (x, y); a
// longer one (a name) beside it, outward along (dx, dy).
function label(text, x, y, dx, dy) {
  if (text.length <= 3) return svgEl("text", { x, y: y + 4, "text-anchor": "middle", fill: "#fff" }, text);
  const anchor = dx > 0.3 ? "start" : dx < -0.3 ? "end" : "middle";
  return svgEl("text", { x: x + 22 * dx, y: y + 22 * dy + (dy > 0.3 ? 10 : 4), "text-anchor": anchor, "font-size": 11, fill: "#111" }, text);
}

// A graph's position: the vertex and the vertices its moves reach.
function drawNeighbourhood(a) {
  const box = $("board");
  box.innerHTML = "";
  const svg = document.createElementNS(SVG, "svg");
  svg.id = "neighbourhood";
  svg.setAttribute("viewBox", "-60 -10 520 320");
  const cx = 200, cy = 150, r = 110;
  const n = a.moves.length;
  a.moves.forEach((m, i) => {
    const t = (2 * Math.PI * i) / Math.max(n, 1) - Math.PI / 2;
    const x = cx + r * Math.cos(t), y = cy + r * Math.sin(t);
    const g = svgEl("g", { class: "move" });
    g.append(
      svgEl("line", { x1: cx, y1: cy, x2: x, y2: y, stroke: `var(--${m.outcome})`, "stroke-width": 3 }),
      svgEl("circle", { cx: x, cy: y, r: 16, class: flip(m.outcome), fill: `var(--${flip(m.outcome)})`, stroke: "#333" }),
      label(m.position, x, y, Math.cos(t), Math.sin(t)),
    );
    g.addEventListener("click", () => play(m.position));
    svg.appendChild(g);
  });
  const c = svgEl("g", {});
  c.append(
    svgEl("circle", { cx, cy, r: 22, fill: `var(--${a.outcome})`, stroke: "#000", "stroke-width": 3 }),
    label(a.position, cx, cy, 0, 1),
  );
  svg.appendChild(c);
  box.appendChild(svg);
}

// ---- playing ----------------------------------------------------------

async function show() {
  const a = values[values.length - 1];
  $("notation").value = a.position;
  location.hash = encodeURIComponent(a.position);
  $("status").textContent = `${a.to_move} to move: ${valueText(a)}` + (a.moves.length ? "" : " (the game is over)");
  $("status").className = a.outcome;
  $("status").dataset.outcome = a.outcome;
  $("status").dataset.remoteness = a.remoteness === null ? "" : a.remoteness;
  if (info.graph) drawNeighbourhood(a); else drawBoard(a.board);
  const list = $("moves");
  list.innerHTML = "";
  for (const m of a.moves) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = m.outcome;
    b.dataset.outcome = m.outcome;
    b.dataset.position = m.position;
    const delta = m.delta === null ? "" : ` (${m.delta >= 0 ? "+" : ""}${m.delta})`;
    b.textContent = `${m.move}: ${valueText(m)}${delta}`;
    b.title = `leads to ${m.position}`;
    b.addEventListener("click", () => play(m.position));
    li.appendChild(b);
    list.appendChild(li);
  }
  const strip = $("history");
  strip.innerHTML = "";
  values.forEach((v, ply) => {
    const s = document.createElement("span");
    const first = ply % 2 === 0 ? v.outcome : flip(v.outcome);
    s.className = first;
    s.textContent = ply;
    s.title = `ply ${ply}: ${v.to_move} to move, ${valueText(v)}`;
    strip.appendChild(s);
  });
  $("undo").disabled = values.length < 2;
  $("best").disabled = a.moves.length === 0;
}

async function play(position) {
  try {
    values.push(await api(`/api/query?position=${encodeURIComponent(position)}`));
    history.push(position);
    $("error").textContent = "";
    await show();
  } catch (e) {
    $("error").textContent = e.message;
  }
}

// A new game from `position`; the game so far stays if it is no position.
async function restart(position) {
  try {
    const first = await api(`/api/query?position=${encodeURIComponent(position)}`);
    history.length = 0;
    values.length = 0;
    history.push(position);
    values.push(first);
    $("error").textContent = "";
    await show();
    return true;
  } catch (e) {
    $("error").textContent = e.message;
    return false;
  }
}

// ---- watching the solve -------------------------------------------------

let trace = null;
let layout = [];
let step = 0;
let timer = null;

function forceLayout(n, edges) {
  // Fruchterman and Reingold's spring layout from a circle, a fixed number of
  // rounds (the same picture every time), with a pull to the centre so that
  // separate parts stay in view.
  const pos = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    pos.push([320 + 200 * Math.cos(t), 320 + 200 * Math.sin(t)]);
  }
  const k = Math.sqrt((520 * 520) / Math.max(n, 1));
  const rounds = 400;
  for (let round = 0; round < rounds; round++) {
    const f = pos.map(() => [0, 0]);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dx = pos[i][0] - pos[j][0], dy = pos[i][1] - pos[j][1];
        const d = Math.max(Math.hypot(dx, dy), 0.5);
        const push = (k * k) / d / d; // k² / d along the unit vector
        f[i][0] += dx * push; f[i][1] += dy * push;
        f[j][0] -= dx * push; f[j][1] -= dy * push;
      }
    }
    for (const [a, b] of edges) {
      if (a === b) continue;
      const dx = pos[a][0] - pos[b][0], dy = pos[a][1] - pos[b][1];
      const d = Math.max(Math.hypot(dx, dy), 0.5);
      const pull = d / k; // d² / k along the unit vector
      f[a][0] -= dx * pull; f[a][1] -= dy * pull;
      f[b][0] += dx * pull; f[b][1] += dy * pull;
    }
    const heat = 40 * (1 - round / rounds) + 1;
    for (let i = 0; i < n; i++) {
      f[i][0] += (320 - pos[i][0]) * 0.05 * k / 20;
      f[i][1] += (320 - pos[i][1]) * 0.05 * k / 20;
      const m = Math.max(Math.hypot(f[i][0], f[i][1]), 1e-9);
      pos[i][0] = Math.min(615, Math.max(25, pos[i][0] + (f[i][0] / m) * Math.min(m, heat)));
      pos[i][1] = Math.min(615, Math.max(25, pos[i][1] + (f[i][1] / m) * Math.min(m, heat)));
    }
  }
  return pos;
}

// The state after the first `upto` events.
function replay(upto) {
  const n = trace.labels.length;
  const s = { status: Array(n).fill("open"), left: Array(n).fill(null), rem: Array(n).fill(null),
    queue: [], ties: [], current: null, lit: null, text: "Nothing yet: press Step." };
  for (const e of trace.events.slice(0, upto)) {
    const name = (v) => trace.labels[v];
    switch (e.event) {
      case "start":
        if (e.outcome) {
          s.status[e.position] = e.outcome;
          s.rem[e.position] = e.outcome === "draw" ? null : 0;
          if (e.outcome === "win" || e.outcome === "lose") s.queue.push(e.position);
          if (e.outcome === "tie") s.ties.push(e.position);
          s.text = `${name(e.position)} is terminal: ${NAMES[e.outcome]} in 0.`;
        } else {
          s.left[e.position] = e.moves;
          s.text = `${name(e.position)} has ${e.moves} move${e.moves === 1 ? "" : "s"}: its counter starts at ${e.moves}.`;
        }
        s.current = e.position;
        s.lit = null;
        break;
      case "tie_phase":
        s.queue.push(...s.ties);
        s.ties = [];
        s.text = "No more wins or losses follow: the terminal ties join the queue.";
        break;
      case "dequeue":
        s.queue.shift();
        s.current = e.position;
        s.lit = null;
        s.text = `${name(e.position)} (${NAMES[s.status[e.position]]} in ${s.rem[e.position]}) is taken from the queue: its moves are read backwards.`;
        break;
      case "edge":
        s.lit = [e.from, e.to];
        if (s.status[e.from] === "open") s.left[e.from] = e.left;
        s.text = `The move ${name(e.from)} \u2192 ${name(e.to)} is read backwards` +
          (s.status[e.from] === "open" ? `: ${name(e.from)} has ${e.left} move${e.left === 1 ? "" : "s"} left that might not lose.` : `: ${name(e.from)} is decided already.`);
        break;
      case "decided":
        s.status[e.position] = e.outcome;
        s.rem[e.position] = e.remoteness;
        s.queue.push(e.position);
        s.text = `${name(e.position)} is a ${NAMES[e.outcome]} in ${e.remoteness}, and joins the queue.`;
        break;
      case "draw":
        s.status[e.position] = "draw";
        s.text = `${name(e.position)} was never decided: a draw.`;
        break;
    }
  }
  if (upto === trace.events.length) s.text += " The end: every position has its value.";
  return s;
}

function drawTrace() {
  const s = replay(step);
  const svg = $("graph");
  for (const g of svg.querySelectorAll("g.node")) {
    const v = Number(g.dataset.vertex);
    const c = g.querySelector("circle");
    c.setAttribute("fill", `var(--${s.status[v]})`);
    g.dataset.status = s.status[v];
    g.classList.toggle("current", s.current === v);
    const r = s.rem[v] !== null ? `r ${s.rem[v]}` : s.status[v] === "open" && s.left[v] !== null ? `${s.left[v]} left` : "";
    g.querySelector("text.sub").textContent = r;
  }
  for (const l of svg.querySelectorAll("line.edge")) {
    const lit = s.lit && Number(l.dataset.from) === s.lit[0] && Number(l.dataset.to) === s.lit[1];
    l.classList.toggle("lit", Boolean(lit));
  }
  $("explain").textContent = s.text;
  $("queue").textContent = `Queue: ${s.queue.length ? s.queue.map((v) => trace.labels[v]).join(", ") : "empty"}`;
  $("stepinfo").textContent = `step ${step} of ${trace.events.length}`;
  $("stepinfo").dataset.step = step;
}

async function watch() {
  trace = await api("/api/trace");
  const n = trace.labels.length;
  layout = forceLayout(n, trace.edges);
  const svg = $("graph");
  svg.innerHTML = `<defs><marker id="arrow" viewBox="0 0 10 10" refX="22" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#666"/></marker></defs>`;
  for (const [a, b] of trace.edges) {
    const l = document.createElementNS(SVG, "line");
    l.setAttribute("class", "edge");
    l.dataset.from = a;
    l.dataset.to = b;
    l.setAttribute("x1", layout[a][0]); l.setAttribute("y1", layout[a][1]);
    l.setAttribute("x2", layout[b][0]); l.setAttribute("y2", layout[b][1]);
    l.setAttribute("stroke", "#999");
    l.setAttribute("marker-end", "url(#arrow)");
    svg.appendChild(l);
  }
  const small = n > 40;
  for (let v = 0; v < n; v++) {
    const g = svgEl("g", { class: "node" });
    g.dataset.vertex = v;
    const [x, y] = layout[v];
    const label = small ? String(v) : trace.labels[v];
    g.append(
      svgEl("title", {}, trace.labels[v]),
      svgEl("circle", { cx: x, cy: y, r: small ? 9 : 14, stroke: "#333" }),
      svgEl("text", { x, y: y + 4, "text-anchor": "middle" }, label.length > 6 ? String(v) : label),
      svgEl("text", { class: "sub", x, y: y + (small ? 20 : 27), "text-anchor": "middle" }, ""),
    );
    svg.appendChild(g);
  }
  legend($("watch-legend"), ["open", "win", "lose", "tie", "draw"]);
  $("watch").hidden = false;
  const go = (to) => { step = Math.max(0, Math.min(trace.events.length, to)); drawTrace(); };
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(step - 1);
  $("step").onclick = () => go(step + 1);
  $("last").onclick = () => go(trace.events.length);
  $("run").onclick = () => {
    if (timer) { clearInterval(timer); timer = null; $("run").textContent = "Play"; return; }
    $("run").textContent = "Pause";
    timer = setInterval(() => {
      if (step >= trace.events.length) { clearInterval(timer); timer = null; $("run").textContent = "Play"; return; }
      go(step + 1);
    }, 400);
  };
  go(0);
}

// ---- start ---------------------------------------------------------------

async function main() {
  info = await api("/api/info");
  document.title = `${info.name} \u2014 retrograde`;
  $("title").textContent = info.name;
  $("subtitle").textContent = `${info.positions.toLocaleString("en")} positions solved. Click a move to play it; colours are values for the player who moves.`;
  legend($("legend"), OUTCOMES);
  let asked = null;
  try {
    asked = location.hash ? decodeURIComponent(location.hash.slice(1)) : null;
  } catch {
    $("error").textContent = "The address's position is not percent-encoded text: opening the start.";
  }
  start = info.start !== null ? info.start : (info.graph ? "0" : null);
  $("goto").addEventListener("submit", (ev) => { ev.preventDefault(); restart($("notation").value); });
  $("undo").onclick = () => { if (values.length > 1) { values.pop(); history.pop(); show(); } };
  $("best").onclick = () => { const a = values[values.length - 1]; if (a.moves.length) play(a.moves[0].position); };
  // The game's start, or where this game began.
  $("restart").onclick = () => { const to = start !== null ? start : history[0]; if (to !== undefined) restart(to); };
  $("copy").onclick = async () => {
    const text = $("notation").value;
    try { await navigator.clipboard.writeText(text); $("copied").textContent = "copied"; }
    catch { $("notation").select(); $("copied").textContent = "selected: press Ctrl-C"; }
  };
  const opened = asked !== null && (await restart(asked));
  if (!opened && start !== null) {
    const why = $("error").textContent;
    await restart(start);
    $("error").textContent = why;
  }
  if (values.length === 0) $("status").textContent = "Type a position and press Go.";
  if (info.trace) await watch();
  document.body.dataset.ready = "true";
}

main().catch((e) => { $("error").textContent = e.message; document.body.dataset.ready = "error"; });
