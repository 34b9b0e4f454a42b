// End-to-end tests of `retrograde serve` in a real browser: Debian's Chromium
// driven by playwright-core. Run by crates/retrograde-cli/tests/browser.rs,
// which makes the databases and passes:
//   RETROGRADE_BIN  the binary under test
//   MORRIS_BIN      the tutorial's own binary (crates/retrograde-cli/examples/morris.rs)
//   WORK            a directory with ttt.db, krk.db, chase.db, chase.txt, walk.db, corridor.db, lions.db,
//                   morris.db (the tutorial's game)
//   ARTIFACTS       where the screenshots go
//   CHROMIUM        the browser (default /usr/bin/chromium)
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";
import path from "node:path";

const bin = process.env.RETROGRADE_BIN;
const work = process.env.WORK;
const artifacts = process.env.ARTIFACTS;

/** Starts `retrograde serve FILE --port 0` (or `by`'s); resolves to its address. */
function serve(file, by = bin) {
  const child = spawn(by, ["serve", path.join(work, file), "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (url) => resolve({ url, child }));
    child.once("exit", (code) => reject(new Error(`serve ${file} exited ${code}`)));
  });
}

/** What `retrograde query DB POSITION --json` (or `by`'s) says. */
function query(db, position, by = bin) {
  return JSON.parse(execFileSync(by, ["query", path.join(work, db), position, "--json"], { encoding: "utf8" }));
}

async function ready(page, url) {
  await page.goto(url);
  await page.waitForSelector("body[data-ready]");
  assert.equal(await page.getAttribute("body", "data-ready"), "true", await page.textContent("#error"));
}

