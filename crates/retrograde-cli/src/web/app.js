// The explorer's page: everything it shows comes from the server's API
// (/api/info, /api/query, /api/trace), which answers as `retrograde query`.
// Parts: the board (drawn from the game's text, moves made on it), the game
// so far (undo, redo, the record, the chart, the address), and the solve
// watched step by step (a graph, or the cop and the thief on their board).
"use strict";

const OUTCOMES = ["win", "lose", "tie", "draw"];
const NAMES = { win: "win", lose: "loss", tie: "tie", draw: "draw", open: "undecided" };
const LETTER = { win: "W", lose: "L", tie: "T", draw: "D", open: "?" };
const ON = { win: "#000", lose: "#000", tie: "#fff", draw: "#000", open: "#000" };
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

// An element with attributes and, if given, text (never parsed as markup).
function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function svgEl(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(path) {
  const r = await fetch(path);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

// "win in 3", "draw".
function valueText(v) {
  return v.remoteness === null ? NAMES[v.outcome] : `${NAMES[v.outcome]} in ${v.remoteness}`;
}
// "W3", "D": a value in a square.
function shortValue(outcome, remoteness) {
  return remoteness === null || remoteness === undefined ? LETTER[outcome] : `${LETTER[outcome]}${remoteness}`;
}
function flip(outcome) {
  return outcome === "win" ? "lose" : outcome === "lose" ? "win" : outcome;
}
function legend(box, names) {
  box.textContent = "";
  for (const o of names) {
    const s = el("span");
    s.append(el("i", { class: o }, LETTER[o]), NAMES[o]);
    box.appendChild(s);
  }
}

let info = null;
let start = null;

// ---- the game so far -----------------------------------------------------

// The line played: each entry a position's answer and the move that led
// there ({written} or null for the first); `at` the one shown. Undo and
// redo move `at`; a new move cuts the line after it. Each game (a new one
// from the start, the address or Go) is kept, so that Back finds it.
const games = new Map();
const SESSION = Math.random().toString(36).slice(2); // game ids unique across reloads
let gameId = null;
let line = [];
let at = -1;
const current = () => line[at];

// The browser's history, as far as the page made it: `stack[pos]` is the
// entry shown, each {game, ply, idx}. Playing a move pushes an entry; Undo
// and Redo step through the entries where they are the plies before and
// after, so that Back and Forward are Undo and Redo.
const stack = [];
let pos = -1;
function remember(mode) {
  if (mode === "none") return;
  if (mode === "push") { pos += 1; stack.length = pos; } else if (pos < 0) pos = 0;
  const state = { game: gameId, ply: at, idx: pos };
  stack[pos] = state;
  const hash = `#${encodeURIComponent(current().answer.position)}`;
  if (mode === "push") history.pushState(state, "", hash); else history.replaceState(state, "", hash);
}

// The game played survives a reload: the positions and the moves' names,
// kept in the tab's session storage for this database.
const saveKey = () => `retrograde:${info.name}:${info.positions}`;
function saveGame() {
  try {
    sessionStorage.setItem(saveKey(), JSON.stringify({ at, line: line.map((e) => [e.answer.position, e.written]) }));
  } catch { /* storage refused or full: nothing is kept */ }
}
// The game saved before a reload, if its ply shown is the address's
// position: every answer asked again (the database may have changed).
async function restoreGame(asked) {
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(saveKey())); } catch { return false; }
  if (!saved || !Array.isArray(saved.line) || !saved.line.length || saved.line.length > 1000) return false;
  const k = saved.at;
  if (!Number.isInteger(k) || k < 0 || k >= saved.line.length || !Array.isArray(saved.line[k]) || saved.line[k][0] !== asked) return false;
  try {
    const answers = await Promise.all(saved.line.map((e) => fetchAnswer(String(e[0]))));
    gameId = `${SESSION}:${games.size + 1}`;
    line = answers.map((answer, i) => ({ answer, written: saved.line[i][1] === null ? null : String(saved.line[i][1]) }));
    games.set(gameId, line);
    at = k;
    show("replace");
    return true;
  } catch { return false; }
}

// Every change of the position shown counts: an answer that arrives after
// the user went elsewhere is dropped.
let epoch = 0;

async function fetchAnswer(position) {
  return api(`/api/query?position=${encodeURIComponent(position)}`);
}

// The computer's side ("first": the player who moves first, "second": the
// other; "" none) and level; a seeded generator for the beginner's choices
// (`?seed=N` in the address repeats a game).
const computer = { side: "", level: "perfect", timer: null };
let seed = Number(new URLSearchParams(location.search).get("seed")) || Math.floor(Math.random() * 2 ** 31);
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const hidingValues = () => $("hide-values").checked;
// Whether the computer moves at the ply shown.
const computerToMove = () => computer.side !== "" && at >= 0 && current().answer.moves.length > 0
  && (computer.side === "first") === firstMoves(at);
// After a move, at the computer's turn: its answer, a moment later so that
// the move just made is seen. Perfect: the best move; a beginner: any move,
// each as likely, so a won position can be won against it.
function computerTurn() {
  clearTimeout(computer.timer);
  if (!computerToMove()) return;
  const asked = epoch;
  computer.timer = setTimeout(() => {
    if (asked !== epoch || !computerToMove()) return;
    const n = current().answer.moves.length;
    playMove(computer.level === "perfect" ? 0 : Math.floor(random() * n));
  }, 400);
}

// Plays move `i` of the position shown. The first answer for a ply wins:
// it moves the epoch on, so a second click's answer (or `b` pressed twice)
// is dropped, never the same move played twice.
async function playMove(i) {
  if (at < 0) return;
  const a = current().answer;
  const m = a.moves[i];
  if (!m) return;
  const written = a.after[i] ? a.after[i].written : m.move;
  if (line[at + 1] && line[at + 1].answer.position === m.position && line[at + 1].written === written) {
    goTo(at + 1, "push");
    return;
  }
  const asked = epoch;
  try {
    const next = await fetchAnswer(m.position);
    if (asked !== epoch) return;
    line.length = at + 1;
    line.push({ answer: next, written });
    at += 1;
    epoch += 1;
    $("error").textContent = "";
    show("push");
    computerTurn();
  } catch (e) {
    if (asked === epoch) $("error").textContent = e.message;
  }
}

// A new game from `position`; the game so far stays if it is no position.
// `mode`: "push" makes a new entry in the history; "replace" (a position
// from the address) writes the game's own spelling over the address's.
// `near`: a position of the game played (in any spelling the game reads)
// is its nearest ply there, not a new game.
async function restart(position, mode = "push", near = false) {
  const asked = ++epoch;
  try {
    const first = await fetchAnswer(position);
    if (asked !== epoch) return false;
    epoch += 1;
    const i = near ? nearest(first.position) : -1;
    if (i >= 0) {
      goTo(i, mode);
      return true;
    }
    gameId = `${SESSION}:${games.size + 1}`;
    line = [{ answer: first, written: null }];
    games.set(gameId, line);
    at = 0;
    $("error").textContent = "";
    show(mode);
    computerTurn();
    return true;
  } catch (e) {
    if (asked === epoch) $("error").textContent = e.message;
    return false;
  }
}

// Even to the ply shown, an answer on its way is dropped, and the entry
// gets the position's own spelling (an address typed in another).
function goTo(ply, mode = "replace") {
  if (ply < 0 || ply >= line.length) return;
  epoch += 1;
  $("error").textContent = "";
  if (ply === at) { remember(mode); return; }
  at = ply;
  show(mode);
}

// Undo (d = -1) and Redo (+1): Back and Forward where those are the plies
// before and after. The page shows the ply at once; the browser's step
// follows, and its popstate finds the page there already.
function step(d) {
  const s = stack[pos + d];
  if (s && s.game === gameId && s.ply === at + d) { pos += d; goTo(at + d, "none"); history.go(d); } else goTo(at + d);
}
const undo = () => step(-1);
const redo = () => step(1);

// Whether the history's entry shown is one the page made (it carries its
// place).
const ownEntry = () => history.state !== null && typeof history.state.idx === "number";

// The ply of the game played showing `position`, the nearest to the one
// shown (a position met twice); -1 if none.
function nearest(position) {
  let i = -1;
  line.forEach((e, j) => { if (e.answer.position === position && (i < 0 || Math.abs(j - at) < Math.abs(i - at))) i = j; });
  return i;
}

// Whether the player to move at ply `i` is the one who moved first: the
// game says who moves, or the plies alternate (a graph without owners; a
// game over naming someone who never moved in it, as "nobody" after the
// lion's capture).
function firstMoves(i) {
  const a = line[i].answer, b = line[0].answer;
  if (a.to_move === "the player to move" || b.to_move === "the player to move") return i % 2 === 0;
  if (!a.moves.length && !line.some((e) => e.answer.moves.length && e.answer.to_move === a.to_move)) return i === 0 || !firstMoves(i - 1);
  return a.to_move === b.to_move;
}

// Shows the position at `at`; `mode` says what the history gets (see
// `remember`).
function show(mode = "replace") {
  if (editor.on) editor.stop(); // a position shown ends the setting up
  const entry = current();
  const a = entry.answer;
  $("notation").value = a.position;
  remember(mode);
  saveGame();
  const focus = focusKind();
  $("choose").hidden = true;
  const status = $("status");
  status.textContent = "";
  status.append(el("span", { class: `badge ${a.outcome}`, "aria-hidden": "true" }, LETTER[a.outcome]),
    el("span", { id: "status-text" }, a.moves.length ? (hidingValues() ? `${a.to_move} to move` : `${a.to_move} to move: ${valueText(a)}`)
      : a.ending ? `Game over: ${a.ending}` : `${a.to_move} to move: ${valueText(a)} (the game is over)`));
  document.body.classList.toggle("novalues", hidingValues());
  // The computer's sides, named as the game names them once it has.
  const sides = $("computer").options, first = line[0].answer.to_move;
  if (!["the player to move", "nobody"].includes(first)) {
    const other = line.find((e) => e.answer.moves.length && e.answer.to_move !== first);
    sides[1].textContent = first;
    sides[2].textContent = other ? other.answer.to_move : "the other side";
  }
  status.dataset.outcome = a.outcome;
  status.dataset.remoteness = a.remoteness === null ? "" : a.remoteness;
  $("hint").hidden = true;
  for (const id of GAME_PARTS) $(id).hidden = false;
  selected = null;
  // The last hovered move belongs to the position left: its arrow goes.
  hover(null);
  if (info.graph) drawNeighbourhood(a); else drawBoard(a);
  drawMoves(a);
  drawRecord();
  drawChart();
  $("undo").disabled = at < 1;
  $("redo").disabled = at >= line.length - 1;
  $("best").disabled = a.moves.length === 0;
  $("restart").disabled = false;
  refocus(focus);
}

