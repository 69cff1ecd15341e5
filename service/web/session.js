// /play's session panel (issue 41): open a session, roll in it by seat (hidden rolls too), save the
// log, reveal, and "check a session" for a saved or pasted log. The check runs in the browser with
// the JavaScript client's verifySession (every die recomputed here); the luck lines come from
// POST /v1/sessions/report, in the page's language.
import { verifySession, RevealError } from "../client/index.js";

const STORE = "wurfwerk.session";
const LOG_FORMAT = "wurfwerk-session-log/1";

/** The panel. `page` gives what play.js owns: `t(key, values)`, `element(...)`, `client()`, `lang()`,
 * `showError(error)`, `showMessage(text)`. */
export function sessionPanel(page) {
  const $ = (id) => document.getElementById(id);
  let active = load();

  function load() {
    try {
      const stored = JSON.parse(localStorage.getItem(STORE) ?? "null");
      return stored?.header ? stored : null;
    } catch {
      return null;
    }
  }

  function save() {
    if (active) localStorage.setItem(STORE, JSON.stringify(active));
    else localStorage.removeItem(STORE);
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
    const seat = $("session-seat");
    const chosen = seat.value;
    seat.replaceChildren(...header.seats.map((name) => page.element("option", { value: name, text: name })));
    if (header.seats.includes(chosen)) seat.value = chosen;
    $("session-log").replaceChildren(...active.cards.map((card) => page.element("li", {},
      page.element("span", { class: "seat-roll", text: seatRoll(card) }),
      card.request.session.hidden ? page.element("span", { class: "badge", text: page.t("sessionHiddenBadge") }) : null,
      page.element("span", { text: ` ${card.summary ?? ""}` }))));
  }

  async function open() {
    const seats = $("session-seats").value.split(",").map((seat) => seat.trim()).filter(Boolean);
    try {
      const { session } = await page.client().call("sessions.open", { seats: [...new Set(seats)] });
      active = { header: session, next: Object.fromEntries(session.seats.map((seat) => [seat, 0])),
        links: Object.fromEntries(session.seats.map((seat) => [seat, null])), cards: [], reveal: null };
      save();
      render();
    } catch (error) {
      page.showError(error);
    }
  }

  /** The `session` member for the next roll of the chosen seat, or null outside a session. */
  function member() {
    if (!active) return null;
    const seat = $("session-seat").value;
    const use = { header: active.header, seat, index: active.next[seat], prev: active.links[seat] };
    if ($("session-hidden").checked) use.hidden = true;
    return use;
  }

  /** A roll came back: it is the seat's card, the next roll links to it. */
  function record(response) {
    const use = response.request?.session;
    if (!active || !use || use.header.id !== active.header.id) return;
    active.next[use.seat] = use.index + 1;
    active.links[use.seat] = use.hidden ? response.public.signature : response.receipt.signature;
    active.cards.push(response);
    save();
    render();
  }

  function logFile() {
    return { format: LOG_FORMAT, session: active.header, reveal: active.reveal, cards: active.cards };
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
      $("check-box").open = true;
      $("check-log").value = JSON.stringify(logFile());
      await check();
    } catch (error) {
      page.showError(error);
    }
  }

  function leave() {
    active = null;
    save();
    render();
  }

  /** A log file, `{reveal, cards}`, or a plain list of cards, as `{cards, reveal, header}`. */
  function readLog(text) {
    const log = JSON.parse(text);
    if (Array.isArray(log)) return { cards: log, reveal: null };
    const cards = Array.isArray(log?.cards) ? log.cards : null;
    if (!cards) throw new SyntaxError("cards");
    return { cards, reveal: log.reveal?.reveal ?? log.reveal ?? null, header: log.session ?? null };
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
    for (const gap of verdict.gaps) lines.push(["bad", page.t("sessionGap", { roll: slot(gap) })]);
    for (const duplicate of verdict.duplicates) {
      lines.push(["bad", page.t(duplicate.repeat ? "sessionRepeat" : "sessionReroll",
        { roll: slot(duplicate), cards: duplicate.cards.map((card) => card + 1).join(", ") })]);
    }
    for (const { card, reason } of verdict.invalid) {
      lines.push(["bad", page.t("sessionInvalid", { card: card + 1, why: page.t(`sessionWhy.${reason}`) })]);
    }
    for (const card of verdict.after_reveal) lines.push(["bad", page.t("sessionAfterReveal", { card: card + 1 })]);
    for (const hidden of verdict.unshown) lines.push(["note", page.t("sessionUnshown", { roll: slot(hidden) })]);
    return lines;
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
    try {
      let { reveal: revealed } = log;
      if (!revealed) {
        const header = log.header ?? headerOf(log.cards);
        if (!header) throw new RevealError("malformed");
        ({ reveal: revealed } = await client.call("sessions.reveal", { session: header }));
      }
      const jwks = await client.keys();
      const verdict = await verifySession(log.cards, revealed, jwks);
      const lines = verdictLines(verdict);
      const head = verdict.complete
        ? page.element("p", { class: "good", "data-testid": "check-complete", text: page.t("sessionComplete", { count: log.cards.length }) })
        : page.element("p", { class: "bad", "data-testid": "check-incomplete", text: page.t("sessionIncomplete") });
      const list = page.element("ul", {}, ...lines.map(([kind, text]) => page.element("li", { class: kind, text })));
      box.replaceChildren(head, list);
      try {
        const report = await client.call("sessions.report", { reveal: revealed, cards: log.cards });
        box.append(page.element("ul", { class: "luck", "data-testid": "check-luck" },
          ...report.luck.seats.map((seat) => page.element("li", { text: seat.summary }))));
      } catch {
        // the verdict stands on its own; the luck lines need the service
      }
    } catch (error) {
      if (error instanceof RevealError) {
        box.replaceChildren(page.element("p", { class: "bad", text: page.t("sessionBadReveal", { why: page.t(`sessionRevealWhy.${error.reason}`) }) }));
      } else {
        box.replaceChildren();
        page.showError(error);
      }
    }
  }

  $("session-open").addEventListener("click", open);
  $("session-download").addEventListener("click", download);
  $("session-reveal").addEventListener("click", reveal);
  $("session-leave").addEventListener("click", leave);
  $("check-run").addEventListener("click", check);
  render();
  return { member, record, render };
}
