// /play's session panel (sessions v2, issue 48): a player makes a seed here (only its commitment
// leaves the browser), the game master opens a session with each seat's commitment (a name alone is an
// open seat whose key this page receives), picks its length, shares it; each page rolls only the seats
// it holds a seed or key for. After the end: reveal, and "check a session" for a saved or pasted log.
// The check runs in the browser with the JavaScript client's verifySession (every die recomputed here,
// with the seeds this browser holds and those pasted); the luck lines come from POST /v1/sessions/report.
import { makeSeed, seedCommit, verifySession, RevealError, WurfwerkError } from "../client/index.js";

const STORE = "wurfwerk.session";
const SEEDS = "wurfwerk.seeds"; // {commitment: seed}: the seeds made in this browser
const LOG_FORMAT = "wurfwerk-session-log/2";

/** The panel. `page` gives what play.js owns: `t(key, values)`, `element(...)`, `client()`, `lang()`,
 * `seatChanged()` (the seat that rolls changed: its name goes on the card). */
export function sessionPanel(page) {
  const $ = (id) => document.getElementById(id);
  let active = load();
  let revealTimer = null;

  /** The panel's own message, beside it (not at the top of the page), until the next success. */
  function say(text) {
    const box = $("session-error");
    box.textContent = text;
    box.hidden = !text;
    if (text) box.scrollIntoView({ block: "nearest" });
  }

  const clear = () => say("");

  /** A refusal of the service in a player's words: what to do, never a setting's name. */
  function refusal(error) {
    if (!(error instanceof WurfwerkError)) return page.t("server", { status: "?" });
    if (error.status === 0) return page.t("network");
    if (error.status === 401) return page.t("sessionNeedKey");
    if (error.status === 403) return page.t("sessionNotGm");
    if (error.status === 409 && active) {
      return page.t("sessionNotEnded", { time: new Date(active.header.expires_at).toLocaleString(page.lang()) });
    }
    if (error.status >= 500) return page.t("server", { status: error.status });
    const messages = Object.values(error.errors ?? {}).flat().filter((message) => typeof message === "string");
    return page.t("sessionRefused", { detail: messages.length ? messages.join(" ") : error.problem?.detail || error.message });
  }

  function load() {
    try {
      const stored = JSON.parse(localStorage.getItem(STORE) ?? "null");
      return stored?.header?.version === 2 && stored.proofs ? stored : null; // a version 1 session is gone
    } catch {
      return null;
    }
  }

  function save() {
    if (active) localStorage.setItem(STORE, JSON.stringify(active));
    else localStorage.removeItem(STORE);
  }

  function mySeeds() {
    try {
      return JSON.parse(localStorage.getItem(SEEDS) ?? "{}") ?? {};
    } catch {
      return {};
    }
  }

  /** The proof this page holds for each seat it may roll: an open seat's key, or a seed made here. */
  function proofs(header, seatKeys) {
    const seeds = mySeeds();
    const held = {};
    for (const seat of header.seats) {
      if (seatKeys?.[seat]) held[seat] = { seat_key: seatKeys[seat] };
      else if (seeds[header.seat_commits[seat]]) held[seat] = { seed: seeds[header.seat_commits[seat]] };
    }
    return held;
  }

  function ended() {
    return Boolean(active) && Date.now() >= Date.parse(active.header.expires_at);
  }

  /** The seeds of this page's seats, once the session has ended (never before: they would give the dice away). */
  function seedsToShare() {
    if (!ended()) return {};
    return Object.fromEntries(Object.entries(active.proofs).filter(([, proof]) => proof.seed)
      .map(([seat, proof]) => [seat, proof.seed]));
  }

  function seatRoll(card) {
    const use = card.request?.session ?? card.session;
    return page.t("sessionSeatRoll", { seat: use.seat, n: use.index + 1 });
  }

  function render() {
    $("session-closed").hidden = Boolean(active);
    $("session-active").hidden = !active;
    if (!active) return;
    const { header } = active;
    $("session-about").textContent = page.t("sessionAbout", {
      seats: header.seats.join(", "), until: new Date(header.expires_at).toLocaleString(page.lang()),
      commit: header.commit.slice(0, 10) });
    $("session-share").value = JSON.stringify(header);
    const seat = $("session-seat");
    const chosen = seat.value;
    const rollable = header.seats.filter((name) => active.proofs[name]);
    seat.replaceChildren(...rollable.map((name) => page.element("option", { value: name, text: name })));
    if (rollable.includes(chosen)) seat.value = chosen;
    if (!rollable.length) say(page.t("sessionNoSeats"));
    const revealButton = $("session-reveal");
    revealButton.disabled = !ended();
    revealButton.textContent = ended() ? page.t("sessionReveal")
      : page.t("sessionRevealAt", { time: new Date(header.expires_at).toLocaleTimeString(page.lang()) });
    clearTimeout(revealTimer);
    if (!ended()) revealTimer = setTimeout(render, Math.min(Date.parse(header.expires_at) - Date.now() + 50, 60_000));
    $("session-log").replaceChildren(...active.cards.map((card) => page.element("li", {},
      page.element("span", { class: "seat-roll", text: seatRoll(card) }),
      card.request.session.hidden ? page.element("span", { class: "badge", text: page.t("sessionHiddenBadge") }) : null,
      page.element("span", { text: ` ${card.summary ?? ""}` }))));
  }

  function start(header, seatKeys) {
    active = { header, proofs: proofs(header, seatKeys), next: Object.fromEntries(header.seats.map((seat) => [seat, 0])),
      links: Object.fromEntries(header.seats.map((seat) => [seat, null])), cards: [], reveal: null };
    save();
    render();
    page.seatChanged?.();
  }

  /** "Rynn: commitment" or "GM": a seat with its player's commitment, or an open seat. */
  function seatOf(text) {
    const [name, commit] = text.split(":").map((part) => part.trim());
    return commit ? { name, commit } : name;
  }

  async function open() {
    const seats = $("session-seats").value.split(",").map((seat) => seat.trim()).filter(Boolean).map(seatOf);
    const hours = Number($("session-hours").value);
    if (!(hours > 0 && hours <= 168)) {
      say(page.t("sessionBadHours"));
      $("session-hours").focus();
      return;
    }
    try {
      const { session, seat_keys: seatKeys } = await page.client().call("sessions.open", {
        seats, ttl_s: Math.max(1, Math.round(hours * 3600)) });
      clear();
      start(session, seatKeys);
    } catch (error) {
      say(refusal(error));
    }
  }

  function makeMySeed() {
    const name = $("session-my-name").value.trim();
    const seed = makeSeed();
    const commit = seedCommit(seed);
    localStorage.setItem(SEEDS, JSON.stringify({ ...mySeeds(), [commit]: seed }));
    $("session-my-commit").value = `${name || "?"}: ${commit}`;
    clear();
  }

  function join() {
    let header;
    try {
      header = JSON.parse($("session-join-header").value);
      if (!Array.isArray(header?.seats) || typeof header.expires_at !== "string") throw new SyntaxError("header");
    } catch {
      say(page.t("sessionNoHeader"));
      return;
    }
    clear();
    start(header, {});
  }

  /** The seat the next roll is for, when this page may roll it; else null. */
  function seat() {
    const chosen = $("session-seat").value;
    return active?.proofs[chosen] ? chosen : null;
  }

  /** The `session` member for the next roll of the chosen seat, or null outside a session. */
  function member() {
    if (!active) return null;
    const seat = $("session-seat").value;
    if (!active.proofs[seat]) return null;
    const use = { header: active.header, seat, ...active.proofs[seat], index: active.next[seat], prev: active.links[seat] };
    if ($("session-hidden").checked) use.hidden = true;
    return use;
  }

  /** A roll the service refused for its `session` member: said here, beside the panel, in words.
   * Answers whether the refusal was the session's (else the page shows it by the form). */
  function refuseRoll(error) {
    const paths = Object.keys(error?.errors ?? {}).filter((path) => path === "session" || path.startsWith("session."));
    if (!(error instanceof WurfwerkError) || error.status !== 422 || !active || !paths.length) return false;
    if (paths.some((path) => path.endsWith(".expires_at"))) {
      say(page.t("sessionEnded", { time: new Date(active.header.expires_at).toLocaleString(page.lang()) }));
    } else {
      say(page.t("sessionRollRefused", { detail: paths.flatMap((path) => error.errors[path]).join(" ") }));
    }
    return true;
  }

  /** A roll came back: it is the seat's card, the next roll links to it. */
  function record(response) {
    const use = response.request?.session;
    if (!active || !use || use.header.id !== active.header.id) return;
    active.next[use.seat] = use.index + 1;
    active.links[use.seat] = use.hidden ? response.public.signature : response.receipt.signature;
    active.cards.push(response);
    save();
    clear();
    render();
  }

  function logFile() {
    return { format: LOG_FORMAT, session: active.header, reveal: active.reveal, seeds: seedsToShare(),
      cards: active.cards };
  }

  function download() {
    const blob = new Blob([JSON.stringify(logFile(), null, 1)], { type: "application/json" });
    const link = page.element("a", { href: URL.createObjectURL(blob), download: `session-${active.header.id}.json` });
    document.body.append(link);
    link.click();
    link.remove();
  }

  async function reveal() {
    try {
      const { reveal: revealed } = await page.client().call("sessions.reveal", { session: active.header });
      active.reveal = revealed;
      save();
      clear();
      $("check-box").open = true;
      $("check-log").value = JSON.stringify(logFile());
      await check();
    } catch (error) {
      say(refusal(error));
    }
  }

  function leave() {
    clear();
    active = null;
    save();
    render();
  }

  /** A log file, `{reveal, seeds, cards}`, or a plain list of cards, as `{cards, reveal, header, seeds}`. */
  function readLog(text) {
    const log = JSON.parse(text);
    if (Array.isArray(log)) return { cards: log, reveal: null, seeds: {} };
    const cards = Array.isArray(log?.cards) ? log.cards : null;
    if (!cards) throw new SyntaxError("cards");
    return { cards, reveal: log.reveal?.reveal ?? log.reveal ?? null, header: log.session ?? null,
      seeds: log.seeds ?? {} };
  }

  /** Every seed the check can use: the log's, the pasted ones, and this browser's for the session's seats. */
  function seedsFor(header, logSeeds) {
    const text = $("check-seeds").value.trim();
    const pasted = text ? JSON.parse(text) : {};
    if (typeof pasted !== "object" || pasted === null || Array.isArray(pasted)) throw new SyntaxError("seeds");
    const mine = mySeeds();
    const own = Object.fromEntries((header?.seats ?? []).filter((seat) => mine[header.seat_commits?.[seat]])
      .map((seat) => [seat, mine[header.seat_commits[seat]]]));
    return { ...own, ...logSeeds, ...pasted };
  }

  function headerOf(cards) {
    for (const card of cards) {
      const use = card?.request?.session ?? card?.session;
      if (use?.header) return use.header;
    }
    return null;
  }

  function verdictLines(verdict) {
    const lines = [];
    const slot = ({ seat, index }) => page.t("sessionSeatRoll", { seat, n: index + 1 });
    for (const gap of verdict.gaps) {
      lines.push(["bad", gap.from === gap.to ? page.t("sessionGap", { roll: slot({ seat: gap.seat, index: gap.from }) })
        : page.t("sessionGapRange", { seat: gap.seat, from: gap.from + 1, to: gap.to + 1 })]);
    }
    for (const duplicate of verdict.duplicates) {
      lines.push(["bad", page.t(duplicate.repeat ? "sessionRepeat" : "sessionReroll",
        { roll: slot(duplicate), cards: duplicate.cards.map((card) => card + 1).join(", ") })]);
    }
    for (const { card, reason } of verdict.invalid) {
      lines.push(["bad", page.t("sessionInvalid", { card: card + 1, why: page.t(`sessionWhy.${reason}`) })]);
    }
    for (const card of verdict.after_reveal) lines.push(["bad", page.t("sessionAfterReveal", { card: card + 1 })]);
    for (const hidden of verdict.unshown) lines.push(["note", page.t("sessionUnshown", { roll: slot(hidden) })]);
    for (const seat of verdict.unverified) lines.push(["note", page.t("sessionUnverified", { seat })]);
    lines.push(["note", page.t("sessionBlindSpot")]);
    return lines;
  }

  /** Each seat's luck from the service's report; when the service cannot give it, the line says why. */
  async function luckLines(client, body) {
    let lines;
    try {
      const report = await client.call("sessions.report", body);
      lines = report.luck.seats.map((seat) => seat.summary);
    } catch (error) {
      const why = error instanceof WurfwerkError && error.status === 401 ? page.t("luckWhy.key")
        : error instanceof WurfwerkError && error.status === 0 ? page.t("luckWhy.network")
          : page.t("luckWhy.other", { detail: error.problem?.detail || error.message });
      lines = [page.t("sessionNoLuck", { why })];
    }
    return page.element("ul", { class: "luck", "data-testid": "check-luck" },
      ...lines.map((line) => page.element("li", { text: line })));
  }

  async function check() {
    const box = $("check-verdict");
    box.replaceChildren(page.element("p", { text: page.t("loading") }));
    let log;
    try {
      const text = $("check-log").value.trim() || (await $("check-file").files?.[0]?.text()) || "";
      log = readLog(text);
    } catch {
      box.replaceChildren(page.element("p", { class: "bad", text: page.t("sessionNoLog") }));
      return;
    }
    const client = page.client();
    let seeds;
    try {
      seeds = seedsFor(log.header ?? headerOf(log.cards), log.seeds);
    } catch {
      box.replaceChildren(page.element("p", { class: "bad", text: page.t("sessionBadSeeds") }));
      return;
    }
    try {
      let { reveal: revealed } = log;
      if (!revealed) {
        const header = log.header ?? headerOf(log.cards);
        if (!header) throw new RevealError("malformed");
        ({ reveal: revealed } = await client.call("sessions.reveal", { session: header }));
      }
      const jwks = await client.keys();
      const verdict = await verifySession(log.cards, revealed, jwks, { seeds });
      const lines = verdictLines(verdict);
      const head = verdict.complete
        ? page.element("p", { class: "good", "data-testid": "check-complete", text: page.t("sessionComplete", { count: log.cards.length }) })
        : page.element("p", { class: "bad", "data-testid": "check-incomplete", text: page.t("sessionIncomplete") });
      const list = page.element("ul", {}, ...lines.map(([kind, text]) => page.element("li", { class: kind, text })));
      box.replaceChildren(head, list);
      box.scrollIntoView({ block: "nearest" });
      clear();
      box.append(await luckLines(client, { reveal: revealed, seeds, cards: log.cards }));
    } catch (error) {
      if (error instanceof RevealError) {
        box.replaceChildren(page.element("p", { class: "bad", text: page.t("sessionBadReveal", { why: page.t(`sessionRevealWhy.${error.reason}`) }) }));
      } else {
        box.replaceChildren();
        say(refusal(error));
      }
    }
  }

  $("session-open").addEventListener("click", open);
  $("session-make-seed").addEventListener("click", makeMySeed);
  $("session-join").addEventListener("click", join);
  $("session-download").addEventListener("click", download);
  $("session-reveal").addEventListener("click", reveal);
  $("session-leave").addEventListener("click", leave);
  $("check-run").addEventListener("click", check);
  render();
  return { member, record, refuseRoll, render, seat };
}
