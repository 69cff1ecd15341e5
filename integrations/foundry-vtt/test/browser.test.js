// The chat card in a real browser: headless Chromium (Debian's, driven by playwright-core) loads the
// release's module the way Foundry serves it (/modules/wurfwerk/…) on a page with the fake Foundry
// globals, from an origin other than the service's (so CORS is real), rolls three operations with /ww,
// renders the cards like Foundry's chat log, clicks Verify and sees ✓, then ✗ after tampering.
// The screenshot of the cards is the README's picture (WURFWERK_SCREENSHOT names where to write it);
// an advice card is rendered and verified the same way (WURFWERK_ADVICE_SCREENSHOT: its picture).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { needing } from "./needs.js";

const { test, before, after } = needing("WURFWERK_FOUNDRY_RELEASE", "WURFWERK_URL");
const release = process.env.WURFWERK_FOUNDRY_RELEASE ?? "";
const serviceUrl = process.env.WURFWERK_URL ?? "";
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const screenshotPath = process.env.WURFWERK_SCREENSHOT;
const adviceScreenshotPath = process.env.WURFWERK_ADVICE_SCREENSHOT;
const testFolder = fileURLToPath(new URL(".", import.meta.url));

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>wurfwerk cards</title>
<link rel="stylesheet" href="/modules/wurfwerk/styles/wurfwerk.css">
<style>
  /* Enough of Foundry's chat sidebar to look like it: a narrow parchment column of messages. */
  body { margin: 0; background: #302831; font-family: "Signika", "DejaVu Sans", sans-serif; font-size: 14px; }
  #chat-log { width: 300px; margin: 0; padding: 6px; list-style: none; background: #e8e2d5; }
  .chat-message { margin: 6px 0; padding: 6px; border: 2px solid #c9c7b8; border-radius: 5px; background: #f3efe6; color: #191813; }
  .message-header { font-weight: bold; margin-bottom: 4px; color: #4b4a44; }
  button { font: inherit; border: 2px groove #c9c7b8; background: #e1ddd3; border-radius: 3px; cursor: pointer; }
</style></head>
<body><ol id="chat-log"></ol>
<script type="module">
  import { installFakeFoundry, waitFor } from "/test/fake-foundry.js";
  const translations = await (await fetch("/modules/wurfwerk/lang/en.json")).json();
  const fake = installFakeFoundry({ translations, document });
  await import("/modules/wurfwerk/scripts/wurfwerk.js");
  Hooks.callAll("init");
  await game.settings.set("wurfwerk", "serviceUrl", ${JSON.stringify(serviceUrl)});
  /** Type a chat line and render what the module posted, the way Foundry's chat log shows messages. */
  window.typeInChat = async (line) => {
    const before = fake.messages.length;
    if (Hooks.call("chatMessage", {}, line, {}) !== false) throw new Error("the module did not take " + line);
    await waitFor(() => fake.messages.length > before);
    const message = fake.messages.at(-1);
    const item = document.createElement("li");
    item.className = "chat-message message";
    item.dataset.messageId = message.id;
    item.innerHTML = '<header class="message-header">' + (message.speaker?.alias ?? "") + '</header><div class="message-content">' + message.content + "</div>";
    document.getElementById("chat-log").append(item);
    return { id: message.id, whisper: message.whisper ?? null };
  };
  window.tamper = (id) => {
    const message = game.messages.get(id);
    const response = JSON.parse(message.flags.wurfwerk.response);
    response.summary += " (edited)";
    message.flags.wurfwerk.response = JSON.stringify(response);
  };
  window.ready = true;
</script></body></html>`;

/** @param {string} root @param {string} path */
async function serveFile(root, path) {
  const file = normalize(join(root, path));
  if (!file.startsWith(normalize(root))) return null;
  return readFile(file).catch(() => null);
}

const server = createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
  let body = null;
  if (path === "/") body = Buffer.from(PAGE);
  else if (path.startsWith("/modules/wurfwerk/"))
    body = await serveFile(release, path.slice("/modules/wurfwerk/".length));
  else if (path.startsWith("/test/")) body = await serveFile(testFolder, path.slice("/test/".length));
  if (body === null) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    "Content-Type": TYPES[/** @type {keyof TYPES} */ (extname(path) || ".html")] ?? "application/octet-stream",
  });
  response.end(body);
});

/** @type {import("playwright-core").BrowserContext} */
let context;
/** @type {import("playwright-core").Page} */
let page;
/** @type {string} */
let profile;
/** @type {string[]} */
const pageErrors = [];

before(async () => {
  profile = mkdtempSync(join(tmpdir(), "wurfwerk-chromium-"));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  // A fresh profile directory per run (--user-data-dir), removed afterwards.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 420, height: 900 },
    deviceScaleFactor: 2,
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  await page.goto(`http://127.0.0.1:${address.port}/`);
  await page.waitForFunction(() => /** @type {any} */ (window).ready === true, null, { timeout: 60000 });
  assert.notEqual(new URL(serviceUrl).port, String(address.port), "the page and the service are different origins");
});

after(async () => {
  await context?.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
});

const LINES = [
  "/ww paws.test rank=3 name=Ryan seed=7",
  "/ww beutelschneider.challenge bag.red=9 bag.green=6 bag.white=5 ability=combat difficulty=easy seed=3",
  "/ww malmsturm.action skill=2 difficulty=1 seed=11",
];

test("three cards from the live service, pictures loaded, each receipt verified ✓ in Chromium", async () => {
  /** @type {{id: string, whisper: string[] | null}[]} */
  const posted = [];
  for (const line of LINES)
    posted.push(await page.evaluate((chatLine) => /** @type {any} */ (window).typeInChat(chatLine), line));
  assert.deepEqual(
    posted.map((message) => message.whisper),
    [null, null, null],
    "cards, not whispered problems",
  );

  const cards = page.locator(".wurfwerk-card");
  assert.equal(await cards.count(), 3);
  const operations = await cards.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute("data-operation")),
  );
  assert.deepEqual(operations, ["paws.test", "beutelschneider.challenge", "malmsturm.action"]);
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  const broken = await page.evaluate(() =>
    [...document.images].filter((image) => image.naturalWidth === 0).map((image) => image.src),
  );
  assert.deepEqual(broken, [], "every die and marble picture loads");
  assert.ok((await page.locator("img.wurfwerk-die").count()) >= 3 + 4, "d6 and dF faces as pictures");
  assert.ok((await page.locator("img.wurfwerk-marble").count()) >= 1, "marbles as pictures");

  const links = await page
    .locator("a.wurfwerk-play")
    .evaluateAll((elements) => elements.map((element) => element.getAttribute("href")));
  for (const link of links) assert.ok(link?.startsWith(`${serviceUrl}/play?operation=`), link ?? "");

  for (let index = 0; index < 3; index++) {
    await cards.nth(index).locator("button.wurfwerk-verify").click();
    const verdict = cards
      .nth(index)
      .locator(".wurfwerk-verdict[data-state='valid'], .wurfwerk-verdict[data-state='invalid']");
    await verdict.waitFor({ timeout: 60000 });
    assert.equal(await verdict.textContent(), "✓ signature valid", `card ${index + 1}`);
  }
  assert.deepEqual(pageErrors, []);

  const picture = await page.locator("#chat-log").screenshot({ path: screenshotPath });
  assert.deepEqual([...picture.subarray(1, 4)], [...Buffer.from("PNG")]);
  assert.ok(picture.length > 20000, `a real picture, not a blank one (${picture.length} bytes)`);
});