// Where the keyboard was, so that a redrawn page gives it back: on the
// board (or its chooser), the moves, the record, or a button that a redraw
// may disable.
function focusKind() {
  const was = document.activeElement;
  if (!was || !was.closest) return null;
  if (was.closest("#board, #choose")) return "board";
  if (was.closest("#moves")) return "moves";
  if (was.closest("#record")) return "record";
  if (was.closest("#play .buttons")) return was;
  return null;
}
function refocus(kind) {
  let to = null;
  if (kind === "board") to = document.querySelector("#board .selected, #board .target, #board .from, #board g.move");
  else if (kind === "moves") to = document.querySelector("#moves button");
  else if (kind === "record") to = document.querySelector('#record button[aria-current="true"]');
  else if (kind instanceof HTMLElement && kind.disabled) to = [...kind.parentNode.querySelectorAll("button")].find((b) => !b.disabled);
  if (to) to.focus();
}

function drawMoves(a) {
  const box = $("moves");
  box.textContent = "";
  const heads = { win: "Winning", tie: "Tying", draw: "Drawing", lose: "Losing" };
  const hiding = hidingValues();
  const nameOf = (i) => (a.after[i] ? a.after[i].written : a.moves[i].move);
  // Values hidden: one list, in the order of the moves' names (best first
  // would give the best away).
  const groups = hiding ? [null] : ["win", "tie", "draw", "lose"];
  for (const o of groups) {
    const idx = a.moves.map((m, i) => i).filter((i) => o === null || a.moves[i].outcome === o);
    if (o === null) idx.sort((i, j) => nameOf(i).localeCompare(nameOf(j), "en", { numeric: true }));
    if (!idx.length) continue;
    const g = el("div", { class: "group" });
    g.appendChild(el("h4", {}, `${o === null ? "Moves" : heads[o]} (${idx.length})`));
    const list = el("ol");
    for (const i of idx) {
      const m = a.moves[i];
      const li = el("li");
      const b = el("button", hiding ? { type: "button", "data-position": m.position, "data-index": i }
        : { type: "button", class: m.outcome, "data-outcome": m.outcome, "data-position": m.position, "data-index": i });
      const delta = m.delta === null ? "" : ` (${m.delta >= 0 ? "+" : ""}${m.delta})`;
      const name = nameOf(i);
      b.textContent = hiding ? name : `${name}: ${valueText(m)}${delta}`;
      b.title = `${m.move} leads to ${m.position}`;
      b.addEventListener("click", () => playMove(i));
      b.addEventListener("mouseenter", () => hover(i));
      // Shown for the keyboard's focus, not for the focus a redraw gives
      // back after a click (the first move's arrow would read as advice).
      b.addEventListener("focus", () => { if (b.matches(":focus-visible")) hover(i); });
      b.addEventListener("mouseleave", () => hover(null));
      b.addEventListener("blur", () => hover(null));
      li.appendChild(b);
      list.appendChild(li);
    }
    g.appendChild(list);
    box.appendChild(g);
  }
  if (!a.moves.length) box.appendChild(el("p", {}, "No moves: the game is over."));
}

// The moves played, numbered as the game counts them (chess: a move is
// white's ply and black's).
function drawRecord() {
  const list = $("record");
  list.textContent = "";
  const chess = info.game === "chess";
  const item = (ply) => {
    const b = el("button", { type: "button", "data-ply": ply }, ply === 0 ? "start" : line[ply].written);
    if (ply === at) b.setAttribute("aria-current", "true");
    b.title = line[ply].answer.position;
    b.addEventListener("click", () => goTo(ply));
    return b;
  };
  const first = el("li");
  first.appendChild(item(0));
  list.appendChild(first);
  const blackFirst = chess && line[0].answer.to_move === "black";
  for (let ply = 1; ply < line.length; ply++) {
    const li = el("li");
    if (chess) {
      const k = ply - 1 + (blackFirst ? 1 : 0); // plies since a white move
      const number = Math.floor(k / 2) + 1;
      if (k % 2 === 0) li.appendChild(el("span", { class: "num" }, `${number}. `));
      else if (ply === 1) li.appendChild(el("span", { class: "num" }, `${number}\u2026 `));
    } else {
      li.appendChild(el("span", { class: "num" }, `${ply}. `));
    }
    li.appendChild(item(ply));
    list.appendChild(li);
  }
}

// The value of every position of the line for the player who moved first:
// above the axis a win for them, below a loss, the height its remoteness;
// ties and draws on the axis. Shapes tell the values apart without colour.
function drawChart() {
  const svg = $("chart");
  svg.removeAttribute("hidden");
  svg.textContent = "";
  const n = line.length;
  const pts = line.map((e, i) => {
    const v = e.answer;
    const o = firstMoves(i) ? v.outcome : flip(v.outcome);
    return { o, r: v.remoteness, v, i };
  });
  const top = Math.max(1, ...pts.map((p) => (p.r === null ? 0 : p.r)));
  // Drawn at the size it is shown, so that its text is the page's size on
  // a phone too.
  const W = Math.round(Math.max(300, Math.min(720, svg.getBoundingClientRect().width || 720)));
  const H = 190, left = 70, right = 16, mid = H / 2, span = H / 2 - 22;
  const step = n > 1 ? Math.min(40, (W - left - right) / (n - 1)) : 0;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const y = (p) => (p.o === "win" ? mid - (span * p.r) / top : p.o === "lose" ? mid + (span * p.r) / top : mid);
  const x = (i) => left + i * step;
  svg.append(
    svgEl("line", { x1: left - 8, y1: mid, x2: W - right, y2: mid, stroke: "#767676" }),
    // The words halfway up and down, clear of the scale's numbers.
    svgEl("text", { x: 4, y: mid - span / 2 + 4 }, "wins \u2191"),
    svgEl("text", { x: 4, y: mid + 4 }, "tie/draw"),
    svgEl("text", { x: 4, y: mid + span / 2 + 4 }, "losses \u2193"),
    svgEl("text", { x: left - 10, y: mid - span + 4, "text-anchor": "end" }, `${top}`),
    svgEl("text", { x: left - 10, y: mid + span + 4, "text-anchor": "end" }, `${top}`),
  );
  if (at >= 0) svg.appendChild(svgEl("line", { x1: x(at), y1: 6, x2: x(at), y2: H - 6, stroke: "#1a1a1a", "stroke-dasharray": "3 3" }));
  if (n > 1) {
    svg.appendChild(svgEl("polyline", { points: pts.map((p) => `${x(p.i)},${y(p)}`).join(" "), fill: "none", stroke: "#767676", "stroke-width": 1.5 }));
  }
  for (const p of pts) {
    const cx = x(p.i), cy = y(p), s = 7;
    const shape = {
      win: `M${cx},${cy - s}L${cx + s},${cy + s * 0.8}L${cx - s},${cy + s * 0.8}Z`,
      lose: `M${cx},${cy + s}L${cx + s},${cy - s * 0.8}L${cx - s},${cy - s * 0.8}Z`,
      tie: `M${cx - s * 0.8},${cy - s * 0.8}h${s * 1.6}v${s * 1.6}h${-s * 1.6}Z`,
      draw: `M${cx},${cy - s}L${cx + s},${cy}L${cx},${cy + s}L${cx - s},${cy}Z`,
    }[p.o];
    const g = svgEl("g", { class: "point", "data-ply": p.i, "data-outcome": p.o });
    g.append(svgEl("title", {}, `ply ${p.i}: ${p.v.to_move} to move, ${valueText(p.v)}`),
      svgEl("path", { d: shape, fill: `var(--${p.o})`, stroke: "#1a1a1a", "stroke-width": p.i === at ? 2.5 : 1 }));
    g.addEventListener("click", () => goTo(p.i));
    svg.appendChild(g);
  }
}

// ---- the board -------------------------------------------------------

const CHESS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
  k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const EMPTY = new Set([".", " ", ""]);

// A board's text as cells: `rows` of {cells, label}, the files' labels, and
// the lines that are no squares (a hand, a score). A board written with
// spaces between squares (chess, tic-tac-toe) has a square a word; any
// other (the cop and the thief, dots and boxes) a square a character.
function parseBoard(text) {
  const lines = text.split("\n").filter((l) => l.length > 0);
  const notes = lines.filter((l) => /[a-z]{3,}/.test(l));
  const grid = lines.filter((l) => !/[a-z]{3,}/.test(l));
  const spaced = grid.length > 0 && grid.every((l) => /\S \S/.test(l.trim()) || l.trim().length === 1)
    && grid.every((l) => l.trim().split(/ +/).every((w) => w.length <= 2));
  const board = { spaced, rows: [], files: null, notes };
  if (!spaced) {
    const width = Math.max(...grid.map((l) => l.length));
    for (const l of grid) board.rows.push({ label: null, cells: [...l.padEnd(width)] });
    return board;
  }
  const words = grid.map((l) => l.trim().split(/ +/));
  const widest = Math.max(...words.map((w) => w.length));
  words.forEach((w, i) => {
    const labelled = /^[0-9]+$/.test(w[0]) && w.length === widest && grid.some((g, j) => j !== i && words[j].length === widest - 1);
    if (!/^[0-9]/.test(w[0]) && w.length === widest - 1 && /^[a-z]/.test(w[0]) && i === words.length - 1) board.files = w;
    else if (labelled) board.rows.push({ label: w[0], cells: w.slice(1) });
    else board.rows.push({ label: null, cells: w });
  });
  return board;
}

// A game's drawing as a board of one row, a cell a place, its text the
// piece there ("player|symbol|name", "." for none), the moves' `pieces`
// keyed the same way.
const pieceKey = (pc) => (pc ? `${pc.player}|${pc.symbol}|${pc.name}` : ".");
function drawnBoard(d) {
  return { spaced: true, rows: [{ label: null, cells: d.places.map((p) => pieceKey(p.piece)) }], files: null, notes: d.notes, drawing: d };
}
const boardOf = (a) => (a.drawing ? drawnBoard(a.drawing) : parseBoard(a.board));
const afterBoard = (a, i) => (a.drawing
  ? (a.after[i].pieces ? { rows: [{ cells: a.after[i].pieces.map(pieceKey) }] } : null)
  : parseBoard(a.after[i].board));

// What a move changes on the board: the square it leaves (`from`, or null
// for a piece placed) and the squares it fills (`to`). `null` if the boards
// are not of one shape.
function changes(before, after) {
  if (before.rows.length !== after.rows.length) return null;
  let from = null;
  const to = [];
  for (let r = 0; r < before.rows.length; r++) {
    const a = before.rows[r].cells, b = after.rows[r].cells;
    if (a.length !== b.length) return null;
    for (let c = 0; c < a.length; c++) {
      if (a[c] === b[c]) continue;
      if (!EMPTY.has(a[c]) && EMPTY.has(b[c])) from = from || [r, c];
      else to.push([r, c]);
    }
  }
  return { from, to };
}