async function status(page) {
  const s = page.locator("#status");
  const r = await s.getAttribute("data-remoteness");
  return { outcome: await s.getAttribute("data-outcome"), remoteness: r === "" ? null : Number(r), text: await s.textContent() };
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
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });

  // Tic-tac-toe: click a move, the value shown is query's; undo comes back.
  {
    const s = await serve("ttt.db"); servers.push(s);
    await ready(page, s.url);
    assert.deepEqual(await status(page), { outcome: "tie", remoteness: 9, text: "X to move: tie in 9" });
    const moves = page.locator("#moves button");
    assert.equal(await moves.count(), 9);
    const corner = moves.nth(0);
    const to = await corner.getAttribute("data-position");
    await corner.click();
    await page.waitForFunction((p) => document.getElementById("notation").value === p, to);
    const shown = await status(page);
    const asked = query("ttt.db", to);
    assert.equal(shown.outcome, asked.outcome);
    assert.equal(shown.remoteness, asked.remoteness);
    assert.equal(await page.locator("#history span").count(), 2);
    // Every move's colour is its value for the mover, as query says.
    const buttons = await page.locator("#moves button").all();
    assert.equal(buttons.length, asked.moves.length);
    for (const [i, b] of buttons.entries()) {
      assert.equal(await b.getAttribute("data-outcome"), asked.moves[i].outcome);
      assert.equal(await b.evaluate((e) => getComputedStyle(e).backgroundColor),
        { win: "rgb(0, 158, 115)", lose: "rgb(213, 94, 0)", tie: "rgb(0, 114, 178)", draw: "rgb(230, 159, 0)" }[asked.moves[i].outcome]);
    }
    await page.screenshot({ path: path.join(artifacts, "tic-tac-toe.png"), fullPage: true });
    await page.click("#undo");
    await page.waitForFunction(() => document.getElementById("status").textContent === "X to move: tie in 9");
    checks += 4;
  }

  // Chess: a position from the address, the board drawn, the best move played.
  {
    const s = await serve("krk.db"); servers.push(s);
    const fen = "8/8/8/8/8/2k5/8/R1K5 w - - 0 1";
    await ready(page, `${s.url}#${encodeURIComponent(fen)}`);
    assert.equal((await status(page)).text, "white to move: win in 25");
    assert.equal(await page.locator("table.board td.light, table.board td.dark").count(), 64);
    assert.equal(await page.locator("table.board td[data-piece=R]").textContent(), "\u2656");
    await page.click("#best");
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("black"));
    const after = await page.inputValue("#notation");
    const asked = query("krk.db", after);
    assert.equal((await status(page)).text, `black to move: ${asked.outcome} in ${asked.remoteness}`);
    assert.equal(asked.remoteness, 24);
    await page.screenshot({ path: path.join(artifacts, "chess-krk.png"), fullPage: true });
    checks += 3;
  }

  // A graph served from its edge list: the animation stepped to the end and back.
  {
    const s = await serve("chase.txt"); servers.push(s);
    await ready(page, s.url);
    assert.equal(await page.isVisible("#watch"), true);
    const nodes = page.locator("#graph g.node");
    assert.equal(await nodes.count(), 10);
    assert.equal(await page.locator("#graph g.node[data-status=open]").count(), 10);
    await page.click("#last");
    const total = Number(await page.getAttribute("#stepinfo", "data-step"));
    assert.ok(total > 10);
    for (let v = 0; v < 10; v++) {
      const got = await page.getAttribute(`#graph g.node[data-vertex="${v}"]`, "data-status");
      assert.equal(got, query("chase.db", String(v)).outcome, `vertex ${v}`);
    }
    await page.screenshot({ path: path.join(artifacts, "chase-solved.png"), fullPage: true });
    await page.click("#back");
    assert.equal(Number(await page.getAttribute("#stepinfo", "data-step")), total - 1);
    await page.click("#first");
    assert.equal(await page.locator("#graph g.node[data-status=open]").count(), 10);
    // The neighbourhood of vertex 3: a click plays the move.
    await page.fill("#notation", "3");
    await page.click("#goto button[type=submit]");
    await page.waitForFunction(() => document.getElementById("status").textContent.includes("win in 3"));
    await page.locator("#neighbourhood g.move").first().click();
    await page.waitForFunction(() => document.getElementById("notation").value === "0");
    checks += 4;
  }

  // A graph of named vertices: its saved database shows and plays names.
  {
    const s = await serve("walk.db"); servers.push(s);
    await ready(page, `${s.url}#${encodeURIComponent("home")}`);
    assert.equal((await status(page)).text, "the player to move: lose in 2");
    const labels = await page.locator("#neighbourhood text").allTextContents();
    assert.deepEqual(labels.sort(), ["away/far", "home"]);
    await page.locator("#moves button").first().click();
    await page.waitForFunction(() => document.getElementById("notation").value === "away/far");
    assert.equal((await status(page)).text, "the player to move: win in 1");
    assert.equal(decodeURIComponent(new URL(page.url()).hash.slice(1)), "away/far");
    checks += 3;
  }

  // Dōbutsu shōgi from a small start: its 4 x 3 board, Gote's pieces turned.
  {
    const s = await serve("lions.db"); servers.push(s);
    await ready(page, s.url);
    assert.equal((await status(page)).text, "Sente to move: win in 5");
    assert.equal(await page.locator("table.board td:not(.label)").count(), 12);
    assert.equal(await page.locator("table.board td.gote").count(), 1);
    assert.equal(await page.locator("table.board td.sente").count(), 1);
    await page.locator("#moves button").first().click();
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Gote"));
    const asked = query("lions.db", await page.inputValue("#notation"));
    assert.equal((await status(page)).outcome, asked.outcome);
    await page.screenshot({ path: path.join(artifacts, "dobutsu-lions.png"), fullPage: true });
    checks += 3;
  }

  // The cop and the thief on a small board: drawn, and its solve animated.
  {
    const s = await serve("corridor.db"); servers.push(s);
    await ready(page, s.url);
    assert.equal((await status(page)).text, "the cop to move: win in 11");
    assert.equal(await page.locator("table.board td").count(), 7);
    assert.equal(await page.isVisible("#watch"), true);
    await page.click("#last");
    assert.equal(await page.locator("#graph g.node[data-status=open]").count(), 0);
    await page.screenshot({ path: path.join(artifacts, "cop-thief-corridor.png"), fullPage: true });
    checks += 2;
  }
  // The tutorial's game, not built in, from its own binary: its board drawn,
  // a move played, the value shown is its query's.
  {
    const morris = process.env.MORRIS_BIN;
    const s = await serve("morris.db", morris); servers.push(s);
    await ready(page, s.url);
    assert.equal((await status(page)).text, "X to move: win in 9");
    assert.equal(await page.locator("table.board td:not(.label)").count(), 9);
    assert.equal(await page.locator("#moves button").count(), 9);
    await page.locator("#moves button").first().click();
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("O"));
    const asked = query("morris.db", await page.inputValue("#notation"), morris);
    assert.equal((await status(page)).outcome, asked.outcome);
    assert.equal(await page.locator("table.board td.mark-x").count(), 1);
    await page.screenshot({ path: path.join(artifacts, "morris.png"), fullPage: true });
    checks += 4;
  }
  console.log(`browser: ${checks} checks passed; screenshots in ${artifacts}`);
} finally {
  for (const s of servers) s.child.kill();
  await browser.close();
}