test("the card's link opens the service's /play page with the same request", async () => {
  const link = await page.locator("a.wurfwerk-play").first().getAttribute("href");
  const play = await context.newPage();
  try {
    await play.goto(link ?? "");
    await play.waitForFunction(
      () => /** @type {HTMLInputElement | null} */ (document.querySelector('[data-path="rank"]'))?.value === "3",
      null,
      { timeout: 90000 },
    );
    assert.equal(await play.locator('[data-testid="operation"]').inputValue(), "paws.test");
    assert.equal(await play.locator('[data-path="name"]').inputValue(), "Ryan");
  } finally {
    await play.close();
  }
});

test("after tampering with the stored response, Verify shows ✗", async () => {
  const first = page.locator(".chat-message").first();
  const id = await first.getAttribute("data-message-id");
  await page.evaluate((messageId) => /** @type {any} */ (window).tamper(messageId), id);
  await first.locator("button.wurfwerk-verify").click();
  const verdict = first.locator(".wurfwerk-verdict[data-state='invalid']");
  await verdict.waitFor({ timeout: 60000 });
  assert.equal(await verdict.textContent(), "✗ signature invalid: the signature does not match the document");
});

const ADVICE_LINE =
  "/ww encounter malmsturm advice Helden sides.0.name=Helden sides.0.members.0.name=Alrik " +
  'sides.0.members.0.attack={"skill":3,"type":"harm"} sides.0.members.0.defense=2 ' +
  'sides.0.members.0.stress={"physical":{"current":4,"max":4},"mental":{"current":3,"max":3}} ' +
  'sides.1.name=Orks sides.1.members.0.name=Ork sides.1.members.0.attack={"skill":2,"type":"harm"} ' +
  'sides.1.members.0.defense=1 sides.1.members.0.stress={"physical":{"current":3,"max":3},"mental":{"current":2,"max":2}} ' +
  "policy.targeting=spread";