// What a move changes on a drawn board (`changes` for its places): the
// piece that moves is the one that leaves a place and stands on another
// (the same piece, or failing that one of the same player: a chick
// promoted); what else changes (a stone removed, a piece captured into a
// hand, a box completed) is no place to click. A move that moves no piece
// places one: on the first place it fills.
function drawnChanges(before, after) {
  if (after.rows.length !== 1) return null; // no drawing after (the game over)
  const a = before.rows[0].cells, b = after.rows[0].cells;
  if (a.length !== b.length) return null;
  const emptied = [], filled = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) (b[i] === "." ? emptied : filled).push(i);
  }
  const player = (k) => k.split("|")[0];
  const moved = (same) => {
    for (const e of emptied) {
      const to = filled.filter((f) => same(a[e], b[f]));
      if (to.length) return { from: [0, e], to: to.map((f) => [0, f]) };
    }
    return null;
  };
  return moved((x, y) => x === y) || moved((x, y) => player(x) !== "none" && player(x) === player(y))
    || { from: null, to: filled.length ? [[0, filled[0]]] : [] };
}
const changed = (before, after) => (before.drawing ? drawnChanges(before, after) : changes(before, after));

let board = null; // the board shown, parsed
let geometry = []; // each move's changes
let selected = null; // the square whose piece is picked up, "r,c"
let dragging = null;
let sole = null; // the one square pieces leave, if only one does
let placing = false; // whether some move places a piece (a drop, a mark)
let justPicked = null; // the square a press has just picked up
// Picked up while nothing else is: the one piece that moves, unless a piece
// can also be placed (then nothing, so that the places show).
const resting = () => (placing ? null : sole);

function fillCell(td, c, row, col) {
  const game = info.game;
  td.textContent = "";
  td.removeAttribute("aria-label");
  td.dataset.piece = c;
  if (game === "chess") {
    td.className = (row + col) % 2 === 0 ? "light" : "dark";
    td.textContent = CHESS[c] || "";
    if (CHESS[c]) td.setAttribute("aria-label", `${c === c.toUpperCase() ? "white" : "black"} ${{ k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" }[c.toLowerCase()]}`);
  } else if (game === "cop-thief") {
    td.className = c === "*" ? "wall" : c === "E" ? "exit" : "";
    td.textContent = { P: "P", T: "T", X: "P+T", E: "E" }[c] || "";
    if (c === "P" || c === "T" || c === "X") td.classList.add(c === "T" ? "thief" : "cop");
    td.title = { P: "the cop", T: "the thief", X: "caught", E: "exit", "*": "wall" }[c] || "free";
  } else if (game === "dobutsu") {
    td.className = c === "." ? "" : c === c.toLowerCase() ? "gote" : "sente";
    if (c !== ".") td.appendChild(el("span", { class: "piece" }, c.toUpperCase()));
    td.title = { L: "lion", G: "giraffe", E: "elephant", C: "chick", H: "hen" }[c.toUpperCase()] || "";
  } else {
    td.className = c === "X" ? "mark-x" : c === "O" ? "mark-o" : "";
    td.textContent = EMPTY.has(c) && board.spaced ? "" : c;
  }
}

// Place `g` of a drawn board as it stands: the place (a point or a
// square), a large round area to click, and the piece if there is one.
function fillPlace(g) {
  const i = Number(g.dataset.cell.split(",")[1]);
  const place = board.drawing.places[i];
  const u = Number(g.dataset.unit), x = Number(g.dataset.x), y = Number(g.dataset.y);
  g.textContent = "";
  g.dataset.piece = pieceKey(place.piece);
  const pc = place.piece;
  g.setAttribute("aria-label", `${place.name}: ${pc ? pc.name : "empty"}`);
  g.dataset.what = pc ? pc.name : "";
  if (place.shape === "across" || place.shape === "down") {
    // A side between two dots: a faint dashed line until drawn; a band
    // at least 24 px wide to click.
    const across = place.shape === "across", t = Math.max(24, u * 0.4);
    const [w, h] = across ? [u, t] : [t, u];
    g.append(svgEl("rect", { class: "hit", x: x - w / 2, y: y - h / 2, width: w, height: h }));
    const [dx, dy] = across ? [u * 0.4, 0] : [0, u * 0.4];
    g.append(svgEl("line", { class: pc ? `bar ${pc.player}` : "gap", x1: x - dx, y1: y - dy, x2: x + dx, y2: y + dy, "stroke-width": pc ? Math.max(4, u * 0.1) : 2 }));
    return;
  }
  const square = place.shape === "square";
  g.append(square
    ? svgEl("rect", { class: "hit cell", x: x - u / 2, y: y - u / 2, width: u, height: u })
    : svgEl("circle", { class: "hit", cx: x, cy: y, r: u * 0.38 }));
  // A point is a dot; a slot off the board (a place in a hand), a faint ring.
  const slot = place.shape === "slot";
  if (!square) g.append(svgEl("circle", { class: slot ? "spot slot" : "spot", cx: x, cy: y, r: Math.max(3, u * (slot ? 0.3 : 0.1)) }));
  if (!pc) return;
  if (square && pc.player === "none") g.append(svgEl("rect", { class: "token none", x: x - u * 0.4, y: y - u * 0.4, width: u * 0.8, height: u * 0.8 }));
  else g.append(svgEl("circle", { class: `stone ${pc.player}`, cx: x, cy: y, r: u * 0.34 }));
  if (pc.symbol) g.append(svgEl("text", { class: `symbol ${pc.player}`, x, y: y + u * 0.13, "text-anchor": "middle", style: `font-size: ${Math.round(u * 0.36)}px` }, pc.symbol));
}

// A legend under a drawn board: each kind of marked piece on it (a
// stone with a letter), drawn small, with its name.
function pieceLegend(box) {
  const kinds = new Map();
  for (const p of board.drawing.places) {
    const pc = p.piece;
    if (pc && pc.symbol && !kinds.has(`${pc.player}|${pc.symbol}`)) kinds.set(`${pc.player}|${pc.symbol}`, pc);
  }
  if (!kinds.size) return;
  const legend = el("p", { class: "notes pieces" });
  for (const pc of kinds.values()) {
    const svg = svgEl("svg", { width: 22, height: 22, viewBox: "0 0 22 22", "aria-hidden": "true" });
    const g = svgEl("g");
    g.append(svgEl("circle", { class: `disc ${pc.player}`, cx: 11, cy: 11, r: 9.5 }));
    g.append(svgEl("text", { class: `letter ${pc.player}`, x: 11, y: 15, "text-anchor": "middle", style: "font-size: 11px" }, pc.symbol));
    svg.append(g);
    const kind = el("span", { class: "kind" });
    kind.append(svg, ` ${pc.name}`);
    legend.append(kind);
  }
  box.appendChild(legend);
}

// The value tag of a move on square or place `node`.
function tagValue(node, text) {
  if (!board.drawing) { node.appendChild(el("span", { class: "hint", "aria-hidden": "true" }, text)); return; }
  const u = Number(node.dataset.unit), x = Number(node.dataset.x), y = Number(node.dataset.y);
  node.appendChild(svgEl("text", { class: "hint", "aria-hidden": "true", x: x + u * 0.46, y: y + u * 0.44, "text-anchor": "end", style: `font-size: ${Math.round(Math.max(12, u * 0.27))}px` }, text));
}

// Draws a game's drawing as an SVG board in `box`: its lines, then a
// group a place (`data-cell` "0,i", as a text board's squares).
function drawPlaces(box, lastCells) {
  const d = board.drawing;
  const xs = d.places.map((p) => p.x), ys = d.places.map((p) => p.y);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  const span = Math.max(Math.max(...xs) - x0, Math.max(...ys) - y0) + 1;
  const room = Math.min(window.innerWidth, document.body.clientWidth || window.innerWidth) - 48;
  // Neighbours at least 36 px apart (a point to tap at least 27 px wide),
  // at most 96, the board at most 480 px wide unless that makes them closer.
  const u = Math.max(36, Math.min(96, Math.floor(Math.min(room, 480) / span)));
  const w = (Math.max(...xs) - x0 + 1) * u, h = (Math.max(...ys) - y0 + 1) * u;
  const at = (p) => [(p.x - x0 + 0.5) * u, (p.y - y0 + 0.5) * u];
  const svg = svgEl("svg", { class: `board drawn ${info.game}`, width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "group", "aria-label": "the board" });
  for (const [a, b] of d.lines) {
    const [x1, y1] = at(d.places[a]), [x2, y2] = at(d.places[b]);
    svg.append(svgEl("line", { class: "rule", x1, y1, x2, y2 }));
  }
  // Squares first, then points, then the sides between dots on top.
  const layer = { square: 0, point: 1, slot: 1, across: 2, down: 2 };
  const order = [...d.places.keys()].sort((i, j) => layer[d.places[i].shape] - layer[d.places[j].shape] || i - j);
  order.forEach((i) => {
    const p = d.places[i];
    const [x, y] = at(p);
    const g = svgEl("g", { class: "place" });
    g.dataset.cell = `0,${i}`;
    g.dataset.unit = u; g.dataset.x = x; g.dataset.y = y;
    if (lastCells.has(`0,${i}`)) g.dataset.last = "true";
    svg.append(g);
    fillPlace(g);
  });
  box.appendChild(svg);
  return svg;
}

// A move whose board after it is no board (the lion captured: the game
// over): the squares its name gives in the board's own names ("Lc1xb2":
// from c1 to b2), if it names a square with a piece and another.
function fromName(name) {
  if (!(board.files || board.drawing) || !name) return null;
  const cells = new Map();
  board.rows.forEach((row, r) => row.cells.forEach((_, c) => cells.set(cellName(r, c), [r, c])));
  const found = [...name.matchAll(/[a-z][0-9]+/g)].map((m) => cells.get(m[0])).filter((rc) => rc);
  if (found.length !== 2 || EMPTY.has(board.rows[found[0][0]].cells[found[0][1]])) return null;
  return { from: found[0], to: [found[1]] };
}

function cellName(r, c) {
  if (board.drawing) return board.drawing.places[c].name;
  const file = board.files ? board.files[c] : null;
  const rank = board.rows[r].label;
  return file && rank ? `${file}${rank}` : `row ${r + 1}, column ${c + 1}`;
}

