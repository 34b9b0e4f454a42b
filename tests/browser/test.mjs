// End-to-end tests of `retrograde serve` in a real browser: Debian's Chromium
// driven by playwright-core. Run by crates/retrograde-cli/tests/browser.rs,
// which makes the databases and passes:
//   RETROGRADE_BIN  the binary under test
//   MORRIS_BIN      the tutorial's own binary (crates/retrograde-cli/examples/morris.rs)
//   WORK            a directory with ttt.db, krk.db, chase.db, chase.txt, walk.db,
//                   corridor.db, lions.db, hand.db (lions with pieces in hand),
//                   morris.db (the tutorial's game), dots.db,
//                   apart.db (a board with draws), open12.db (an open 12 x 12 board)
//   ARTIFACTS       where the screenshots go
//   CHROMIUM        the browser (default /usr/bin/chromium)
// Every page is opened at a desktop's size and a phone's (390 x 844), and
// checked for console errors, failed requests, sideways scrolling and text
// contrast below 4.5:1 (WCAG AA).
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";
import path from "node:path";

const bin = process.env.RETROGRADE_BIN;
const work = process.env.WORK;
const artifacts = process.env.ARTIFACTS;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Starts `retrograde serve FILE --port 0 ARGS` (or `by`'s); resolves to its address. */
function serve(file, { by = bin, args = [] } = {}) {
  const child = spawn(by, ["serve", path.join(work, file), "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  servers.push(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (url) => resolve(url));
    child.once("exit", (code) => reject(new Error(`serve ${file} exited ${code}`)));
  });
}

/** What `retrograde query DB POSITION --json` (or `by`'s) says. */
function query(db, position, by = bin) {
  return JSON.parse(execFileSync(by, ["query", path.join(work, db), position, "--json"], { encoding: "utf8" }));
}

/** A page that records what goes wrong: console errors, uncaught
 *  exceptions, requests answered 400 or more. */
async function newPage(viewport) {
  const page = await browser.newPage({ viewport });
  page.problems = [];
  page.on("console", (m) => { if (m.type() === "error") page.problems.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => page.problems.push(`exception: ${e.message}`));
  page.on("response", (r) => { if (r.status() >= 400) page.problems.push(`HTTP ${r.status()} ${r.url()}`); });
  return page;
}

async function ready(page, url) {
  await page.goto(url);
  await page.waitForSelector("body[data-ready]");
  assert.equal(await page.getAttribute("body", "data-ready"), "true", await page.textContent("#error"));
}

async function status(page) {
  const s = page.locator("#status");
  const r = await s.getAttribute("data-remoteness");
  const text = (await page.locator("#status-text").count()) ? await page.textContent("#status-text") : await s.textContent();
  return { outcome: await s.getAttribute("data-outcome"), remoteness: r === "" ? null : Number(r), text };
}

const statusIs = (page, text) => page.waitForFunction((t) => {
  const s = document.getElementById("status-text");
  return s && s.textContent === t;
}, text);

const hashOf = (page) => decodeURIComponent(new URL(page.url()).hash.slice(1));

/** Text whose contrast with what is behind it is under 4.5:1: HTML text
 *  against the first opaque background behind it, SVG text against the
 *  shape drawn under it in its group (or white). */
function lowContrast() {
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const parse = (s) => {
    const m = /rgba?\(([^)]+)\)/.exec(s || "");
    if (!m) return null;
    const p = m[1].split(",").map(parseFloat);
    return { rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 };
  };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const behind = (e) => {
    for (let n = e; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c.a > 0.5) return c.rgb;
    }
    return [255, 255, 255];
  };
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || e.getClientRects().length === 0) continue;
    const st = getComputedStyle(e);
    if (st.visibility === "hidden" || e.closest("[hidden]") || e.closest("button:disabled")) continue;
    let r;
    if (e instanceof SVGElement) {
      // The topmost opaque shape of its group whose box holds the text's
      // centre (the last drawn), if any.
      const t = e.getBBox(), cx = t.x + t.width / 2, cy = t.y + t.height / 2;
      const shape = e.parentNode.tagName === "g" ? [...e.parentNode.children].reverse().find((s) => {
        if (!["circle", "rect"].includes(s.tagName)) return false;
        const f = parse(getComputedStyle(s).fill);
        if (!f || f.a <= 0.5) return false;
        const b = s.getBBox();
        return cx > b.x && cx < b.x + b.width && cy > b.y && cy < b.y + b.height;
      }) : null;
      const fill = shape && parse(getComputedStyle(shape).fill);
      r = ratio(parse(st.fill).rgb, fill ? fill.rgb : [255, 255, 255]);
    } else {
      r = ratio(parse(st.color).rgb, behind(e));
    }
    if (r < 4.5) out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.getAttribute("class")}: "${e.textContent.trim().slice(0, 24)}" ${r.toFixed(2)}:1`);
  }
  return out;
}

/** The checks every page gets: nothing went wrong, no text under 4.5:1, no
 *  sideways scrolling at a phone's width. */
async function clean(page, what, { problems = true } = {}) {
  if (problems) assert.deepEqual(page.problems, [], `${what}: console errors or failed requests`);
  assert.deepEqual(await page.evaluate(lowContrast), [], `${what}: text under 4.5:1`);
  const width = page.viewportSize().width;
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= width, `${what}: scrolls sideways at ${width} px`);
  // Every place to click on the board (a piece to pick up, a square or
  // point a move fills, a graph's vertex) at least 24 x 24 px (WCAG 2.5.8).
  const small = await page.evaluate(() => [...document.querySelectorAll("#board .target, #board .from, #board [data-cell][tabindex], #neighbourhood g.move")]
    .map((e) => [e.getAttribute("aria-label") || e.dataset.cell, e.getBoundingClientRect()])
    .filter(([, r]) => r.width < 24 || r.height < 24).map(([n, r]) => `${n}: ${r.width.toFixed(0)} x ${r.height.toFixed(0)}`));
  assert.deepEqual(small, [], `${what}: targets under 24 px`);
  checks += 4;
}

/** The texts of the neighbourhood drawing that a move's line runs
 *  through (in the page: its names as "text / the line's move"). */
function crossedText() {
  const out = [];
  const svg = document.getElementById("neighbourhood");
  const lines = [...svg.querySelectorAll("line")];
  for (const t of svg.querySelectorAll("text")) {
    const b = t.getBBox();
    const x0 = b.x + 1, y0 = b.y + 2, x1 = b.x + b.width - 1, y1 = b.y + b.height - 2;
    for (const l of lines) {
      const [ax, ay, bx, by] = ["x1", "y1", "x2", "y2"].map((k) => Number(l.getAttribute(k)));
      // The segment clipped to the box (Liang-Barsky): crossing if any is left.
      let lo = 0, hi = 1;
      const dx = bx - ax, dy = by - ay;
      for (const [p, q] of [[-dx, ax - x0], [dx, x1 - ax], [-dy, ay - y0], [dy, y1 - ay]]) {
        if (p === 0) { if (q < 0) { lo = 2; } continue; }
        const r = q / p;
        if (p < 0) lo = Math.max(lo, r); else hi = Math.min(hi, r);
      }
      if (lo <= hi) out.push(`${t.textContent} / ${l.parentNode.getAttribute("aria-label")}`);
    }
  }
  return out;
}

/** The pairs of the chart's texts that overlap. */
function chartOverlaps() {
  const boxes = [...document.querySelectorAll("#chart text")].map((t) => [t.textContent, t.getBBox()]);
  const out = [];
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    if (p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height) out.push(`${a} / ${b}`);
  }));
  return out;
}

/** Presses the mouse on the centre of `from`, moves to the centre of `to`
 *  and lets go: a drag. */
async function drag(page, from, to) {
  const centre = async (sel) => { const b = await page.locator(sel).boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const [x1, y1] = await centre(from);
  const [x2, y2] = await centre(to);
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move(x2, y2, { steps: 5 });
  await page.mouse.up();
}

// What the lesson's board shows: its caption and every square's look.
const lessonShown = (page) => page.evaluate(() => document.getElementById("lesson-caption").textContent +
  [...document.querySelectorAll("#lesson td.pos")].map((t) => `${t.className}|${t.textContent}`).join(";"));

async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  // Headless as root, and no attempt to reach the internet at start.
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const servers = [];
let checks = 0;
try {
  // Tic-tac-toe: a square clicked plays the move; every empty square is
  // coloured by its move's value; undo, redo, the keyboard, the chart.
  {
    const url = await serve("ttt.db");
    const page = await newPage(DESKTOP);
    await ready(page, url);
    assert.deepEqual(await status(page), { outcome: "tie", remoteness: 9, text: "X to move: tie in 9" });
    assert.equal(await page.locator("#moves button").count(), 9);
    // The favicon is served: no 404 on any load.
    assert.equal((await page.request.get(`${url}favicon.svg`)).status(), 200);
    // Every square of the empty board is a target, coloured as its move.
    const start = query("ttt.db", ".../.../...");
    assert.equal(await page.locator("#board td.target").count(), 9);
    for (const td of await page.locator("#board td.target").all()) {
      const label = await td.getAttribute("aria-label");
      const square = label.split(":")[0];
      const m = start.moves.find((x) => x.move === square);
      assert.ok(m, label);
      assert.ok((await td.getAttribute("class")).includes(m.outcome), label);
      assert.equal(await td.locator(".hint").textContent(), `${m.outcome[0].toUpperCase()}${m.remoteness}`);
    }
    // Click the centre square: the move b2 is played.
    await page.click('#board td[aria-label^="b2:"]');
    await page.waitForFunction(() => document.getElementById("notation").value !== ".../.../...");
    const afterB2 = query("ttt.db", ".../.../...").moves.find((m) => m.move === "b2").position;
    assert.equal(await page.inputValue("#notation"), afterB2);
    assert.equal(hashOf(page), afterB2);
    const shown = await status(page);
    const asked = query("ttt.db", afterB2);
    assert.equal(shown.outcome, asked.outcome);
    assert.equal(shown.remoteness, asked.remoteness);
    // Move buttons: coloured by value for the mover, as query says, in groups.
    const buttons = await page.locator("#moves button").all();
    assert.equal(buttons.length, asked.moves.length);
    for (const b of buttons) {
      const [to, name] = [await b.getAttribute("data-position"), (await b.textContent()).split(":")[0]];
      const m = asked.moves.find((x) => x.position === to && x.move === name);
      assert.ok(m);
      assert.equal(await b.getAttribute("data-outcome"), m.outcome);
      assert.equal(await b.evaluate((e) => getComputedStyle(e).backgroundColor),
        { win: "rgb(0, 158, 115)", lose: "rgb(213, 94, 0)", tie: "rgb(0, 114, 178)", draw: "rgb(230, 159, 0)" }[m.outcome]);
    }
    // Hovering a move shows it on the board.
    await page.hover("#moves button >> nth=0");
    assert.equal(await page.locator("#arrows .arrow").count(), 1);
    // The keyboard: b plays the best move, left undoes, right redoes.
    await page.locator("body").press("b");
    await page.waitForFunction(() => document.querySelectorAll("#record button").length === 3);
    const third = await page.inputValue("#notation");
    await page.locator("body").press("ArrowLeft");
    await page.waitForFunction((p) => document.getElementById("notation").value === p, afterB2);
    await page.locator("body").press("ArrowRight");
    await page.waitForFunction((p) => document.getElementById("notation").value === p, third);
    // A target square reached with Tab and played with Enter.
    await page.locator("#board td.target").first().focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#record button").length === 4);
    // The keyboard stays on the board, on the next position's squares.
    assert.equal(await page.evaluate(() => !!document.activeElement.closest("#board td.target")), true);
    // The buttons: undo twice, redo once.
    await page.click("#undo");
    await page.click("#undo");
    await page.waitForFunction((p) => document.getElementById("notation").value === p, afterB2);
    assert.equal(await page.isEnabled("#redo"), true);
    await page.click("#redo");
    await page.waitForFunction((p) => document.getElementById("notation").value === p, third);
    // The chart: a point a ply, each the value for X, with its shape.
    const line = await page.locator("#record button").evaluateAll((bs) => bs.map((b) => b.title));
    assert.equal(line.length, 4);
    const points = await page.locator("#chart g.point").all();
    assert.equal(points.length, 4);
    for (const [ply, p] of points.entries()) {
      const v = query("ttt.db", line[ply]);
      const forX = ply % 2 === 0 ? v.outcome : { win: "lose", lose: "win" }[v.outcome] || v.outcome;
      assert.equal(await p.getAttribute("data-outcome"), forX, `ply ${ply}`);
      assert.match(await p.locator("title").textContent(), new RegExp(`^ply ${ply}: . to move, `));
    }
    // A point clicked goes to its ply.
    await points[0].click();
    await page.waitForFunction(() => document.getElementById("notation").value === ".../.../...");
    await clean(page, "tic-tac-toe");
    await shot(page, "tic-tac-toe");
    // End on the page scrolls it; End in the game goes to the last ply.
    await page.locator("body").press("End");
    assert.equal(await page.inputValue("#notation"), ".../.../...");
    await page.locator("#record button >> nth=0").press("End");
    await page.waitForFunction((p) => document.getElementById("notation").value === p, line[3]);
    // Back and Forward are Undo and Redo on a game played.
    {
      const fresh = await newPage(DESKTOP);
      await ready(fresh, url);
      for (let k = 1; k <= 3; k++) {
        await fresh.locator("#moves button").first().click();
        await fresh.waitForFunction((n) => document.querySelectorAll("#record button").length === n, k + 1);
      }
      const ply = () => fresh.getAttribute('#record button[aria-current="true"]', "data-ply").then(Number);
      const plyIs = (n) => fresh.waitForFunction((x) => document.querySelector('#record button[aria-current="true"]').dataset.ply === String(x), n);
      await fresh.goBack();
      await plyIs(2);
      await fresh.click("#undo");
      await plyIs(1);
      await fresh.goForward();
      await plyIs(2);
      await fresh.click("#redo");
      await plyIs(3);
      await fresh.goBack();
      await plyIs(2);
      assert.equal(await ply(), 2);
      // The position shown typed in another spelling (slashes not escaped):
      // the address is the game's again, and one Undo still undoes.
      await fresh.evaluate(() => { location.hash = document.getElementById("notation").value; });
      await fresh.waitForFunction(() => history.state && location.hash === `#${encodeURIComponent(document.getElementById("notation").value)}`);
      await fresh.click("#undo");
      await plyIs(1);
      // A double click at a person's speed, answers fast: one move.
      await fresh.locator("#moves button").first().dblclick();
      await plyIs(2);
      await fresh.waitForTimeout(500);
      assert.equal(await ply(), 2);
      await fresh.close();
    }
    // No arrow is left over the next position, where it would read as
    // advice: not after a target clicked on the board (the mark just made
    // under the mouse), nor after Undo from the keyboard with the mouse on
    // a target.
    {
      const fresh = await newPage(DESKTOP);
      await ready(fresh, url);
      await fresh.hover('#board td[aria-label^="b1:"]');
      assert.equal(await fresh.locator("#arrows .arrow").count(), 1);
      await fresh.click('#board td[aria-label^="b1:"]');
      await fresh.waitForFunction(() => document.querySelectorAll("#record button").length === 2);
      await fresh.waitForTimeout(200);
      assert.equal(await fresh.locator("#arrows .arrow").count(), 0, "an arrow left after a move on the board");
      await fresh.click("#restart");
      await fresh.waitForFunction(() => document.getElementById("notation").value === ".../.../...");
      await fresh.click("#moves button >> nth=0");
      await fresh.waitForFunction(() => document.querySelectorAll("#record button").length === 2);
      await fresh.hover("#board td.target >> nth=0");
      assert.equal(await fresh.locator("#arrows .arrow").count(), 1);
      await fresh.keyboard.press("ArrowLeft");
      await fresh.waitForFunction(() => document.getElementById("notation").value === ".../.../...");
      await fresh.waitForTimeout(200);
      // An arrow now is the move under the mouse, its button lit; a stale
      // one lights none (the list was drawn again).
      const arrows = await fresh.locator("#arrows .arrow").count();
      assert.equal(arrows, await fresh.locator("#moves button.lit").count(), "an arrow left after Undo");
      // The keyboard's focus on a move still shows it.
      await fresh.locator("#moves button >> nth=0").focus();
      await fresh.keyboard.press("Tab");
      assert.equal(await fresh.locator("#arrows .arrow").count(), 1, "a move focused from the keyboard");
      await fresh.close();
    }
    // Against the computer. It answers every move; as a beginner (moves
    // chosen at random, `?seed=` repeats them) it loses to best play from
    // the empty board; at its best it wins a won position whatever the
    // person plays.
    {
      const plies = (p) => p.locator("#record button").count();
      const over = (p) => p.evaluate(() => document.getElementById("status-text").textContent.startsWith("Game over"));
      // The person plays `choose`'s move while the game goes on; the
      // computer answers each.
      async function playOut(p, choose) {
        for (let k = 0; k < 9 && !(await over(p)); k++) {
          const n = await plies(p);
          await choose(p);
          await p.waitForFunction((m) => document.querySelectorAll("#record button").length >= m + 1, n);
          await p.waitForFunction((m) => document.querySelectorAll("#record button").length >= m + 2
            || document.getElementById("status-text").textContent.startsWith("Game over"), n);
        }
        return p.textContent("#status-text");
      }
      const beginner = await newPage(DESKTOP);
      await ready(beginner, `${url}?seed=3`);
      assert.deepEqual(await beginner.locator("#computer option").allTextContents(), ["nobody", "X", "the other side"]);
      await beginner.selectOption("#computer", "second");
      await beginner.selectOption("#level", "weak");
      assert.equal(await playOut(beginner, (p) => p.click("#best")), "Game over: three in a row: X wins");
      await shot(beginner, "tic-tac-toe-won-against-the-computer");
      await beginner.close();
      // O to move and lost: whatever O plays, the computer, at its best, wins.
      const lost = "xx./o../...";
      const best = await newPage(DESKTOP);
      await ready(best, `${url}#${encodeURIComponent(lost)}`);
      await best.selectOption("#computer", "second");
      assert.equal(await playOut(best, (p) => p.locator("#moves button").last().click()), "Game over: three in a row: X wins");
      // The computer takes the side to move when it is chosen for it.
      await best.click("#restart");
      await best.waitForFunction(() => document.getElementById("notation").value === ".../.../...");
      const n = await plies(best);
      await best.selectOption("#computer", "first");
      await best.waitForFunction((m) => document.querySelectorAll("#record button").length === m + 1, n);
      await best.close();
    }
    // A reload keeps the game played, not only its position: the record,
    // Undo, the ply shown.
    {
      const kept = await newPage(DESKTOP);
      await ready(kept, url);
      for (let k = 1; k <= 3; k++) {
        await kept.click("#best");
        await kept.waitForFunction((n) => document.querySelectorAll("#record button").length === n, k + 1);
      }
      await kept.click("#undo");
      const shown = await kept.inputValue("#notation");
      const record = await kept.locator("#record button").evaluateAll((bs) => bs.map((b) => b.title));
      await kept.reload();
      await kept.waitForFunction(() => document.body.dataset.ready === "true");
      assert.equal(await kept.inputValue("#notation"), shown);
      assert.deepEqual(await kept.locator("#record button").evaluateAll((bs) => bs.map((b) => b.title)), record);
      assert.equal(await kept.getAttribute('#record button[aria-current="true"]', "data-ply"), "2");
      await kept.click("#redo");
      await kept.waitForFunction((p) => document.getElementById("notation").value === p, record[3]);
      await kept.close();
    }
    // Values hidden: no value, colour or order gives a move away; shown
    // again, they are back. Flipped: the board turned around, upright pieces.
    {
      const hide = await newPage(DESKTOP);
      await ready(hide, `${url}#${encodeURIComponent(afterB2)}`);
      await hide.check("#hide-values");
      await statusIs(hide, "O to move");
      assert.equal(await hide.locator("#board .hint").count(), 0);
      assert.equal(await hide.locator("#moves [data-outcome]").count(), 0);
      const names = await hide.locator("#moves button").allTextContents();
      assert.deepEqual(names, [...names].sort());
      assert.ok(names.every((t) => !/in \d|tie|loss|win/.test(t)), names.join(","));
      assert.equal(await hide.isVisible("#chart"), false);
      await hide.uncheck("#hide-values");
      assert.equal(await hide.locator("#board .hint").count(), 8);
      await hide.click("#flip");
      assert.equal(await hide.getAttribute("#flip", "aria-pressed"), "true");
      assert.match(await hide.locator("table.board").evaluate((t) => getComputedStyle(t).transform), /^matrix\(-1, /);
      await clean(hide, "tic-tac-toe, values hidden and shown, flipped");
      await hide.close();
    }
    await page.evaluate((p) => { location.hash = encodeURIComponent(p); }, afterB2);
    await page.waitForFunction((p) => document.getElementById("notation").value === p, afterB2);
    const a3 = query("ttt.db", ".../.../...").moves.find((m) => m.move === "a3").position;
    const atA3 = query("ttt.db", a3);
    await page.evaluate((p) => { location.hash = encodeURIComponent(p); }, a3);
    await statusIs(page, `O to move: ${atA3.outcome === "lose" ? "loss" : atA3.outcome} in ${atA3.remoteness}`);
    // A double click, or b pressed twice, while the answer is on its way
    // plays one move, not the same move twice.
    await page.click("#restart");
    await page.waitForFunction(() => document.getElementById("notation").value === ".../.../...");
    await page.route("**/api/query*", async (route) => { await new Promise((r) => setTimeout(r, 300)); await route.continue(); });
    await page.dblclick('#moves button >> nth=0');
    await page.waitForFunction(() => document.querySelectorAll("#record button").length === 2);
    await page.locator("body").press("b");
    await page.locator("body").press("b");
    await page.waitForFunction(() => document.querySelectorAll("#record button").length === 3);
    await page.waitForTimeout(700);
    assert.equal(await page.locator("#record button").count(), 3);
    // A move clicked, then Undo before its answer: the answer is dropped,
    // the game stays as it was.
    const kept = await page.locator("#record button").evaluateAll((bs) => bs.map((b) => b.title));
    await page.locator("#board td.target").first().click();
    await page.locator("body").press("ArrowLeft");
    await page.waitForTimeout(700);
    assert.deepEqual(await page.locator("#record button").evaluateAll((bs) => bs.map((b) => b.title)), kept);
    assert.equal(await page.inputValue("#notation"), kept[1]);
    // A move clicked, then Start before either answer: the move's answer,
    // arriving after, is not added to the new game.
    await page.locator("#record button >> nth=0").press("End");
    await page.waitForFunction((p) => document.getElementById("notation").value === p, kept[2]);
    await page.click("#restart");
    await page.locator("#moves button").first().click();
    await page.waitForTimeout(900);
    assert.deepEqual(await page.locator("#record button").evaluateAll((bs) => bs.map((b) => b.title)), [".../.../..."]);
    // Back: the game before it, where it was left.
    await page.goBack();
    await page.waitForFunction((p) => document.getElementById("notation").value === p, kept[2]);
    assert.equal(await page.locator("#record button").count(), 3);
    await page.unroute("**/api/query*");
    // The squares the last move changed are marked.
    await page.locator("body").press("ArrowRight");
    await page.waitForFunction((p) => document.getElementById("notation").value === p, kept[2]);
    assert.equal(await page.locator("#board td[data-last]").count(), 1);
    // Enter on the record keeps the keyboard there.
    await page.locator("#record button >> nth=0").press("Enter");
    await page.waitForFunction(() => document.getElementById("notation").value === ".../.../...");
    assert.equal(await page.evaluate(() => document.activeElement.closest("#record") !== null), true);
    // On a phone: the board and the buttons fit; the chart is drawn at the
    // width shown, so its text is not shrunk.
    const phone = await newPage(PHONE);
    await ready(phone, url);
    const chart = await phone.locator("#chart").evaluate((c) => [Number(c.getAttribute("viewBox").split(" ")[2]), c.getBoundingClientRect().width]);
    assert.ok(Math.abs(chart[0] - chart[1]) <= 1, `the chart's ${chart[0]} units shown in ${chart[1]} px`);
    await clean(phone, "tic-tac-toe on a phone");
    await shot(phone, "tic-tac-toe-phone");
    checks += 16;
  }

  // Chess: moves in standard notation, a piece dragged, a capture shown as
  // the board it leaves, the page without a position.
  {
    const url = await serve("krk.db");
    const page = await newPage(DESKTOP);
    // No position: the buttons do nothing, an example is offered.
    await ready(page, url);
    assert.equal(await page.textContent("#status"), "No position yet: type one above and press Go.");
    for (const b of ["#undo", "#redo", "#best", "#restart"]) assert.equal(await page.isDisabled(b), true, b);
    assert.match(await page.textContent("#hint"), /FEN/);
    assert.equal(await page.isVisible("#moves-title"), false);
    {
      const ed = await newPage(DESKTOP);
      await ready(ed, url);
      // A position set up on the board, from an empty one: the pieces put
      // by clicks, a piece put twice taken off, black to move.
      await ed.click("#edit");
      assert.equal(await ed.locator("#board td[data-cell]").count(), 64);
      const square = (name) => ed.locator("#board td[data-cell]").nth(8 * (8 - Number(name[1])) + name.charCodeAt(0) - 97);
      for (const [piece, at] of [["K", "e1"], ["R", "a1"], ["R", "b1"], ["k", "h8"]]) {
        await ed.click(`#palette button[data-piece="${piece}"]`);
        await square(at).click();
      }
      await ed.click('#palette button[data-piece="R"]');
      await square("b1").click(); // taken off again
      await ed.selectOption("#edit-side", "b");
      await ed.click("#edit-done");
      await ed.waitForFunction(() => document.getElementById("status-text"));
      assert.equal(await ed.inputValue("#notation"), "7k/8/8/8/8/8/8/R3K3 b - - 0 1");
      const setUp = query("krk.db", "7k/8/8/8/8/8/8/R3K3 b - - 0 1");
      assert.equal((await status(ed)).text, `black to move: ${setUp.outcome === "lose" ? "loss" : setUp.outcome} in ${setUp.remoteness}`);
      assert.equal(await ed.isVisible("#editor"), false);
      // A position the game has not (two white kings): its error, the
      // position before kept.
      await ed.click("#edit");
      await ed.click('#palette button[data-piece="K"]');
      await square("f1").click();
      await ed.click("#edit-done");
      await ed.waitForFunction(() => document.getElementById("error").textContent.length > 0);
      assert.match(await ed.textContent("#error"), /more than one white king/);
      assert.equal(await ed.inputValue("#notation"), "7k/8/8/8/8/8/8/R3K3 b - - 0 1");
      assert.equal(await ed.locator("#board td[data-piece=K]").count(), 1);
      // The only failed request: the refused position's.
      assert.ok(ed.problems.length > 0 && ed.problems.every((m) => /400/.test(m)), ed.problems.join("; "));
      await clean(ed, "chess set up on the board", { problems: false });
      await shot(ed, "chess-set-up");
    }
    await page.click("#example");
    await page.waitForFunction(() => document.getElementById("status-text"));
    const example = await page.inputValue("#notation");
    const asked = query("krk.db", example);
    assert.equal(asked.outcome, "win");
    assert.equal((await status(page)).remoteness, asked.remoteness);
    // A bad position: its error, and the game stays.
    await page.fill("#notation", "8/8/8 w");
    await page.click("#goto button[type=submit]");
    await page.waitForFunction(() => document.getElementById("error").textContent.length > 0);
    assert.match(await page.textContent("#error"), /not a position of chess KRK|FEN/);
    assert.equal((await status(page)).remoteness, asked.remoteness);
    // A very long bad position is not echoed whole.
    await page.fill("#notation", "x".repeat(2000));
    await page.click("#goto button[type=submit]");
    await page.waitForFunction(() => document.getElementById("error").textContent.includes("\u2026"));
    assert.ok((await page.textContent("#error")).length <= 301);
    // The error goes when the game moves on.
    await page.click("#best");
    await page.waitForFunction(() => document.getElementById("error").textContent === "");
    await page.fill("#notation", "8/8/8 w");
    await page.click("#goto button[type=submit]");
    await page.waitForFunction(() => document.getElementById("error").textContent.length > 0);
    await page.click("#undo");
    await page.waitForFunction(() => document.getElementById("error").textContent === "");
    // An address that is not percent-encoded, once the page is open: said.
    await page.evaluate(() => { location.hash = "%E0%A4%A"; });
    await page.waitForFunction(() => document.getElementById("error").textContent.includes("percent-encoded"));
    page.problems = page.problems.filter((p) => !p.includes("HTTP 400") && !p.includes("400 (Bad Request)"));

    // A position from the address; moves written in SAN.
    const fen = "8/8/8/8/8/2k5/8/R1K5 w - - 0 1";
    await ready(page, `${url}#${encodeURIComponent(fen)}`);
    assert.equal((await status(page)).text, "white to move: win in 25");
    assert.equal(await page.locator("table.board td.light, table.board td.dark").count(), 64);
    assert.equal(await page.locator("table.board td[data-piece=R]").textContent(), "\u2656");
    const names = await page.locator("#moves button").evaluateAll((bs) => bs.map((b) => b.textContent.split(":")[0]));
    assert.ok(names.includes("Ra4") && names.includes("Ra3+") && names.includes("Kb1"), names.join(" "));
    // The rook dragged from a1 to a4: Ra4 (rows from rank 8, so a4 is row 4).
    await drag(page, "table.board td[data-piece=R]", 'table.board td[data-cell="4,0"]');
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("black"));
    assert.equal(await page.inputValue("#notation"), "8/8/8/8/R7/2k5/8/2K5 b - - 0 1");
    // Clicking: the black king picked up, its squares coloured, one played.
    await page.click("table.board td[data-piece=k]");
    const targets = await page.locator("table.board td.target").count();
    assert.equal(targets, query("krk.db", "8/8/8/8/R7/2k5/8/2K5 b - - 0 1").moves.length);
    await page.click("table.board td.target >> nth=0");
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("white"));
    // The record: 1. Ra4 then black's king move, numbered as chess numbers.
    const record = await page.locator("#record").textContent();
    assert.match(record, /^start1\. Ra4K[a-h][1-8]$/, record);
    await page.click("#best");
    await page.waitForFunction(() => document.querySelectorAll("#record button").length === 4);
    assert.match(await page.locator("#record").textContent(), /2\. [KR]/);
    assert.deepEqual(await page.evaluate(chartOverlaps), []);
    await clean(page, "chess");
    await shot(page, "chess-krk");

    // Two pieces that move: the rook clicked, then its square.
    const two = "8/8/8/8/8/2k5/1R6/K7 w - - 0 1";
    await ready(page, `${url}#${encodeURIComponent(two)}`);
    assert.equal(await page.getAttribute("table.board td[data-piece=R]", "aria-label"), "b2: white rook, pick up");
    await page.click("table.board td[data-piece=R]");
    assert.equal(await page.locator("table.board td.selected[data-piece=R]").count(), 1);
    const rookMoves = query("krk.db", two).moves.filter((m) => m.move.startsWith("R")).length;
    assert.equal(await page.locator("table.board td.target").count(), rookMoves);
    await page.click('table.board td[data-cell="0,1"]');
    await page.waitForFunction(() => document.getElementById("notation").value === "1R6/8/8/8/8/2k5/8/K7 b - - 0 1");
    // An address in a short spelling is replaced by the game's own, with no
    // step added to the history: Back leaves the page, not a loop.
    const short = await newPage(DESKTOP);
    await ready(short, `${url}#${encodeURIComponent("8/8/8/8/8/2k5/1R6/K7 w")}`);
    assert.equal(hashOf(short), two);
    await short.click("#best");
    await short.waitForFunction((p) => document.getElementById("notation").value !== p, two);
    await short.goBack();
    await short.waitForFunction((p) => document.getElementById("notation").value === p, two);
    await short.goBack();
    assert.equal(short.url(), "about:blank");
    await short.close();

    // A capture: the board after it, kings alone, the game over as a tie.
    const capture = "8/8/8/8/8/8/k7/1R2K3 b - - 0 1";
    await ready(page, `${url}#${encodeURIComponent(capture)}`);
    await page.click('#moves button:text-matches("^Kxb1:")');
    await statusIs(page, "Game over: insufficient material: a draw");
    assert.equal(await page.inputValue("#notation"), "8/8/8/8/8/8/8/1k2K3 w - - 0 1");
    assert.deepEqual(await page.locator("table.board td[data-piece]:not([data-piece='.'])").evaluateAll((t) => t.map((x) => x.dataset.piece)), ["k", "K"]);
    assert.match(await page.locator("#record").textContent(), /1\u2026 Kxb1/);
    // Never laid out as one graph: the page says so, and suggests no
    // --trace-limit, which could not animate it.
    assert.equal(await page.isVisible("#untraced"), true);
    assert.match(await page.textContent("#untraced"), /not laid out as one graph/);
    assert.doesNotMatch(await page.textContent("#untraced"), /--trace-limit/);
    await clean(page, "chess after a capture");
    const phone = await newPage(PHONE);
    await ready(phone, `${url}#${encodeURIComponent(fen)}`);
    await clean(phone, "chess on a phone");
    await shot(phone, "chess-krk-phone");
    checks += 14;
  }

  // A graph: the neighbourhood played; the solve drawn with arrowheads,
  // two-way moves apart, a self-loop and parallel moves, values in words,
  // every step's text true, the speed control and "next decision".
  {
    const url = await serve("chase.txt");
    const page = await newPage(DESKTOP);
    await ready(page, url);
    assert.equal(await page.isVisible("#watch"), true);
    // A graph's drawing is its values, with no board to turn: no switch
    // offers to hide them or flip it.
    assert.equal(await page.isVisible("#view"), false);
    assert.equal(await page.locator("#graph g.node").count(), 10);
    assert.equal(await page.locator("#graph g.node[data-status=open]").count(), 10);
    // Every move drawn, with an arrowhead; 3 <-> 4 two curves apart; the
    // self-loop 7 -> 7 drawn; the two moves 9 -> 2 apart.
    const edges = page.locator("#graph path.edge");
    assert.equal(await edges.count(), 14);
    assert.equal(await edges.evaluateAll((es) => es.every((e) => e.getAttribute("marker-end") === "url(#arrow)")), true);
    const d = (a, b) => page.locator(`#graph path.edge[data-from="${a}"][data-to="${b}"]`).evaluateAll((es) => es.map((e) => ({ d: e.getAttribute("d"), len: e.getTotalLength() })));
    const [d34] = await d(3, 4), [d43] = await d(4, 3), [loop] = await d(7, 7), d92 = await d(9, 2);
    assert.notEqual(d34.d, d43.d);
    assert.ok(loop.len > 20, `the self-loop is ${loop.len} long`);
    assert.equal(d92.length, 2);
    assert.notEqual(d92[0].d, d92[1].d);
    // Everything drawn lies inside the frame.
    const outside = await page.evaluate(() => {
      const svg = document.getElementById("graph");
      const [x0, y0, w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
      return [...svg.querySelectorAll("text, circle")].map((t) => t.getBBox()).filter((b) => b.width > 0 && (b.x < x0 || b.y < y0 || b.x + b.width > x0 + w || b.y + b.height > y0 + h)).length;
    });
    assert.equal(outside, 0);
    // Every step, forward: the text says what the drawing shows.
    await page.click("#step");
    assert.match(await page.textContent("#explain"), /^The solver starts at the end of the game: where the game is over/);
    // The set-up is one step: the terminal vertex 2 decided, every other
    // counter set at once.
    assert.deepEqual(await page.locator("#graph g.node text.sub").evaluateAll((ts) => ts.map((t) => t.textContent.replace(/\d+ left/, "n left"))),
      ["n left", "n left", "loss in 0", "n left", "n left", "n left", "n left", "n left", "n left", "n left"]);
    const total = Number((await page.textContent("#stepinfo")).split(" of ")[1]);
    for (let k = 2; k <= total; k++) {
      await page.click("#step");
      const text = await page.textContent("#explain");
      assert.ok(!/undefined|null|NaN/.test(text), text);
      assert.ok(!/terminal ties join/.test(text), "no ties: none join the queue");
      const left = /(\d+) has \d+ moves? left not known to lose/.exec(text);
      if (left) assert.equal(await page.getAttribute(`#graph g.node[data-vertex="${left[1]}"]`, "data-status"), "open", text);
      const won = /So (\d+) is a win in (\d+)/.exec(text);
      if (won) assert.equal(await page.locator(`#graph g.node[data-vertex="${won[1]}"] text.sub`).textContent(), `win in ${won[2]}`);
    }
    assert.match(await page.textContent("#explain"), /never decided are draws.*The end/);
    // At the end nothing stays lit, and every value is query's, in words.
    assert.equal(await page.locator("#graph .current, #graph path.lit").count(), 0);
    for (let v = 0; v < 10; v++) {
      const q = query("chase.db", String(v));
      assert.equal(await page.getAttribute(`#graph g.node[data-vertex="${v}"]`, "data-status"), q.outcome, `vertex ${v}`);
      const words = q.remoteness === null ? q.outcome : `${{ win: "win", lose: "loss", tie: "tie" }[q.outcome]} in ${q.remoteness}`;
      assert.equal(await page.textContent(`#graph g.node[data-vertex="${v}"] text.sub`), words);
    }
    await shot(page, "chase-solved");
    // "Next decision" skips the steps that decide nothing.
    await page.click("#first");
    await page.click("#next");
    await page.click("#next");
    assert.match(await page.textContent("#explain"), /a (win|loss|tie) in \d+|draws?/);
    // The speed control sets the pace.
    await page.$eval("#speed", (e) => { e.value = "5"; e.dispatchEvent(new Event("input")); });
    assert.equal(await page.textContent("#speed-text"), "32 steps a second");
    await page.click("#run");
    await page.waitForFunction(() => document.getElementById("run").textContent === "Play", null, { timeout: 10000 });
    assert.equal(await page.textContent("#stepinfo"), `step ${total} of ${total}`);
    // The neighbourhood of vertex 3: a click plays the move.
    await page.fill("#notation", "3");
    await page.click("#goto button[type=submit]");
    await page.waitForFunction(() => document.getElementById("status-text").textContent.includes("win in 3"));
    assert.match(await page.locator("#neighbourhood").textContent(), /W3/);
    await page.locator("#neighbourhood g.move").first().click();
    await page.waitForFunction(() => document.getElementById("notation").value === "0");
    // Around 9, two parallel moves and one vertex drawn; around 7, its
    // self-loop; around each, no text crossed by a move's line.
    for (const [v, moves, circles] of [["9", 2, 2], ["7", 2, 2], ["3", 2, 3], ["6", 2, 3]]) {
      await page.evaluate((p) => { location.hash = p; }, v);
      await page.waitForFunction((p) => document.getElementById("notation").value === p, v);
      assert.equal(await page.locator("#neighbourhood g.move").count(), moves, `around ${v}`);
      assert.equal(await page.locator("#neighbourhood circle").count(), circles, `around ${v}`);
      assert.deepEqual(await page.evaluate(crossedText), [], `around ${v}`);
    }
    // A position met twice: Back goes to the ply before, not the first time
    // it was met.
    await page.evaluate(() => { location.hash = "5"; });
    await page.waitForFunction(() => document.getElementById("notation").value === "5");
    for (const [k, to] of [[1, "6"], [2, "5"], [3, "6"]]) {
      await page.locator(`#moves button[data-position="${to}"]`).first().click();
      await page.waitForFunction((n) => document.querySelectorAll("#record button").length === n, k + 1);
    }
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('#record button[aria-current="true"]').dataset.ply === "2");
    // The animation's buttons keep their keys: → on Step does not redo.
    await page.focus("#step");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.getAttribute('#record button[aria-current="true"]', "data-ply"), "2");
    // A position typed into the address, met twice: the nearer ply.
    await page.click("#redo");
    await page.waitForFunction(() => document.querySelector('#record button[aria-current="true"]').dataset.ply === "3");
    await page.evaluate(() => { location.hash = "5"; });
    await page.waitForFunction(() => document.querySelector('#record button[aria-current="true"]').dataset.ply === "2");
    // Another spelling of a position of the game ("06" for 6): its ply, the
    // game kept, the address in the game's spelling.
    await page.evaluate(() => { location.hash = "06"; });
    await page.waitForFunction(() => document.querySelector('#record button[aria-current="true"]').dataset.ply === "1");
    assert.equal(await page.locator("#record button").count(), 4);
    assert.equal(hashOf(page), "6");
    // The queue's chips are labels here, not buttons that do nothing.
    await page.click("#first");
    await page.click("#step");
    assert.ok(await page.locator("#chips .chip").count() > 0);
    assert.equal(await page.locator("#chips button").count(), 0);
    await clean(page, "graph");
    const phone = await newPage(PHONE);
    await ready(phone, url);
    // Drawn at the phone's width: its circles and words not shrunk.
    const drawn = await phone.locator("#graph").evaluate((g) => [Number(g.getAttribute("viewBox").split(" ")[2]), g.getBoundingClientRect().width]);
    assert.ok(Math.abs(drawn[0] - drawn[1]) <= 3, `the graph's ${drawn[0]} units shown in ${drawn[1]} px`);
    await clean(phone, "graph on a phone");
    await shot(phone, "chase-phone");
    checks += 16;
  }

  // A limit on the animation: the page says why there is none, and how to
  // get it.
  {
    const url = await serve("chase.txt", { args: ["--trace-limit", "5"] });
    const page = await newPage(DESKTOP);
    await ready(page, url);
    assert.equal(await page.isVisible("#untraced"), true);
    assert.match(await page.textContent("#untraced"), /up to 5 positions; this one has 10.*--trace-limit 10/);
    await clean(page, "graph over the limit");
    checks += 2;
  }

  // More than 200 positions: each step drawn around its position.
  {
    const url = await serve("ttt.db", { args: ["--trace-limit", "1000"] });
    const page = await newPage(DESKTOP);
    await ready(page, url);
    assert.match(await page.textContent("#untraced"), /765 positions are too many to draw at once/);
    for (let i = 0; i < 5; i++) await page.click("#next");
    const nodes = await page.locator("#graph g.node").count();
    assert.ok(nodes >= 2 && nodes <= 25, `${nodes} nodes`);
    await clean(page, "a big graph's neighbourhood");
    checks += 2;
  }

  // A graph of named vertices: its saved database shows and plays names.
  {
    const url = await serve("walk.db");
    const page = await newPage(DESKTOP);
    await ready(page, `${url}#${encodeURIComponent("home")}`);
    assert.equal((await status(page)).text, "the player to move: loss in 2");
    const labels = await page.locator("#neighbourhood text").allTextContents();
    assert.ok(labels.includes("home") && labels.includes("away/far"), labels.join("|"));
    await page.locator("#moves button").first().click();
    await page.waitForFunction(() => document.getElementById("notation").value === "away/far");
    assert.equal((await status(page)).text, "the player to move: win in 1");
    assert.equal(hashOf(page), "away/far");
    await clean(page, "a graph of names");
    checks += 3;
  }

  // Dōbutsu shōgi from a small start: its 4 x 3 board, Gote's pieces turned.
  {
    const url = await serve("lions.db");
    const page = await newPage(DESKTOP);
    await ready(page, url);
    assert.equal((await status(page)).text, "Sente to move: win in 5");
    // Drawn: 12 squares and the hands' 12 places, a stone a piece.
    assert.equal(await page.locator("#board table").count(), 0);
    assert.equal(await page.locator("#board g.place rect.hit.cell").count(), 12);
    assert.equal(await page.locator("#board g.place").count(), 24);
    assert.equal(await page.locator("#board .stone.second").count(), 1);
    assert.equal(await page.locator("#board .stone.first").count(), 1);
    assert.equal(await page.locator("#board text.symbol.first").textContent(), "L");
    // Under the board, a legend names each kind of piece on it.
    const kinds = await page.locator("#board .pieces .kind").allTextContents();
    // (each its stone's letter, hidden from screen readers, and its name).
    assert.deepEqual(kinds.map((k) => k.trim()).sort(), ["L Gote's lion", "L Sente's lion"]);
    // One piece moves: it is picked up already, its squares coloured.
    assert.equal(await page.locator("#board g.place.target").count(), 5);
    // The lion dragged to a square plays that move; Undo back.
    await drag(page, '#board g.place[data-piece="first|L|Sente\'s lion"]', '#board g.place.target[aria-label^="b3:"]');
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("Gote"));
    assert.match(await page.locator("#record").textContent(), /1\. Lb4-b3/);
    await page.click("#undo");
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("Sente"));
    await page.locator("#moves button").first().click();
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("Gote"));
    const asked = query("lions.db", await page.inputValue("#notation"));
    assert.equal((await status(page)).outcome, asked.outcome);
    await clean(page, "dobutsu");
    await shot(page, "dobutsu-lions");
    // The lion captured on the board (the game over has no board: the
    // squares come from the move's name); the game says how it ended, and
    // the chart gives Sente the loss.
    await ready(page, `${url}#${encodeURIComponent("3/3/2l/L2 b -")}`);
    await page.click('#board g.place[aria-label^="b3:"]');
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("Gote"));
    // Gote's answer on the same square, as a person clicks it: not within a
    // double click's quarter of a second.
    await page.waitForTimeout(300);
    await page.click('#board g.place[aria-label^="b3:"]');
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("Game over: a lion is captured"));
    assert.match(await page.locator("#record").textContent(), /Lc3xb3/);
    // The same two clicks on one square as a quick recapture: the second
    // click (its count 2, as a browser counts a double click) comes 0.3 s
    // after the first and is played, not dropped as a double click's.
    await ready(page, `${url}#${encodeURIComponent("3/3/2l/L2 b -")}`);
    const clickB3 = (detail) => page.locator('#board g.place[aria-label^="b3:"]').dispatchEvent("click", { detail, bubbles: true });
    await clickB3(1);
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("Gote"));
    await page.waitForTimeout(300);
    await clickB3(2);
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("Game over: a lion is captured"));
    assert.equal(await page.getAttribute("#chart g.point >> nth=2", "data-outcome"), "lose");
    checks += 4;
  }

  // Pieces in hand: their drops show while nothing is picked up; the lion
  // picked up shows its own moves only; two pieces that can drop on one
  // square ask which, and the question goes when the position does.
  {
    const url = await serve("hand.db");
    const page = await newPage(DESKTOP);
    await ready(page, url);
    const start = query("hand.db", "1l1/3/3/1L1 b EC");
    // Nothing picked up: the lion and the two pieces in hand can be.
    assert.equal(await page.locator("#board g.selected").count(), 0);
    assert.equal(await page.locator("#board g.target").count(), 0);
    assert.equal(await page.locator("#board g.from").count(), 3);
    const best = (name, kind) => start.moves.filter((m) => (kind === "L" ? m.move === `Lb4-${name}` : m.move === `${kind}*${name}`))[0];
    // The elephant picked up from the hand: every empty square, each
    // coloured by the drop's value.
    await page.click('#board g.place[aria-label^="Sente\'s hand, elephant 1:"]');
    assert.equal(await page.locator("#board g.target").count(), 10);
    for (const g of await page.locator("#board g.target").all()) {
      const name = (await g.getAttribute("aria-label")).split(":")[0];
      assert.ok((await g.getAttribute("class")).includes(best(name, "E").outcome), name);
    }
    // The lion picked up: its 5 squares, each coloured by the lion's move.
    await page.click('#board g.place[data-piece="first|L|Sente\'s lion"]');
    assert.equal(await page.locator("#board g.target").count(), 5);
    for (const g of await page.locator("#board g.target").all()) {
      const name = (await g.getAttribute("aria-label")).split(":")[0];
      const m = best(name, "L");
      assert.ok(m, name);
      assert.equal(await g.locator(".hint").textContent(), `${m.outcome[0].toUpperCase()}${m.remoteness}`, name);
    }
    // A change of the window's size keeps it picked up.
    await page.setViewportSize({ width: 1280, height: 700 });
    assert.equal(await page.locator("#board g.selected").count(), 1);
    await page.setViewportSize(DESKTOP);
    // Esc puts it back.
    await page.locator("body").press("Escape");
    assert.equal(await page.locator("#board g.target").count(), 0);
    // The chick dropped: from the hand to a3, by two clicks.
    await page.click('#board g.place[aria-label^="Sente\'s hand, chick 1:"]');
    await page.click('#board g.place[aria-label^="a3:"]');
    await page.waitForFunction(() => document.querySelector("#record").textContent.includes("C*a3"));
    assert.match(await page.locator("#record").textContent(), /^start1\. C\*a3$/);
    assert.equal(await page.locator('#board g.place[aria-label^="Sente\'s hand, chick 1:"] .stone').count(), 0);
    assert.equal(await page.getAttribute('#board g.place[aria-label^="a3:"]', "data-piece"), "first|C|Sente's chick");
    // Best play and back: the hand as it was.
    await page.locator("body").press("ArrowLeft");
    assert.equal(await page.locator("#board g.place[aria-label^=\"Sente's hand\"] .stone").count(), 2);
    await page.locator("body").press("b");
    await page.waitForFunction(() => document.querySelectorAll("#record button").length === 2);
    await clean(page, "dobutsu with pieces in hand");
    await shot(page, "dobutsu-hand");
    // Gote's piece on a square the lion can take: a target with its stone.
    await ready(page, `${url}#${encodeURIComponent("1l1/1c1/1L1/3 b E")}`);
    await page.click('#board g.place[data-piece="first|L|Sente\'s lion"]');
    assert.ok(await page.locator("#board g.target .stone.second").count() > 0);
    await clean(page, "a Gote piece to capture");
    checks += 6;
  }

  // Dots and boxes: a line clicked on the board is played; a box keeps the
  // turn.
  {
    const url = await serve("dots.db");
    const page = await newPage(DESKTOP);
    await ready(page, url);
    const before = await page.inputValue("#notation");
    // Drawn as dots, sides and boxes: no board as text.
    assert.equal(await page.locator("#board table").count(), 0);
    assert.equal(await page.locator("#board svg.drawn g.place").count(), 2 + 6 + 7);
    assert.equal(await page.locator("#board g.place.target").count(), 7);
    await page.click("#board g.place.target >> nth=0");
    await page.waitForFunction((p) => document.getElementById("notation").value !== p, before);
    assert.equal(await page.locator("#record button").count(), 2);
    assert.equal(await page.locator("#board .bar").count(), 1);
    // Best play to the end: both boxes taken and filled, the game over
    // says by whom.
    for (let i = 0; i < 10 && !(await status(page)).text.startsWith("Game over"); i++) {
      const k = await page.locator("#record button").count();
      await page.click("#best");
      await page.waitForFunction((m) => document.querySelectorAll("#record button").length > m, k);
    }
    assert.equal(await page.locator("#board .bar").count(), 7);
    assert.equal(await page.locator("#board .token.none").count(), 2);
    assert.match((await status(page)).text, /^Game over: every box taken, (2 to 0: player [01] wins|1 each: a tie)$/);
    await shot(page, "dots-and-boxes");
    // On a phone every side is a band at least 24 px wide to tap.
    const phone = await newPage(PHONE);
    await ready(phone, url);
    const sides = await phone.locator("#board g.place.target").evaluateAll((gs) => gs.map((g) => {
      const r = g.getBoundingClientRect();
      return Math.min(r.width, r.height);
    }));
    assert.ok(sides.length === 7 && Math.min(...sides) >= 24, sides.join(","));
    await clean(phone, "dots and boxes on a phone");
    // 142 positions: a tangle drawn whole, so drawn a step at a time.
    assert.match(await page.textContent("#untraced"), /too many to draw at once/);
    await clean(page, "dots and boxes");
    checks += 7;
  }

  // The cop and the thief on a small board: drawn, played, and its solve
  // on the board.
  {
    const url = await serve("corridor.db");
    const page = await newPage(DESKTOP);
    await ready(page, url);
    assert.equal((await status(page)).text, "the cop to move: win in 11");
    assert.equal(await page.locator("#board table.board td").count(), 7);
    // The cop's squares coloured: it is the only piece that moves. Its own
    // square is the move that stays; clicked, it is played.
    assert.equal(await page.locator("#board td.target").count(), 2);
    await page.click("#board td[data-piece=P]");
    await statusIs(page, `the thief to move: ${query("corridor.db", "cop 1,1 thief 1,7 thief").outcome === "lose" ? "loss" : "win"} in ${query("corridor.db", "cop 1,1 thief 1,7 thief").remoteness}`);
    assert.match(await page.locator("#record").textContent(), /1\. stay/);
    await page.click("#undo");
    assert.equal(await page.isVisible("#lesson"), true);
    await page.click("#last");
    assert.equal(await page.locator("#lesson td[data-status=open]").count(), 0);
    // The end: nothing stays lit (the last step read a move backwards).
    assert.match(await page.textContent("#explain"), /^The move .*The end/);
    assert.equal(await page.locator("#lesson td.current, #lesson td.lit").count(), 0);
    await clean(page, "corridor");
    checks += 3;
  }

  // The lesson with draws: the cop on one side of a wall, the thief on the
  // other. Pick the cop's square and whose turn it is; squares turn as the
  // pass reaches them; the draws last.
  {
    const url = await serve("apart.db");
    const page = await newPage(DESKTOP);
    await ready(page, url);
    const squares = page.locator("#lesson td.pos");
    assert.equal(await squares.count(), 12);
    // With its default settings the board follows the solver: every "Next
    // decision" changes what it shows, to the end.
    assert.equal(await page.isChecked("#follow"), true);
    let presses = 0;
    for (let before = await lessonShown(page); !(await page.textContent("#explain")).includes("The end"); presses++) {
      await page.click("#next");
      const now = await lessonShown(page);
      assert.notEqual(now, before, `press ${presses + 1}: ${await page.textContent("#explain")}`);
      before = now;
    }
    assert.ok(presses > 5, `${presses} decisions`);
    // The scrubber goes to any step, and back to the start.
    await page.$eval("#scrub", (e) => { e.value = "3"; e.dispatchEvent(new Event("input")); });
    assert.equal(await page.getAttribute("#stepinfo", "data-step"), "3");
    await page.click("#first");
    assert.equal(await page.inputValue("#scrub"), "0");
    // Before the set-up every square is undecided; after it the counters.
    assert.equal(await page.locator("#lesson td[data-status=open]").count(), 12);
    await page.click("#step");
    const counters = await page.locator("#lesson td[data-status=open]").allTextContents();
    assert.ok(counters.every((c) => /^\d+$/.test(c)), counters.join(","));
    // The thief's turn, the cop moved to 2,2.
    await page.click("#turn-thief");
    await page.click('#lesson td[data-cell="2,2"]');
    assert.equal(await page.getAttribute("#turn-thief", "aria-pressed"), "true");
    const look = (id) => page.locator(id).evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.notEqual(await look("#turn-thief"), await look("#turn-cop"));
    assert.match(await page.textContent("#lesson-caption"), /The cop on 2,2, the thief to move/);
    // Decision by decision, squares only turn from undecided to decided.
    let decided = await page.locator("#lesson td.pos:not([data-status=open])").count();
    for (let i = 0; i < 400 && !(await page.textContent("#explain")).includes("The end"); i++) {
      await page.click("#next");
      const now = await page.locator("#lesson td.pos:not([data-status=open])").count();
      assert.ok(now >= decided);
      decided = now;
    }
    assert.match(await page.textContent("#explain"), /never decided are draws.*The end/);
    assert.ok(await page.locator("#lesson td[data-status=draw]").count() > 0);
    for (const td of await squares.all()) {
      const thief = await td.getAttribute("data-cell");
      let q;
      try { q = query("apart.db", `cop 2,2 thief ${thief} thief`); } catch { continue; }
      assert.equal(await td.getAttribute("data-status"), q.outcome, `thief on ${thief}`);
      assert.equal(await td.evaluate((e) => e.childNodes[e.childNodes.length - 1].textContent), q.remoteness === null ? q.outcome[0].toUpperCase() : `${q.outcome[0].toUpperCase()}${q.remoteness}`);
    }
    await clean(page, "the lesson with draws");
    checks += 5;
  }

  // An open 12 x 12 board: 41,472 positions, the steps loaded on demand;
  // the queue as chips, following the solver, every square right at the end.
  {
    const url = await serve("open12.db");
    for (const [viewport, name] of [[DESKTOP, "cop-thief-lesson"], [PHONE, "cop-thief-lesson-phone"]]) {
      const page = await newPage(viewport);
      await ready(page, url);
      await page.click("#load");
      await page.waitForSelector("#lesson td.pos", { timeout: 60000 });
      assert.equal(await page.locator("#lesson td.pos").count(), 144);
      // The first fifty decisions, each seen on the board as it is.
      for (let i = 0, before = await lessonShown(page); i < 50; i++) {
        await page.click("#next");
        const now = await lessonShown(page);
        assert.notEqual(now, before, `press ${i + 1}: ${await page.textContent("#explain")}`);
        before = now;
      }
      await page.click("#first");
      await page.click("#step");
      for (let i = 0; i < 6; i++) await page.click("#next");
      assert.ok(await page.locator("#chips .chip").count() > 0);
      await page.check("#follow");
      for (let i = 0; i < 3; i++) await page.click("#next");
      // Following: the board shows the slice of the position decided last.
      const explain = await page.textContent("#explain");
      const m = /^The move cop (\d+,\d+) thief \d+,\d+ (cop|thief) \u2192/.exec(explain);
      assert.ok(m, explain);
      assert.match(await page.textContent("#lesson-caption"), new RegExp(`^The cop on ${m[1]}, the ${m[2]} to move`));
      await clean(page, name);
      await shot(page, name);
      if (viewport === PHONE) continue;
      // A chip clicked shows its position, and the board stops following.
      const chip = page.locator("#chips .chip").last();
      const [, cop, side] = /^P(\d+,\d+) T\S+ (cop|thief)/.exec(await chip.textContent());
      await chip.click();
      assert.equal(await page.isChecked("#follow"), false);
      assert.match(await page.textContent("#lesson-caption"), new RegExp(`^The cop on ${cop}, the ${side} to move`));
      await page.uncheck("#follow");
      await page.click("#turn-cop");
      await page.click('#lesson td[data-cell="6,7"]');
      await page.click("#last");
      const all = await page.locator("#lesson td.pos").evaluateAll((ts) => ts.map((t) => [t.dataset.cell, t.dataset.status]));
      for (const [thief, s] of all.filter((_, i) => i % 7 === 0)) {
        const q = query("open12.db", `cop 6,7 thief ${thief} cop`);
        assert.equal(s, q.outcome, `thief on ${thief}`);
      }
    }
    checks += 6;
  }

  // Nine Men's Morris drawn as its board: three squares of points and
  // their lines, stones placed and moved by clicking the points; on a
  // phone every point at least 24 px to tap. Played to its end by the
  // best moves: the game over names the winner.
  {
    const url = await serve("morris3/0.3-0.3.db");
    for (const [viewport, name] of [[DESKTOP, "nine-mens-morris"], [PHONE, "nine-mens-morris-phone"]]) {
      const page = await newPage(viewport);
      await ready(page, url);
      assert.equal((await status(page)).text, "white to move: win in 23");
      assert.equal(await page.locator("#board table").count(), 0, "no board as text");
      assert.equal(await page.locator("#board svg.drawn g.place").count(), 24);
      assert.equal(await page.locator("#board svg.drawn line.rule").count(), 32);
      assert.match(await page.textContent("#board .notes"), /White to move; in hand: White 3, Black 3/);
      // Every empty point takes a stone: a target with its value.
      assert.equal(await page.locator("#board g.place.target").count(), 24);
      assert.equal(await page.locator("#board g.place.target text.hint").count(), 24);
      const sizes = await page.locator("#board g.place").evaluateAll((gs) => gs.map((g) => {
        const r = g.getBoundingClientRect();
        return Math.min(r.width, r.height);
      }));
      assert.ok(Math.min(...sizes) >= 24, `smallest point to tap: ${Math.min(...sizes)} px`);
      if (viewport === DESKTOP) {
        // Values hidden: no tag and no colour on the points; the board
        // flipped turns, its letters upright; a point taken by the keyboard
        // plays its move; Undo back.
        await page.check("#hide-values");
        assert.equal(await page.locator("#board text.hint").count(), 0);
        assert.equal(await page.locator("#board g.place.target.win, #board g.place.target.lose").count(), 0);
        assert.equal(await page.locator("#board g.place.target").count(), 24);
        await page.uncheck("#hide-values");
        assert.equal(await page.locator("#board text.hint").count(), 24);
        await page.click("#flip");
        assert.notEqual(await page.locator("#board svg.drawn").evaluate((e) => getComputedStyle(e).transform), "none");
        await page.click("#flip");
        await page.focus('#board g.place[data-cell="0,0"]'); // a7
        await page.keyboard.press("Enter");
        await page.waitForFunction(() => document.querySelectorAll("#board .stone.first").length === 1);
        assert.match(await page.locator("#record").textContent(), /1\. a7/);
        await page.click("#undo");
        await page.waitForFunction(() => document.querySelectorAll("#board .stone").length === 0);
      }
      // A point clicked places a white stone there; its name is the move.
      await page.click('#board g.place[data-cell="0,1"]'); // d7
      await page.waitForFunction(() => document.querySelectorAll("#board .stone.first").length === 1);
      assert.match(await page.locator("#record").textContent(), /1\. d7/);
      assert.equal(await page.getAttribute('#board g.place[aria-label="d7: white stone"]', "data-last"), "true");
      assert.match((await status(page)).text, /^black to move/);
      assert.equal(query("morris3/0.3-0.3.db", await page.inputValue("#notation")).outcome, (await status(page)).outcome);
      // On to the end by the best moves, moving stones and taking them.
      for (let i = 0; i < 60 && !(await status(page)).text.startsWith("Game over"); i++) {
        const n = await page.locator("#record button").count();
        await page.click("#best");
        await page.waitForFunction((k) => document.querySelectorAll("#record button").length > k, n);
      }
      assert.match((await status(page)).text, /^Game over: (black|white) (has fewer than three stones|cannot move): (white|black) wins$/);
      await clean(page, name);
      await shot(page, name);
    }
    checks += 9;
  }

  // The tutorial's game, not built in, from its own binary: its board drawn,
  // a move played, the value shown is its query's.
  {
    const morris = process.env.MORRIS_BIN;
    const url = await serve("morris.db", { by: morris });
    const page = await newPage(DESKTOP);
    await ready(page, url);
    assert.equal((await status(page)).text, "X to move: win in 9");
    // Drawn from its drawing: nine points and the lines between them.
    assert.equal(await page.locator("#board svg.drawn g.place").count(), 9);
    assert.equal(await page.locator("#board svg.drawn line.rule").count(), 16);
    assert.equal(await page.locator("#moves button").count(), 9);
    await page.locator("#moves button").first().click();
    await page.waitForFunction(() => document.getElementById("status-text").textContent.startsWith("O"));
    const asked = query("morris.db", await page.inputValue("#notation"), morris);
    assert.equal((await status(page)).outcome, asked.outcome);
    assert.equal(await page.locator("#board .stone.first").count(), 1);
    assert.equal(await page.locator("#board text.symbol.first").textContent(), "X");
    await clean(page, "the tutorial's game");
    await shot(page, "morris");
    checks += 4;
  }
  console.log(`browser: ${checks} checks passed; screenshots in ${artifacts}`);
} finally {
  for (const s of servers) s.kill();
  await browser.close();
}