test("an advice card: the best choices as a table in the chat column, marked, the rules, Verify ✓", async () => {
  const posted = await page.evaluate((chatLine) => /** @type {any} */ (window).typeInChat(chatLine), ADVICE_LINE);
  assert.equal(posted.whisper, null, "a card, not a whispered problem");
  const card = page.locator(".wurfwerk-card[data-operation='malmsturm.encounter.advice']");
  await card.waitFor();
  const rows = card.locator("table.wurfwerk-advice tbody tr[data-rank]");
  assert.equal(await rows.count(), 8, "the best 8 of the 12 fixed choices (the default is among them)");
  const tags = await rows.evaluateAll((elements) =>
    elements.map((row) => [...row.querySelectorAll(".wurfwerk-tag")].map((tag) => tag.textContent)),
  );
  // the default is the documented one (all attacks on one), not the line's policy.targeting=spread
  assert.deepEqual(tags.slice(0, 4), [["best", "default"], ["equally good"], ["equally good"], ["equally good"]]);
  assert.deepEqual(
    await rows.first().locator("th").evaluate((cell) => cell.querySelector(".wurfwerk-advice-policy")?.textContent),
    "never concede, defend, all attacks on one",
  );
  assert.equal(await card.locator(".wurfwerk-advice-more").textContent(), "4 more choices not shown.");
  assert.ok((await card.locator(".wurfwerk-rules li").count()) >= 1, "the service's rules");
  assert.match(await card.locator(".wurfwerk-advice-honest").textContent() ?? "", /it never changes a roll\.$/);
  const overflow = await card.evaluate((element) => element.scrollWidth - element.clientWidth);
  assert.ok(overflow <= 0, `the table fits Foundry's chat column (${overflow}px too wide)`);
  const tagColour = await rows.first().locator(".wurfwerk-tag-best").evaluate((tag) => getComputedStyle(tag).backgroundColor);
  assert.notEqual(tagColour, "rgba(0, 0, 0, 0)", "the module's stylesheet styles the tags");

  await card.locator("button.wurfwerk-verify").click();
  const verdict = card.locator(".wurfwerk-verdict[data-state='valid'], .wurfwerk-verdict[data-state='invalid']");
  await verdict.waitFor({ timeout: 60000 });
  assert.equal(await verdict.textContent(), "✓ signature valid");
  assert.deepEqual(pageErrors, []);
  const picture = await page.locator(".chat-message").last().screenshot({ path: adviceScreenshotPath });
  assert.deepEqual([...picture.subarray(1, 4)], [...Buffer.from("PNG")]);
});

test("the same advice card in German words fits the chat column too (longer words, no overflow)", async () => {
  const [overflow, caption, heads] = await page.evaluate(async () => {
    const { renderCard } = await import("/modules/wurfwerk/scripts/card.js");
    /** @type {Record<string, string>} */
    const de = await (await fetch("/modules/wurfwerk/lang/de.json")).json();
    const t = (/** @type {string} */ key, /** @type {Record<string, any>} */ data = {}) =>
      de[key].replace(/\{(\w+)\}/g, (_, name) => String(data[name]));
    const game = /** @type {any} */ (globalThis).game;
    const stored = game.messages.contents.at(-1).flags.wurfwerk.response;
    const item = document.createElement("li");
    item.className = "chat-message message";
    item.innerHTML = `<div class="message-content">${renderCard(JSON.parse(stored), { t, link: null })}</div>`;
    /** @type {HTMLElement} */ (document.getElementById("chat-log")).append(item);
    const card = /** @type {HTMLElement} */ (item.querySelector(".wurfwerk-card"));
    return [
      card.scrollWidth - card.clientWidth,
      card.querySelector("caption")?.textContent,
      [...card.querySelectorAll("thead th")].map((head) => head.textContent),
    ];
  });
  assert.ok(Number(overflow) <= 0, `the German card fits Foundry's chat column (${overflow}px too wide)`);
  assert.match(String(caption), /^Feste Wahlen, die beste zuerst: die Siegchance jeder Wahl/);
  assert.deepEqual(heads, ["Wahl", "Chance", "Abstand"]);
  assert.deepEqual(pageErrors, []);
});