function drawBoard(a) {
  const box = $("board");
  box.textContent = "";
  board = boardOf(a);
  geometry = a.moves.map((m, i) => {
    if (!a.after[i]) return null;
    const after = afterBoard(a, i);
    return (after && changed(board, after)) || fromName(a.after[i].written);
  });
  // The squares the last move changed, marked as chess sites mark them.
  const last = at > 0 ? changed(boardOf(line[at - 1].answer), board) : null;
  const lastCells = new Set(last ? [last.from, ...last.to].filter((rc) => rc).map(key) : []);
  const table = board.drawing ? drawPlaces(box, lastCells) : textBoard(box, lastCells);
  if (board.drawing) pieceLegend(box);
  for (const n of board.notes) box.appendChild(el("p", { class: "notes" }, n));
  listen(table);
  paintTargets();
}

// A board given as text, drawn as a table: a square a cell.
function textBoard(box, lastCells) {
  const table = el("table", { class: `board ${info.game}${board.spaced ? "" : " chars"}` });
  const cols = Math.max(...board.rows.map((r) => r.cells.length + (r.label === null ? 0 : 1)));
  const room = Math.min(window.innerWidth, document.body.clientWidth || window.innerWidth) - 48;
  const most = board.spaced || info.game === "cop-thief" ? 48 : 32;
  // At least 24 px a square, a target a finger can take (WCAG 2.5.8).
  const cell = Math.max(24, Math.min(most, Math.floor(room / Math.max(cols, 1))));
  table.style.setProperty("--cell", `${cell}px`);
  if (cell < 40) table.classList.add("small");
  const labelled = board.rows.some((r) => r.label !== null);
  board.rows.forEach((row, r) => {
    const tr = el("tr");
    if (labelled) tr.appendChild(el("td", { class: "label" }, row.label || ""));
    row.cells.forEach((c, col) => {
      const td = el("td");
      fillCell(td, c, r, col);
      td.dataset.cell = `${r},${col}`;
      if (lastCells.has(`${r},${col}`)) td.dataset.last = "true";
      tr.appendChild(td);
    });
    table.appendChild(tr);
  });
  if (board.files) {
    const tr = el("tr");
    if (labelled) tr.appendChild(el("td", { class: "label" }));
    for (const f of board.files) tr.appendChild(el("td", { class: "label" }, f));
    table.appendChild(tr);
  }
  box.appendChild(table);
  return table;
}

// What the board's squares or places do when clicked, pressed and let go.
function listen(table) {
  const box = $("board");
  placing = geometry.some((g) => g && !g.from && g.to.length);
  if (placing && geometry.some((g) => g && g.from)) box.appendChild(el("p", { class: "howto" }, "Click a piece to move it, or a coloured empty square to place a piece from the hand."));
  // Where one piece moves (the cop, the thief), it is picked up already.
  const froms = new Set(geometry.filter((g) => g && g.from).map((g) => key(g.from)));
  sole = froms.size === 1 ? [...froms][0] : null;
  if (sole !== null) {
    selected = resting();
    // A move that changes no square (the cop or the thief staying put) is
    // the piece clicked where it stands.
    const at = sole.split(",").map(Number);
    geometry = geometry.map((g) => (g && !g.from && !g.to.length ? { from: at, to: [at] } : g));
  }
  table.addEventListener("click", (ev) => {
    const td = ev.target.closest("[data-cell]");
    if (editor.on) { if (td && !board.drawing) editor.put(td); return; }
    const picked = justPicked;
    justPicked = null;
    if (td && td.dataset.cell !== picked) clickCell(td.dataset.cell);
  });
  table.addEventListener("keydown", (ev) => {
    const td = ev.target.closest("[data-cell]");
    if (td && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); if (editor.on) editor.put(td); else clickCell(td.dataset.cell); }
  });
  table.addEventListener("pointerdown", (ev) => {
    const td = ev.target.closest("[data-cell].from");
    if (editor.on) return;
    if (!td) return;
    dragging = td.dataset.cell;
    // Pressing a piece picks it up; the click that ends the press must not
    // put it down again.
    justPicked = null;
    if (selected !== dragging) { selected = dragging; justPicked = dragging; paintTargets(); }
  });
  table.addEventListener("pointerup", (ev) => {
    if (!dragging) return;
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const td = under && under.closest("[data-cell]");
    const fromCell = dragging;
    dragging = null;
    if (td && td.dataset.cell !== fromCell) { ev.preventDefault(); dropOn(td.dataset.cell, fromCell); }
  });
}

const key = (rc) => `${rc[0]},${rc[1]}`;
// The moves that leave square `from` (null: those that leave none) and
// fill `cell`.
function movesTo(cell, from) {
  const out = [];
  geometry.forEach((g, i) => {
    if (!g) return;
    const f = g.from ? key(g.from) : null;
    if (f === from && g.to.some((t) => key(t) === cell)) out.push(i);
  });
  return out;
}
const leaves = (cell) => geometry.some((g) => g && g.from && key(g.from) === cell);

function clickCell(cell) {
  if (selected !== null && movesTo(cell, selected).length) return choose(movesTo(cell, selected));
  if (leaves(cell)) { selected = selected === cell && cell !== resting() ? resting() : cell; paintTargets(); return; }
  const placed = selected === null ? movesTo(cell, null) : [];
  if (placed.length) return choose(placed);
  selected = resting();
  paintTargets();
}
function dropOn(cell, from) {
  const ms = movesTo(cell, from);
  if (ms.length) choose(ms);
}

// Plays the move, or asks which when several fill the same square (a
// promotion, pieces dropped from the hand).
function choose(ms) {
  const box = $("choose");
  if (ms.length === 1) { box.hidden = true; playMove(ms[0]); return; }
  const a = current().answer;
  box.textContent = "";
  box.appendChild(el("span", {}, "Which move?"));
  for (const i of ms) {
    const m = a.moves[i];
    const b = el("button", { type: "button", class: m.outcome }, `${a.after[i].written}: ${valueText(m)}`);
    b.addEventListener("click", () => { box.hidden = true; playMove(i); });
    box.appendChild(b);
  }
  const cancel = el("button", { type: "button" }, "Cancel");
  cancel.addEventListener("click", () => { box.hidden = true; refocus("board"); });
  box.appendChild(cancel);
  box.hidden = false;
  box.querySelector("button").focus();
}

// Colours the squares the moves fill by each move's value (the best move
// there where several fill it): the picked-up piece's moves, or with none
// picked up the moves that place a piece. Squares a piece can leave are
// outlined.
function paintTargets() {
  const table = document.querySelector("#board .board");
  if (!table || at < 0) return;
  const a = current().answer;
  for (const td of table.querySelectorAll("[data-cell]")) {
    td.classList.remove("target", "from", "selected", ...OUTCOMES);
    td.removeAttribute("tabindex");
    td.removeAttribute("role");
    const h = td.querySelector(".hint");
    if (h) h.remove();
    if (board.drawing) fillPlace(td);
    else fillCell(td, td.dataset.piece, ...td.dataset.cell.split(",").map(Number));
  }
  const seen = new Set();
  const hiding = hidingValues();
  geometry.forEach((g, i) => {
    if (!g) return;
    if (g.from) {
      const td = table.querySelector(`[data-cell="${key(g.from)}"]`);
      if (!td.classList.contains("from")) { // the piece's first move: named once
        const what = td.dataset.what ?? (td.getAttribute("aria-label") || td.title);
        td.setAttribute("aria-label", `${cellName(...g.from)}: ${what ? `${what}, ` : ""}pick up`);
      }
      td.classList.add("from");
      td.setAttribute("tabindex", "0");
      td.setAttribute("role", "button");
      if (selected === key(g.from)) td.classList.add("selected");
    }
    const mine = g.from ? selected === key(g.from) : selected === null;
    if (!mine) return;
    for (const [j, t] of g.to.entries()) {
      const k = key(t);
      if (seen.has(k)) continue; // the best move there came first
      seen.add(k);
      const m = a.moves[i];
      const td = table.querySelector(`[data-cell="${k}"]`);
      td.classList.remove("light", "dark", "exit", "wall", "mark-x", "mark-o");
      td.classList.add("target");
      if (!hiding) td.classList.add(m.outcome);
      td.style.color = "";
      td.setAttribute("tabindex", "0");
      td.setAttribute("role", "button");
      td.setAttribute("aria-label", `${cellName(...t)}: ${hiding ? "a move" : valueText(m)}`);
      // One value a move, on the middle of the squares it fills.
      if (!hiding && j === Math.floor(g.to.length / 2)) tagValue(td, shortValue(m.outcome, m.remoteness));
      td.onmouseenter = () => hover(i);
      td.onmouseleave = () => hover(null);
    }
  });
}

// Shows move `i` on the board (an arrow from the square it leaves to the
// square it fills) and lights its button; `null` clears.
function hover(i) {
  for (const b of document.querySelectorAll("#moves button.lit")) b.classList.remove("lit");
  const svg = $("arrows");
  svg.textContent = "";
  if (i === null || info.graph) return;
  const b = document.querySelector(`#moves button[data-index="${i}"]`);
  if (b) b.classList.add("lit");
  const g = geometry[i];
  const table = document.querySelector("#board .board");
  if (!g || !table || !g.to.length) return;
  const box = $("boardbox").getBoundingClientRect();
  svg.setAttribute("width", box.width);
  svg.setAttribute("height", box.height);
  const centre = (rc) => {
    const r = table.querySelector(`[data-cell="${key(rc)}"]`).getBoundingClientRect();
    return [r.left - box.left + r.width / 2, r.top - box.top + r.height / 2, r.width];
  };
  const colour = hidingValues() ? "#f2f2f2" : `var(--${current().answer.moves[i].outcome})`;
  svg.appendChild(svgEl("defs")).appendChild(svgEl("marker", { id: "head", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto" }))
    .appendChild(svgEl("path", { d: "M0,0L10,5L0,10z", fill: "#1a1a1a" }));
  const [x2, y2, w] = centre(g.to[Math.floor(g.to.length / 2)]);
  if (g.from && key(g.from) !== key(g.to[0])) {
    const [x1, y1] = centre(g.from);
    for (const [stroke, width] of [["#1a1a1a", w * 0.22], [colour, w * 0.13]]) {
      svg.appendChild(svgEl("line", { class: "arrow", x1, y1, x2, y2, stroke, "stroke-width": width, "stroke-linecap": "round", "marker-end": stroke === "#1a1a1a" ? "url(#head)" : "" }));
    }
  } else {
    svg.appendChild(svgEl("circle", { class: "arrow", cx: x2, cy: y2, r: w * 0.42, fill: "none", stroke: "#1a1a1a", "stroke-width": 3 }));
  }
}

// A graph's position: the vertex and the vertices its moves reach, each
// with its value for the player who moves there ("W3": a win in 3).
function drawNeighbourhood(a) {
  const box = $("board");
  box.textContent = "";
  const shown = a.moves.slice(0, 24);
  const cx = 260, cy = 190, r = 130;
  const svg = svgEl("svg", { id: "neighbourhood", viewBox: "0 0 520 380", role: "img", "aria-label": `${a.position} and the positions its moves reach` });
  svg.appendChild(svgEl("defs")).appendChild(svgEl("marker", { id: "nhead", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" }))
    .appendChild(svgEl("path", { d: "M0,0L10,5L0,10z", fill: "#1a1a1a" }));
  // One place on the ring for each position reached (the position itself
  // too, for its self-loops); parallel moves share it, drawn side by side.
  const slots = [...new Set(shown.map((m) => m.position))];
  const count = new Map();
  const clip = (text) => (text.length > 18 ? `${text.slice(0, 17)}\u2026` : text);
  const halo = { stroke: "#fff", "stroke-width": 4, "paint-order": "stroke", "stroke-linejoin": "round" };
  shown.forEach((m, i) => {
    const slot = slots.indexOf(m.position);
    const t = (2 * Math.PI * slot) / slots.length - Math.PI / 2;
    const ux = Math.cos(t), uy = Math.sin(t);
    const x = cx + r * ux, y = cy + r * uy;
    const g = svgEl("g", { class: "move", tabindex: 0, role: "button", "aria-label": `${m.move}: ${valueText(m)}` });
    const there = flip(m.outcome);
    const k = count.get(m.position) || 0;
    count.set(m.position, k + 1);
    const side = (k % 2 ? 1 : -1) * Math.ceil(k / 2) * 7; // 0, 7, -7, 14, ...
    const anchor = ux > 0.3 ? "start" : ux < -0.3 ? "end" : "middle";
    const dy = uy > 0.3 ? 12 : uy < -0.3 ? -2 : 5;
    if (m.position === a.position) {
      // A loop out of the centre and back, towards its place on the ring.
      const at = (d, w) => [cx + d * Math.cos(t + w), cy + d * Math.sin(t + w)];
      const spread = 0.45 + k * 0.12;
      const [x1, y1] = at(26, -0.4), [x2, y2] = at(95 + k * 10, -spread), [x3, y3] = at(95 + k * 10, spread), [x4, y4] = at(28, 0.4);
      g.appendChild(svgEl("path", { d: `M${x1},${y1} C${x2},${y2} ${x3},${y3} ${x4},${y4}`, fill: "none", stroke: `var(--${m.outcome})`, "stroke-width": 3, "marker-end": "url(#nhead)" }));
      if (k === 0) g.appendChild(svgEl("text", { x: cx + 92 * ux, y: cy + 92 * uy + dy, "text-anchor": anchor, fill: "#1a1a1a", ...halo }, `itself: ${shortValue(m.outcome, m.remoteness)}`));
    } else {
      g.appendChild(svgEl("line", { x1: cx + 26 * ux - side * uy, y1: cy + 26 * uy + side * ux, x2: x - 20 * ux - side * uy, y2: y - 20 * uy + side * ux, stroke: `var(--${m.outcome})`, "stroke-width": 3, "marker-end": "url(#nhead)" }));
      if (k === 0) {
        g.append(
          svgEl("circle", { cx: x, cy: y, r: 18, fill: `var(--${there})`, stroke: "#1a1a1a" }),
          svgEl("text", { x, y: y + 4, "text-anchor": "middle", fill: ON[there], "font-weight": 700 }, shortValue(there, m.remoteness === null ? null : m.remoteness - 1)),
        );
        g.appendChild(svgEl("text", { x: x + 24 * ux, y: y + 24 * uy + dy, "text-anchor": anchor, fill: "#1a1a1a" }, clip(m.position)));
      }
    }
    g.appendChild(svgEl("title", {}, `${m.move} \u2192 ${m.position}: ${valueText(m)} for the mover`));
    g.addEventListener("click", () => playMove(i));
    g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); playMove(i); } });
    svg.appendChild(g);
  });
  // The centre's name goes where no move is drawn: below it, or above it
  // when a move leaves straight down.
  const down = slots.some((_, j) => Math.abs(Math.sin((2 * Math.PI * j) / slots.length - Math.PI / 2) - 1) < 0.15);
  const c = svgEl("g", { class: "here" });
  c.append(
    svgEl("circle", { cx, cy, r: 24, fill: `var(--${a.outcome})`, stroke: "#000", "stroke-width": 3 }),
    svgEl("text", { x: cx, y: cy + 4, "text-anchor": "middle", fill: ON[a.outcome], "font-weight": 700 }, shortValue(a.outcome, a.remoteness)),
    svgEl("text", { x: cx + (down ? 30 : 0), y: cy + 42, "text-anchor": down ? "start" : "middle", fill: "#1a1a1a", "font-weight": 700, ...halo }, clip(a.position)),
  );
  svg.appendChild(c);
  box.appendChild(svg);
  if (a.moves.length > shown.length) box.appendChild(el("p", {}, `${a.moves.length - shown.length} more moves are in the list below.`));
}

// ---- setting up a chess position ----------------------------------------

// The board as an editor: a piece picked from the palette is put on the
// squares clicked (taken off by a second click); "Play from here" writes
// the position in FEN and opens it (the game says what is wrong with it).
const editor = {
  on: false,
  piece: "K",
  start() {
    this.on = true;
    $("edit").setAttribute("aria-pressed", "true");
    $("editor").hidden = false;
    $("edit-side").value = at >= 0 && current().answer.to_move === "black" ? "b" : "w";
    // No position yet (a chess ending has no start): an empty board.
    if (at < 0) {
      const rows = [8, 7, 6, 5, 4, 3, 2, 1].map((r) => `${r} ${". ".repeat(8).trim()}`);
      drawBoard({ board: `${rows.join("\n")}\n  a b c d e f g h\n`, moves: [], after: [] });
    }
    const box = $("palette");
    box.textContent = "";
    for (const c of "KQRBNPkqrbnp") {
      const name = `${c === c.toUpperCase() ? "white" : "black"} ${{ k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" }[c.toLowerCase()]}`;
      const b = el("button", { type: "button", class: "piece", "aria-label": name, title: name, "aria-pressed": String(c === this.piece) }, CHESS[c]);
      b.dataset.piece = c;
      b.addEventListener("click", () => {
        this.piece = c;
        for (const o of box.children) o.setAttribute("aria-pressed", String(o === b));
      });
      box.appendChild(b);
    }
    // The board without moves: every square a place to put a piece.
    selected = null;
    geometry = [];
    paintTargets();
    for (const td of document.querySelectorAll("#board td[data-cell]")) {
      td.setAttribute("tabindex", "0");
      td.setAttribute("role", "button");
      td.classList.add("editing");
    }
  },
  put(td) {
    const c = td.dataset.piece === this.piece ? "." : this.piece;
    const [r, col] = td.dataset.cell.split(",").map(Number);
    board.rows[r].cells[col] = c;
    fillCell(td, c, r, col);
    td.classList.add("editing");
    td.setAttribute("aria-label", `${cellName(r, col)}: ${td.getAttribute("aria-label") || "empty"}`);
  },
  clear() {
    for (const td of document.querySelectorAll("#board td[data-cell]")) {
      if (td.dataset.piece !== ".") { this.piece = td.dataset.piece; this.put(td); }
    }
  },
  fen() {
    const rows = board.rows.map((row) => row.cells.map((c) => (EMPTY.has(c) ? "1" : c)).join("").replace(/1+/g, (ones) => String(ones.length)));
    return `${rows.join("/")} ${$("edit-side").value} - - 0 1`;
  },
  stop() {
    this.on = false;
    $("edit").setAttribute("aria-pressed", "false");
    $("editor").hidden = true;
  },
};

// ---- watching the solve -------------------------------------------------

// The solve replayed: events grouped into the steps a person follows (the
// set-up at once; a move read backwards together with what it decides; the
// draws at once), and the state after any step.
class Replay {
  constructor(trace) {
    this.trace = trace;
    const ev = trace.events;
    const starts = [];
    let ties = 0; // terminal ties
    for (let i = 0; i < ev.length;) {
      const e = ev[i];
      starts.push(i);
      if (e.event === "start") {
        while (i < ev.length && ev[i].event === "start") { if (ev[i].outcome === "tie") ties++; i++; }
      } else if (e.event === "tie_phase") {
        i++;
        if (ties === 0) starts.pop(); // nothing joins the queue: no step of its own
      } else if (e.event === "edge") {
        i++;
        if (i < ev.length && ev[i].event === "decided" && ev[i].position === e.from) i++;
      } else if (e.event === "draw") {
        while (i < ev.length && ev[i].event === "draw") i++;
      } else i++;
    }
    this.starts = starts;
    this.terminalTies = ties;
    this.steps = starts.length;
    this.reset();
  }

  reset() {
    const n = this.trace.labels.length;
    this.status = new Array(n).fill("open");
    this.left = new Int32Array(n).fill(-1);
    this.rem = new Int32Array(n).fill(-1);
    this.queued = new Uint8Array(n);
    this.queue = [];
    this.head = 0;
    this.ties = [];
    this.counts = { win: 0, lose: 0, tie: 0, draw: 0 };
    this.done = 0; // steps applied
    this.event = 0; // events applied
    this.current = null;
    this.lit = null;
  }

  apply(e) {
    switch (e.event) {
      case "start":
        if (e.outcome) {
          this.status[e.position] = e.outcome;
          this.counts[e.outcome]++;
          this.rem[e.position] = e.outcome === "draw" ? -1 : 0;
          if (e.outcome === "win" || e.outcome === "lose") this.push(e.position);
          if (e.outcome === "tie") this.ties.push(e.position);
        } else this.left[e.position] = e.moves;
        break;
      case "tie_phase":
        for (const v of this.ties) this.push(v);
        this.ties = [];
        break;
      case "dequeue":
        this.head++;
        this.queued[e.position] = 0;
        this.current = e.position;
        break;
      case "edge":
        this.lit = [e.from, e.to];
        if (this.status[e.from] === "open") this.left[e.from] = e.left;
        break;
      case "decided":
        this.status[e.position] = e.outcome;
        this.counts[e.outcome]++;
        this.rem[e.position] = e.remoteness;
        this.push(e.position);
        break;
      case "draw":
        this.status[e.position] = "draw";
        this.counts.draw++;
        break;
    }
  }

  push(v) { this.queue.push(v); this.queued[v] = 1; }

  // The state after the first `k` steps.
  seek(k) {
    k = Math.max(0, Math.min(this.steps, k));
    if (k < this.done) this.reset();
    const ev = this.trace.events;
    const end = k < this.steps ? this.starts[k] : ev.length;
    while (this.event < end) this.apply(ev[this.event++]);
    this.done = k;
    if (k === this.steps || k === 0) { this.lit = null; this.current = null; }
    else {
      const first = ev[this.starts[k - 1]];
      if (first.event !== "edge") this.lit = null;
      if (first.event === "start" || first.event === "draw" || first.event === "tie_phase") this.current = null;
    }
  }

  // The events of step `k` (counted from 1).
  events(k) {
    const ev = this.trace.events;
    return ev.slice(this.starts[k - 1], k < this.steps ? this.starts[k] : ev.length);
  }

  // Whether step `k` decides a position.
  decides(k) {
    return this.events(k).some((e) => e.event === "decided" || e.event === "draw" || (e.event === "start" && e.outcome));
  }

  // The positions step `k` decided (counted from 1): a set-up's ends, a
  // move's position, the draws.
  decided(k) {
    const out = [];
    if (k < 1 || k > this.steps) return out;
    for (const e of this.events(k)) {
      if (e.event === "decided" || e.event === "draw" || (e.event === "start" && e.outcome)) out.push(e.position);
    }
    return out;
  }

  // What step `k` did, in plain words (the state is the one after it).
  describe(k) {
    const name = (v) => this.trace.labels[v];
    const owners = this.trace.owners;
    if (k === 0) return "Nothing yet: press Step, Play or Next decision.";
    const ev = this.events(k);
    const e = ev[0];
    const plural = (n, one, many) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
    let text;
    switch (e.event) {
      case "start": {
        const term = { win: 0, lose: 0, tie: 0 };
        let open = 0;
        for (const s of ev) if (s.outcome) term[s.outcome]++; else open++;
        const parts = [];
        if (term.lose) parts.push(`${plural(term.lose, "position", "positions")} lost for the player to move`);
        if (term.win) parts.push(`${plural(term.win, "position", "positions")} won for the player to move`);
        if (term.tie) parts.push(`${plural(term.tie, "tie", "ties")}`);
        text = `The solver starts at the end of the game: where the game is over${this.ends ? ` (${this.ends})` : ""}, the value needs no looking ahead. ` +
          `That gives ${parts.join(", ") || "no position"}, each over in 0 moves; the wins and losses wait in the queue. ` +
          `Each of the other ${plural(open, "position", "positions")} gets a counter: how many moves it has that are not yet known to lose.`;
        break;
      }
      case "tie_phase":
        text = `No more wins or losses can follow. The ${plural(this.terminalTies, "tied end", "tied ends")} of the game now join the queue, and their ties spread back the same way.`;
        break;
      case "dequeue":
        text = `Next in the queue: ${name(e.position)} (${valueText({ outcome: this.status[e.position], remoteness: this.rem[e.position] })}). The solver looks at each move that leads into it.`;
        break;
      case "edge": {
        const decided = ev[1] && ev[1].event === "decided" ? ev[1] : null;
        const kept = owners && owners[e.from] === owners[e.to];
        const who = kept ? "the same player, who moves again" : "the other player";
        text = `The move ${name(e.from)} \u2192 ${name(e.to)}: `;
        if (!decided) {
          text += this.status[e.from] !== "open"
            ? `${name(e.from)} has its value already.`
            : `moving there loses, as ${name(e.to)} is a ${kept ? "loss" : "win"} for ${who}. ${name(e.from)} has ${e.left} move${e.left === 1 ? "" : "s"} left not known to lose.`;
        } else if (decided.outcome === "win") {
          text += `moving there wins, as ${name(e.to)} is a ${kept ? "win" : "loss"} for ${who}. So ${name(e.from)} is a win in ${decided.remoteness}, and joins the queue.`;
        } else if (decided.outcome === "lose") {
          text += `moving there loses too, and it was ${name(e.from)}'s last move not known to lose. Every move from ${name(e.from)} loses, so it is a loss in ${decided.remoteness}, and joins the queue.`;
        } else {
          text += `${name(e.to)} is a tie and ${name(e.from)} has no winning move, so ${name(e.from)} is a tie in ${decided.remoteness}, and joins the queue.`;
        }
        break;
      }
      case "decided":
        text = `${name(e.position)} is a ${NAMES[e.outcome]} in ${e.remoteness}, and joins the queue.`;
        break;
      case "draw":
        text = `The queue is empty: the wave has reached every position it can. The ${ev.length.toLocaleString("en")} position${ev.length === 1 ? "" : "s"} never decided ${ev.length === 1 ? "is a draw" : "are draws"}: neither player can force an end from there.`;
        break;
      default:
        text = "";
    }
    if (k === this.steps) text += " The end: every position has its value.";
    return text;
  }
}

let replay = null;
let timer = null;
const SPEEDS = [1, 2, 4, 8, 16, 32, 64, 256];
let view = null; // draws the state: the graph, its neighbourhood, or the lesson board

function go(k) {
  replay.seek(k);
  view();
  $("explain").textContent = replay.describe(replay.done);
  const c = replay.counts;
  const open = replay.trace.labels.length - c.win - c.lose - c.tie - c.draw;
  const n = (x) => x.toLocaleString("en");
  $("counts").textContent = `Decided: ${n(c.win)} wins, ${n(c.lose)} losses, ${n(c.tie)} ties, ${n(c.draw)} draws; ${n(open)} undecided.`;
  $("stepinfo").textContent = `step ${n(replay.done)} of ${n(replay.steps)}`;
  $("stepinfo").dataset.step = replay.done;
  $("scrub").value = replay.done;
  $("scrub").setAttribute("aria-valuetext", `step ${replay.done} of ${replay.steps}`);
  drawChips();
}

function drawChips() {
  const box = $("chips");
  box.textContent = "";
  const q = replay.queue.slice(replay.head, replay.head + (window.innerWidth < 600 ? 8 : 24));
  if (!q.length) box.appendChild(el("span", {}, "empty"));
  for (const v of q) {
    const s = replay.status[v];
    // On the lesson a chip shows its position's board; elsewhere it is a label.
    const chip = el(lesson ? "button" : "span", { class: `chip ${s}`, title: `${replay.trace.labels[v]}: ${NAMES[s]} in ${replay.rem[v]}` },
      `${chipName(v)} ${shortValue(s, replay.rem[v])}`);
    chip.dataset.vertex = v;
    if (lesson) {
      chip.type = "button";
      if (lesson.inSlice(v)) chip.classList.add("here");
      chip.addEventListener("click", () => { $("follow").checked = false; lesson.focus(v); view(); drawChips(); });
    }
    box.appendChild(chip);
  }
  const more = replay.queue.length - replay.head - q.length;
  if (more > 0) box.appendChild(el("span", {}, `and ${more.toLocaleString("en")} more`));
}

function chipName(v) {
  const label = replay.trace.labels[v];
  if (lesson) {
    const p = lesson.parse(label);
    if (p) return `P${p.cop} T${p.thief} ${p.side === "cop" ? "cop" : "thief"}`;
  }
  return label.length > 12 ? `${label.slice(0, 11)}\u2026` : label;
}

// Playing: the steps due by the clock are applied at each frame the
// browser draws, so that "256 steps a second" is 256 steps a second
// however long a frame takes to draw.
let playing = null; // { from, since }: the step and the time play (re)started

function stop() {
  if (timer) cancelAnimationFrame(timer);
  timer = null;
  playing = null;
  $("run").textContent = "Play";
}

function setupControls() {
  $("controls").hidden = false;
  $("state").hidden = false;
  $("first").onclick = () => { stop(); go(0); };
  $("back").onclick = () => { stop(); go(replay.done - 1); };
  $("step").onclick = () => { stop(); go(replay.done + 1); };
  $("last").onclick = () => { stop(); go(replay.steps); };
  $("next").onclick = () => {
    stop();
    let k = replay.done + 1;
    while (k < replay.steps && !replay.decides(k)) k++;
    go(k);
  };
  const scrub = $("scrub");
  scrub.max = replay.steps;
  scrub.oninput = () => { stop(); go(Number(scrub.value)); };
  const speed = () => SPEEDS[Number($("speed").value)];
  const frame = (now) => {
    const due = playing.from + Math.floor(((now - playing.since) * speed()) / 1000);
    if (due > replay.done) go(Math.min(due, replay.steps));
    if (replay.done >= replay.steps) { stop(); return; }
    timer = requestAnimationFrame(frame);
  };
  $("speed").oninput = () => {
    $("speed-text").textContent = `${speed()} step${speed() === 1 ? "" : "s"} a second`;
    if (playing) playing = { from: replay.done, since: performance.now() };
  };
  $("speed").oninput();
  $("run").onclick = () => {
    if (timer) { stop(); return; }
    if (replay.done >= replay.steps) go(0);
    $("run").textContent = "Pause";
    playing = { from: replay.done, since: performance.now() };
    timer = requestAnimationFrame(frame);
  };
}

// -- the whole graph (up to WHOLE positions), or around each step beyond.

const WHOLE = 60; // beyond, the drawing is a tangle: a step at a time
let layout = [];

function forceLayout(n, edges) {
  // Fruchterman and Reingold's spring layout from a circle, a fixed number
  // of rounds (the same picture every time), with a pull to the centre so
  // that separate parts stay in view; kept inside the frame.
  const pos = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    pos.push([320 + 200 * Math.cos(t), 320 + 200 * Math.sin(t)]);
  }
  const k = Math.sqrt((480 * 480) / Math.max(n, 1));
  const rounds = 300;
  for (let round = 0; round < rounds; round++) {
    const f = pos.map(() => [0, 0]);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dx = pos[i][0] - pos[j][0], dy = pos[i][1] - pos[j][1];
        const d = Math.max(Math.hypot(dx, dy), 0.5);
        const push = (k * k) / d / d;
        f[i][0] += dx * push; f[i][1] += dy * push;
        f[j][0] -= dx * push; f[j][1] -= dy * push;
      }
    }
    for (const [a, b] of edges) {
      if (a === b) continue;
      const dx = pos[a][0] - pos[b][0], dy = pos[a][1] - pos[b][1];
      const d = Math.max(Math.hypot(dx, dy), 0.5);
      const pull = d / k;
      f[a][0] -= dx * pull; f[a][1] -= dy * pull;
      f[b][0] += dx * pull; f[b][1] += dy * pull;
    }
    const heat = 40 * (1 - round / rounds) + 1;
    for (let i = 0; i < n; i++) {
      f[i][0] += (320 - pos[i][0]) * 0.05 * k / 20;
      f[i][1] += (320 - pos[i][1]) * 0.05 * k / 20;
      const m = Math.max(Math.hypot(f[i][0], f[i][1]), 1e-9);
      pos[i][0] = Math.min(590, Math.max(50, pos[i][0] + (f[i][0] / m) * Math.min(m, heat)));
      pos[i][1] = Math.min(580, Math.max(50, pos[i][1] + (f[i][1] / m) * Math.min(m, heat)));
    }
  }
  return pos;
}

// An edge from p to q between circles of radius r: straight, or bent by
// `bend` (two-way and parallel moves apart); a loop for p = q.
function edgePath(p, q, r, bend, loop) {
  if (loop !== undefined) {
    const [x, y] = p, s = 1 + 0.5 * loop;
    return `M${x - 6},${y - r + 1} C${x - 26 * s},${y - 48 * s} ${x + 26 * s},${y - 48 * s} ${x + 6},${y - r - 1}`;
  }
  const [x1, y1] = p, [x2, y2] = q;
  const d = Math.max(Math.hypot(x2 - x1, y2 - y1), 1e-6);
  const ux = (x2 - x1) / d, uy = (y2 - y1) / d;
  const mx = (x1 + x2) / 2 - uy * bend, my = (y1 + y2) / 2 + ux * bend;
  // Start and end on the circles, aimed at the control point.
  const at = (x, y, tx, ty) => {
    const e = Math.max(Math.hypot(tx - x, ty - y), 1e-6);
    return [x + ((tx - x) / e) * r, y + ((ty - y) / e) * r];
  };
  const [sx, sy] = at(x1, y1, mx, my), [ex, ey] = at(x2, y2, mx, my);
  return `M${sx},${sy} Q${mx},${my} ${ex},${ey}`;
}

function nodeText(v) {
  const s = replay.status[v];
  if (s === "open") return replay.left[v] >= 0 ? `${replay.left[v]} left` : "";
  return replay.rem[v] >= 0 ? `${NAMES[s]} in ${replay.rem[v]}` : NAMES[s];
}

// Draws vertices `vs` at `pos` with the moves among them into `svg`.
function drawGraph(svg, vs, pos, edges, r) {
  svg.textContent = "";
  svg.appendChild(svgEl("defs")).appendChild(svgEl("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto", markerUnits: "userSpaceOnUse" }))
    .appendChild(svgEl("path", { d: "M0,0L10,5L0,10z", fill: "#4d4d4d" }));
  const pairs = new Map(); // "a b" -> moves seen so far
  const has = new Set(edges.map(([a, b]) => `${a} ${b}`));
  for (const [a, b] of edges) {
    const id = `${a} ${b}`;
    const k = pairs.get(id) || 0;
    pairs.set(id, k + 1);
    let d;
    if (a === b) d = edgePath(pos.get(a), null, r, 0, k);
    else {
      const twoWay = has.has(`${b} ${a}`);
      d = edgePath(pos.get(a), pos.get(b), r, (twoWay ? 14 : 0) + k * 14, undefined);
    }
    svg.appendChild(svgEl("path", { class: "edge", d, fill: "none", stroke: "#767676", "stroke-width": 1.5, "marker-end": "url(#arrow)", "data-from": a, "data-to": b }));
  }
  for (const v of vs) {
    const [x, y] = pos.get(v);
    const label = replay.trace.labels[v];
    const g = svgEl("g", { class: "node", "data-vertex": v });
    g.append(
      svgEl("title", {}, label),
      svgEl("circle", { cx: x, cy: y, r, stroke: "#1a1a1a" }),
      svgEl("text", { class: "name", x, y: y + 4, "text-anchor": "middle", "font-weight": 700 }, label.length > 4 ? String(v) : label),
      svgEl("text", { class: "sub", x, y: y + r + 12, "text-anchor": "middle", fill: "#1a1a1a", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, ""),
    );
    svg.appendChild(g);
  }
}

function paintGraph(svg) {
  for (const g of svg.querySelectorAll("g.node")) {
    const v = Number(g.dataset.vertex);
    const s = replay.status[v];
    const c = g.querySelector("circle");
    c.setAttribute("fill", `var(--${s})`);
    c.setAttribute("stroke-dasharray", s === "open" ? "3 2" : "");
    g.querySelector("text.name").setAttribute("fill", ON[s]);
    g.dataset.status = s;
    g.classList.toggle("current", replay.current === v);
    g.querySelector("text.sub").textContent = nodeText(v);
  }
  for (const p of svg.querySelectorAll("path.edge")) {
    const lit = replay.lit && Number(p.dataset.from) === replay.lit[0] && Number(p.dataset.to) === replay.lit[1];
    p.classList.toggle("lit", Boolean(lit));
  }
}

function wholeGraph() {
  const t = replay.trace, n = t.labels.length;
  layout = forceLayout(n, t.edges);
  const svg = $("graph");
  // Laid out in 640 units, drawn at the width shown (a phone's narrower):
  // a unit a pixel, so that the circles and the text keep their size.
  const s = Math.min(1, Math.max(300, $("watch").clientWidth || 640) / 640);
  const pos = new Map(layout.map(([x, y], v) => [v, [x * s, y * s]]));
  svg.setAttribute("viewBox", `0 0 ${Math.round(640 * s)} ${Math.round(630 * s)}`);
  drawGraph(svg, [...Array(n).keys()], pos, t.edges, n > 40 ? 11 : 15);
  svg.removeAttribute("hidden");
  return () => paintGraph(svg);
}

// Big graphs: the position the step is about, the positions that move to
// it (left) and those it moves to (right).
function neighbourhoodGraph() {
  const t = replay.trace, n = t.labels.length;
  const into = Array.from({ length: n }, () => []), out = Array.from({ length: n }, () => []);
  for (const [a, b] of t.edges) { out[a].push(b); into[b].push(a); }
  const svg = $("graph");
  svg.setAttribute("viewBox", "0 0 480 430");
  svg.classList.add("around");
  svg.removeAttribute("hidden");
  let shownFor = null;
  return () => {
    const focus = replay.lit ? replay.lit[1] : replay.current !== null ? replay.current : 0;
    if (focus !== shownFor) {
      shownFor = focus;
      const pos = new Map([[focus, [240, 210]]]);
      const place = (list, x) => {
        const vs = [...new Set(list)].filter((v) => !pos.has(v)).slice(0, 10);
        vs.forEach((v, i) => pos.set(v, [x, 50 + ((i + 0.5) * 340) / vs.length]));
      };
      place(into[focus], 50);
      place(out[focus], 430);
      const vs = [...pos.keys()];
      const edges = t.edges.filter(([a, b]) => pos.has(a) && pos.has(b) && (a === focus || b === focus));
      drawGraph(svg, vs, pos, edges, 15);
      // Names above the vertices, kept inside the frame.
      for (const g of svg.querySelectorAll("g.node")) {
        const v = Number(g.dataset.vertex);
        const [x, y] = pos.get(v);
        const name = t.labels[v];
        if (name.length <= 4) continue;
        const anchor = x < 200 ? "start" : x > 280 ? "end" : "middle";
        const at = anchor === "start" ? x - 16 : anchor === "end" ? x + 16 : x;
        g.appendChild(svgEl("text", { x: at, y: y - 20, "text-anchor": anchor, fill: "#1a1a1a" }, name.length > 18 ? `${name.slice(0, 17)}\u2026` : name));
      }
      svg.appendChild(svgEl("text", { x: 10, y: 422, fill: "#1a1a1a" }, `moves into it (${into[focus].length})`));
      svg.appendChild(svgEl("text", { x: 470, y: 422, "text-anchor": "end", fill: "#1a1a1a" }, `its moves (${out[focus].length})`));
    }
    paintGraph(svg);
  };
}

// -- the cop and the thief on their board: a square a position.

let lesson = null;

class Lesson {
  constructor(trace, boardText, startLabel) {
    this.trace = trace;
    this.board = parseBoard(boardText);
    this.index = new Map();
    trace.labels.forEach((l, v) => this.index.set(l, v));
    const s = this.parse(startLabel) || this.parse(trace.labels[0]);
    this.cop = s.cop;
    this.side = s.side;
  }

  // "cop 1,2 thief 3,4 cop" as its parts.
  parse(label) {
    const m = /^cop (\d+,\d+) thief (\d+,\d+) (cop|thief)$/.exec(label);
    return m ? { cop: m[1], thief: m[2], side: m[3] } : null;
  }

  at(cop, thief, side) {
    return this.index.get(`cop ${cop} thief ${thief} ${side}`);
  }

  inSlice(v) {
    const p = this.parse(this.trace.labels[v]);
    return Boolean(p) && p.cop === this.cop && p.side === this.side;
  }

  focus(v) {
    const p = this.parse(this.trace.labels[v]);
    if (p) { this.cop = p.cop; this.side = p.side; this.turnButtons(); }
  }

  turnButtons() {
    $("turn-cop").setAttribute("aria-pressed", String(this.side === "cop"));
    $("turn-thief").setAttribute("aria-pressed", String(this.side === "thief"));
  }

  draw() {
    const box = $("lesson");
    box.textContent = "";
    const cols = Math.max(...this.board.rows.map((r) => r.cells.length));
    const room = Math.min(window.innerWidth, document.body.clientWidth || window.innerWidth) - 48;
    const table = el("table", { class: "board cop-thief lesson" });
    table.style.setProperty("--cell", `${Math.max(24, Math.min(52, Math.floor(room / cols)))}px`);
    this.board.rows.forEach((row, r) => {
      const tr = el("tr");
      row.cells.forEach((c, col) => {
        const td = el("td");
        const cell = `${r + 1},${col + 1}`;
        if (c === "*") td.className = "wall";
        else {
          td.className = "pos";
          td.dataset.cell = cell;
          if (c === "E") td.classList.add("exitsq");
          td.setAttribute("tabindex", "0");
          td.setAttribute("role", "button");
        }
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    table.addEventListener("click", (ev) => {
      const td = ev.target.closest("td.pos");
      if (!td) return;
      this.cop = td.dataset.cell;
      $("follow").checked = false;
      view();
      drawChips();
    });
    table.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      const td = ev.target.closest("td.pos");
      if (td) { ev.preventDefault(); td.click(); }
    });
    box.appendChild(table);
    box.appendChild(el("p", { id: "lesson-caption" }));
    this.table = table;
  }

  paint() {
    if ($("follow").checked) {
      // The position the step is about; after the draws, where they are
      // (unless the board shows some already).
      const v = replay.lit ? replay.lit[0] : replay.current;
      if (v !== null && v !== undefined) this.focus(v);
      else {
        const decided = replay.decided(replay.done);
        if (decided.length && !decided.some((d) => this.inSlice(d))) this.focus(decided[0]);
      }
    }
    const lit = replay.lit || [];
    for (const td of this.table.querySelectorAll("td.pos")) {
      const thief = td.dataset.cell;
      const v = this.at(this.cop, thief, this.side);
      td.classList.remove("win", "lose", "tie", "draw", "open", "current", "lit", "queued", "copsq");
      td.textContent = "";
      td.removeAttribute("data-status");
      if (thief === this.cop) {
        td.classList.add("copsq");
        td.appendChild(el("span", { class: "copmark" }, "P"));
      }
      if (v === undefined) { td.title = "no position"; continue; }
      const s = replay.status[v];
      td.classList.add(s);
      td.dataset.status = s;
      td.dataset.vertex = v;
      const text = s === "open" ? (replay.left[v] >= 0 ? String(replay.left[v]) : "") : shortValue(s, replay.rem[v] >= 0 ? replay.rem[v] : null);
      td.appendChild(document.createTextNode(text));
      td.title = `${this.trace.labels[v]}: ${s === "open" ? `undecided, ${replay.left[v]} moves not yet known to lose` : nodeText(v)}`;
      td.setAttribute("aria-label", td.title);
      if (replay.current === v) td.classList.add("current");
      if (lit.includes(v)) td.classList.add("lit");
      if (replay.queued[v]) td.classList.add("queued");
    }
    const mover = this.side === "cop" ? "the cop" : "the thief";
    $("lesson-caption").textContent = `The cop on ${this.cop}, ${mover} to move. Each square is the thief there, coloured by the value for ${mover}; ` +
      "on an undecided square, the number of moves not yet known to lose; a dot: waiting in the queue.";
  }
}

async function watch() {
  const trace = await api("/api/trace");
  replay = new Replay(trace);
  $("load").hidden = true;
  if (info.game === "cop-thief") {
    const startLabel = start !== null ? start : trace.labels[0];
    const a = await fetchAnswer(startLabel);
    lesson = new Lesson(trace, a.board, startLabel);
    replay.ends = "the thief caught on the cop's square, or escaped on an exit";
    lesson.draw();
    $("lesson-controls").hidden = false;
    $("turn-cop").onclick = () => { $("follow").checked = false; lesson.side = "cop"; lesson.turnButtons(); view(); drawChips(); };
    $("turn-thief").onclick = () => { $("follow").checked = false; lesson.side = "thief"; lesson.turnButtons(); view(); drawChips(); };
    $("follow").onchange = () => { view(); drawChips(); };
    lesson.turnButtons();
    view = () => lesson.paint();
    $("watch-title").textContent = "Watch the algorithm on the board";
  } else if (trace.labels.length <= WHOLE) {
    view = wholeGraph();
  } else {
    view = neighbourhoodGraph();
    $("untraced").hidden = false;
    $("untraced").textContent = `${trace.labels.length} positions are too many to draw at once: each step shows the position it is about, the positions that move to it (left) and those it moves to (right).`;
  }
  legend($("watch-legend"), ["open", "win", "lose", "tie", "draw"]);
  setupControls();
  go(0);
}

// ---- start ---------------------------------------------------------------

function decodeHash() {
  try {
    return location.hash ? decodeURIComponent(location.hash.slice(1)) : null;
  } catch {
    return undefined;
  }
}

// What a page without a position has nothing to show in.
const GAME_PARTS = ["moves-title", "chart-title", "legend"];

function noPosition() {
  $("status").textContent = "No position yet: type one above and press Go.";
  for (const id of ["undo", "redo", "best", "restart"]) $(id).disabled = true;
  for (const id of GAME_PARTS) $(id).hidden = true;
  const hint = $("hint");
  hint.textContent = "";
  if (info.example) {
    hint.append(`${info.name} has no start position. Positions are written in its notation${info.game === "chess" ? " (FEN)" : ""}, for example `);
    const b = el("button", { type: "button", id: "example" }, info.example);
    b.addEventListener("click", () => restart(info.example));
    hint.append(b, ".");
  } else {
    hint.append(`${info.name} has no start position: type one in its notation.`);
  }
  hint.hidden = false;
}

function keys(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const t = ev.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
  if (at < 0) return;
  // The game's keys are the play section's: the animation's buttons keep
  // theirs, and Home and End scroll the page unless the game has the focus.
  if (t.closest && t.closest("#watch")) return;
  if ((ev.key === "Home" || ev.key === "End") && !(t.closest && t.closest("#play"))) return;
  const acts = {
    ArrowLeft: undo,
    ArrowRight: redo,
    Home: () => goTo(0),
    End: () => goTo(line.length - 1),
    b: () => { if (!ev.repeat && current().answer.moves.length) playMove(0); },
    Escape: () => {
      const kind = focusKind();
      selected = resting();
      $("choose").hidden = true;
      paintTargets();
      refocus(kind);
    },
  };
  const act = acts[ev.key];
  if (act) { ev.preventDefault(); act(); }
}

async function main() {
  info = await api("/api/info");
  document.title = `${info.name} \u2014 retrograde`;
  $("title").textContent = info.name;
  const solved = `${info.positions.toLocaleString("en")} ${info.positions === 1 ? "position" : "positions"} solved` +
    (info.tiers ? `, in ${info.tiers.toLocaleString("en")} ${info.tiers === 1 ? "tier" : "tiers"}` : "");
  $("subtitle").textContent = `${solved}. Play on the board or with the buttons; colours and letters (W win, L loss, T tie, D draw, with the plies left) are values for the player who moves.`;
  legend($("legend"), OUTCOMES);
  $("keys").textContent = info.graph
    ? "Keys: \u2190 undo, \u2192 redo, Home start, End last, b best move."
    : "Keys: \u2190 undo, \u2192 redo, Home start, End last, b best move, Esc puts a picked-up piece back.";
  const asked = decodeHash();
  if (asked === undefined) $("error").textContent = "The address's position is not percent-encoded text: opening the start.";
  start = info.start !== null ? info.start : (info.graph ? "0" : null);
  $("goto").addEventListener("submit", (ev) => { ev.preventDefault(); restart($("notation").value.trim()); });
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("best").onclick = () => { if (at >= 0 && current().answer.moves.length) playMove(0); };
  // The computer's side and level: it moves at once if it is its turn.
  $("computer").onchange = () => { computer.side = $("computer").value; computerTurn(); };
  $("level").onchange = () => { computer.level = $("level").value; };
  $("hide-values").onchange = () => { if (at >= 0) show("none"); };
  // A graph's drawing is its values, and has no board to turn.
  $("view").hidden = info.graph;
  // Chess: a position set up on the board, not typed.
  $("setup").hidden = info.game !== "chess";
  const leave = () => { editor.stop(); if (at >= 0) show("none"); else $("board").textContent = ""; };
  $("edit").onclick = () => { if (editor.on) leave(); else editor.start(); };
  $("edit-cancel").onclick = leave;
  $("edit-clear").onclick = () => editor.clear();
  $("edit-done").onclick = async () => {
    const fen = editor.fen();
    editor.stop();
    if (!(await restart(fen))) {
      const why = $("error").textContent;
      leave();
      $("error").textContent = why || `${fen}: not a position`;
    }
  };
  $("flip").onclick = () => {
    const on = $("flip").getAttribute("aria-pressed") !== "true";
    $("flip").setAttribute("aria-pressed", String(on));
    document.body.classList.toggle("flipped", on);
    hover(null);
  };
  // The game's start, or where this game began.
  $("restart").onclick = () => { if (start !== null) restart(start); else goTo(0); };
  $("copy").onclick = async () => {
    const text = $("notation").value;
    try { await navigator.clipboard.writeText(text); $("copied").textContent = "copied"; }
    catch { $("notation").select(); $("copied").textContent = "selected: press Ctrl-C"; }
  };
  document.addEventListener("keydown", keys);
  // The second click of a double click on what plays moves is no second
  // move (the first has drawn new buttons and squares under the pointer);
  // a second click a person meant (a recapture on the square just taken,
  // a quarter of a second or more after the first) is.
  let lastClick = -Infinity;
  document.addEventListener("click", (ev) => {
    const now = performance.now(), quick = now - lastClick < 250;
    lastClick = now;
    if (ev.detail > 1 && quick && ev.target.closest && ev.target.closest("#moves, #board, #choose, #best")) { ev.stopPropagation(); ev.preventDefault(); }
  }, true);
  // Back and Forward, or an address typed: the position it names.
  window.addEventListener("hashchange", () => {
    const p = decodeHash();
    const ours = ownEntry();
    // Back or Forward that popstate has shown already.
    if (ours && at >= 0 && p === current().answer.position) return;
    // An entry the page made (Back after a reload): its place; one typed: a
    // new entry, which gets the position's own spelling.
    if (ours) pos = history.state.idx;
    else { pos += 1; stack.length = pos; }
    epoch += 1;
    if (p === undefined || !p) {
      if (p === undefined) $("error").textContent = "The address's position is not percent-encoded text: the position shown stays.";
      if (at >= 0) remember("replace");
      return;
    }
    // The position in the game played (the nearest ply), or a new game.
    const i = nearest(p);
    if (i >= 0) { goTo(i); return; }
    restart(p, "replace", true).then((ok) => { if (!ok && at >= 0 && decodeHash() === p) remember("replace"); });
  });
  window.addEventListener("resize", () => {
    if (at < 0) return;
    if (!info.graph) {
      const kind = focusKind(), keep = selected;
      drawBoard(current().answer);
      if (keep !== null && leaves(keep)) { selected = keep; paintTargets(); }
      refocus(kind);
    }
    drawChart();
  });
  // Back and Forward through the entries the page made: their game and ply.
  window.addEventListener("popstate", (ev) => {
    const s = ev.state;
    if (!s) return; // a typed address: hashchange opens it
    pos = s.idx;
    if (!games.has(s.game)) return; // a game before a reload: hashchange opens its position
    const game = games.get(s.game);
    if (s.ply >= game.length || game[s.ply].answer.position !== decodeHash()) return;
    if (s.game === gameId && s.ply === at) return; // shown already (Undo, Redo)
    epoch += 1;
    gameId = s.game;
    line = game;
    at = s.ply;
    $("error").textContent = "";
    show("none");
  });
  if (ownEntry()) pos = history.state.idx;
  const opened = asked && ((await restoreGame(asked)) || (await restart(asked, "replace")));
  if (!opened && start !== null) {
    const why = $("error").textContent;
    await restart(start, "replace");
    $("error").textContent = why;
  }
  if (at < 0) noPosition();
  if (info.trace) {
    $("watch").hidden = false;
    if (info.positions <= 5000) await watch();
    else {
      $("load").hidden = false;
      $("load").textContent = `Load the solve's steps (${info.positions.toLocaleString("en")} positions)`;
      $("load").onclick = () => { $("load").disabled = true; watch().catch((e) => { $("error").textContent = e.message; }); };
    }
  } else if (info.untraced) {
    $("watch").hidden = false;
    $("watch-intro").hidden = true;
    $("untraced").hidden = false;
    $("untraced").textContent = info.untraced;
  }
  document.body.dataset.ready = "true";
}

main().catch((e) => { $("error").textContent = e.message; document.body.dataset.ready = "error"; });
