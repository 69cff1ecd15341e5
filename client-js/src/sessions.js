// verifySession(cards, reveal, jwks): a session's log checked offline, every die recomputed here.
// The verdict is the one POST /v1/sessions/report and the Python SDK's wurfwerk.verify_session
// answer (tests/sessions/vectors.json holds the three to it); the service's README ("Sessions: a
// provably fair evening") explains each member. Nothing is taken from the service but the JWKS:
// signatures are checked like receipts (receipts.js), HKDF-Expand comes from @noble/hashes, ChaCha20
// from @noble/ciphers (vendored byte copies, as the others), and the rejection sampling is the README's.
import canonicalize from "./vendor/canonicalize.js";
import { chacha20 } from "./vendor/noble-ciphers/chacha.js";
import { expand } from "./vendor/noble-hashes/hkdf.js";
import { sha256 } from "./vendor/noble-hashes/sha2.js";
import { signatureMatches, verifyReceipt } from "./receipts.js";

const STREAM_INFO = "wurfwerk/randomness/stream/v1\u0000";
const SALT_INFO = "wurfwerk/session/commitment-salt/v1\u0000";
const HEADER_MEMBERS = ["id", "seats", "context", "opened_at", "expires_at", "commit", "kid", "signature"];
const REVEAL_MEMBERS = ["session", "secret", "revealed_at", "kid", "signature"];
const PUBLIC_MEMBERS = ["operation", "session", "commitment", "issued_at", "kid", "signature"];

/** A reveal that cannot be trusted; `reason`: malformed, signature, session or secret. */
export class RevealError extends Error {
  constructor(reason) {
    super(`the reveal does not verify: ${reason}`);
    this.name = "RevealError";
    this.reason = reason;
  }
}

class Malformed extends Error {}

const encoder = new TextEncoder();

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function hasExactly(object, members) {
  const keys = Object.keys(object);
  return keys.length === members.length && members.every((member) => Object.hasOwn(object, member));
}

function concat(...parts) {
  const bytes = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

function canonical(value) {
  return encoder.encode(canonicalize(value));
}

function same(a, b) {
  try {
    return canonicalize(a) === canonicalize(b);
  } catch {
    return false;
  }
}

function base64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64urlBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

function time(text) {
  if (typeof text !== "string") return null;
  const moment = Date.parse(text);
  return Number.isNaN(moment) ? null : moment;
}

function unsigned(document) {
  const { signature: _signature, ...rest } = document;
  return rest;
}

function isIndex(value) {
  return Number.isInteger(value) && value >= 0;
}

// -- the dice, recomputed from the secret alone --------------------------------------------------

/** The ChaCha20 keystream (zero nonce, counter 0) under `key`, read by rejection sampling. */
class Stream {
  constructor(key) {
    this.key = key;
    this.bytes = new Uint8Array(0);
    this.position = 0;
  }

  read(count) {
    if (this.position + count > this.bytes.length) {
      const length = Math.max(1024, 2 * (this.position + count));
      this.bytes = chacha20(this.key, new Uint8Array(12), new Uint8Array(length));
    }
    const chunk = this.bytes.subarray(this.position, this.position + count);
    this.position += count;
    return chunk;
  }

  /** A uniform integer in [0, bound): the fewest bytes that hold `bound` values, values at or above
   * the largest multiple of `bound` they can hold discarded. */
  below(bound) {
    const big = BigInt(bound);
    const width = Math.max(1, Math.ceil((big - 1n).toString(2).length / 8));
    const span = 256n ** BigInt(width);
    const acceptedBelow = span - (span % big);
    for (;;) {
      let value = 0n;
      for (const byte of this.read(width)) value = (value << 8n) | BigInt(byte);
      if (value < acceptedBelow) return Number(value % big);
    }
  }
}

function rollStream(secret, operation, seat, index) {
  const label = canonical({ domain: "session", operation, seat, index });
  return new Stream(expand(sha256, secret, concat(encoder.encode(STREAM_INFO), label), 32));
}

function sortedKeys(object) {
  return Object.keys(object).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether `events` are exactly the dice the secret gives this roll (their kinds, counts and bags). */
function diceMatch(secret, operation, seat, index, events) {
  const stream = rollStream(secret, operation, seat, index);
  for (const event of events) {
    if (!isObject(event) || !Array.isArray(event.values)) return false;
    const { kind, values } = event;
    let expected;
    if (kind === "dF") {
      expected = values.map(() => stream.below(3) - 1);
    } else if (typeof kind === "string" && /^d[0-9]+$/.test(kind) && Number(kind.slice(1)) > 0) {
      const sides = Number(kind.slice(1));
      expected = values.map(() => stream.below(sides) + 1);
    } else if (kind === "draw" && isObject(event.bag)) {
      const marbles = [];
      for (const colour of sortedKeys(event.bag)) {
        const count = event.bag[colour];
        if (!Number.isInteger(count)) throw new Malformed("a bag count that is no integer");
        for (let n = 0; n < count; n += 1) marbles.push(colour);
      }
      if (values.length > marbles.length) return false;
      for (let place = 0; place < values.length; place += 1) {
        const chosen = place + stream.below(marbles.length - place);
        [marbles[place], marbles[chosen]] = [marbles[chosen], marbles[place]];
      }
      expected = marbles.slice(0, values.length);
    } else {
      return false;
    }
    if (expected.length !== values.length || expected.some((value, n) => value !== values[n])) return false;
  }
  return true;
}

function commitment(secret, operation, seat, index, result, events) {
  const label = canonical({ operation, seat, index });
  const salt = base64url(expand(sha256, secret, concat(encoder.encode(SALT_INFO), label), 32));
  return base64url(sha256(canonical({ events, result, salt })));
}

// -- the verdict ------------------------------------------------------------------------------------

async function checkReveal(reveal, jwks) {
  if (!isObject(reveal) || !hasExactly(reveal, REVEAL_MEMBERS)
      || !["secret", "revealed_at", "kid", "signature"].every((name) => typeof reveal[name] === "string")
      || time(reveal.revealed_at) === null) throw new RevealError("malformed");
  const header = reveal.session;
  if (!isObject(header) || !hasExactly(header, HEADER_MEMBERS) || typeof header.kid !== "string"
      || typeof header.signature !== "string" || !Array.isArray(header.seats) || time(header.opened_at) === null
      || time(header.expires_at) === null) throw new RevealError("malformed");
  if (!await signatureMatches(jwks, reveal.kid, canonical(unsigned(reveal)), reveal.signature)) {
    throw new RevealError("signature");
  }
  if (!await signatureMatches(jwks, header.kid, canonical(unsigned(header)), header.signature)) {
    throw new RevealError("session");
  }
  let secret;
  try {
    secret = base64urlBytes(reveal.secret);
  } catch {
    throw new RevealError("secret");
  }
  if (base64url(sha256(secret)) !== header.commit) throw new RevealError("secret");
  return { header, secret };
}

function isPublic(part) {
  return isObject(part) && hasExactly(part, PUBLIC_MEMBERS) && isObject(part.session)
    && typeof part.operation === "string"
    && ["commitment", "issued_at", "kid", "signature"].every((name) => typeof part[name] === "string");
}

/** A card's form (full or public), its session member, link signature and time; null when neither. */
function readCard(card) {
  if (!isObject(card)) return null;
  let use; let hidden; let link; let issuedAt; let form;
  if (Object.hasOwn(card, "receipt")) {
    const { request, receipt, randomness } = card;
    if (!isObject(request) || !isObject(receipt) || !isObject(request.session) || !isObject(randomness)
        || !Array.isArray(randomness.events) || typeof card.operation !== "string") return null;
    use = request.session;
    hidden = use.hidden === true;
    if (hidden && !isPublic(card.public)) return null;
    link = hidden ? card.public.signature : receipt.signature;
    issuedAt = time(hidden ? card.public.issued_at : receipt.issued_at);
    form = "full";
  } else if (isPublic(card)) {
    [use, hidden, link, issuedAt, form] = [card.session, true, card.signature, time(card.issued_at), "public"];
  } else {
    return null;
  }
  if (typeof link !== "string" || issuedAt === null || !isObject(use)) return null;
  return { form, cardObject: card, use, hidden, link, issuedAt };
}

async function cardReason(entry, header, secret, openedAt, expiresAt, slotted, jwks) {
  const { cardObject: card, use } = entry;
  const part = entry.form === "public" ? card : card.public;
  if (entry.form === "full" && !(await verifyReceipt(card, jwks)).valid) return "signature";
  if (entry.hidden && !await signatureMatches(jwks, part.kid, canonical(unsigned(part)), part.signature)) {
    return "signature";
  }
  if (!same(use.header, header) || !slotted) return "session";
  if (entry.hidden && entry.form === "full" && (!same(part.session, use) || part.operation !== card.operation)) {
    return "session";
  }
  if (!(openedAt <= entry.issuedAt && entry.issuedAt < expiresAt)) return "time";
  if (entry.form === "full") {
    const { events } = card.randomness;
    if (!diceMatch(secret, card.operation, use.seat, use.index, events)) return "dice";
    if (entry.hidden && commitment(secret, card.operation, use.seat, use.index, card.result ?? null, events)
        !== part.commitment) return "commitment";
  }
  return null;
}

function slotsOf(entries) {
  const slots = new Map();
  for (const entry of entries) {
    const key = JSON.stringify([entry.use.seat, entry.use.index]);
    if (!slots.has(key)) slots.set(key, []);
    slots.get(key).push(entry);
  }
  return slots;
}

/**
 * The verdict `{complete, gaps, duplicates, invalid, after_reveal, unshown}` on a session's log
 * (signed cards and public parts of hidden ones, in any order), from the reveal (or `{reveal}` as
 * the service answered it) and the JWKS (`GET /v1/keys`). Rejects with a `RevealError` when the
 * reveal itself does not verify.
 */
export async function verifySession(cards, reveal, jwks) {
  if (isObject(reveal) && hasExactly(reveal, ["reveal"])) reveal = reveal.reveal;
  const { header, secret } = await checkReveal(reveal, jwks);
  const revealedAt = time(reveal.revealed_at);
  const openedAt = time(header.opened_at);
  const expiresAt = time(header.expires_at);
  const seats = [...header.seats];
  const invalid = new Map();
  const afterReveal = [];
  const entries = [];
  for (const [position, card] of cards.entries()) {
    const entry = readCard(card);
    if (entry === null) {
      invalid.set(position, "malformed");
      continue;
    }
    entry.card = position;
    const slotted = seats.includes(entry.use.seat) && isIndex(entry.use.index);
    if (slotted) entries.push(entry);
    let reason;
    try {
      reason = await cardReason(entry, header, secret, openedAt, expiresAt, slotted, jwks);
    } catch {
      reason = "malformed"; // no JSON a signature could cover, or a bag no draw has
    }
    if (reason !== null) invalid.set(position, reason);
    else if (entry.issuedAt > revealedAt) afterReveal.push(position);
  }
  let valid = entries.filter((entry) => !invalid.has(entry.card) && !afterReveal.includes(entry.card));
  let slots = slotsOf(valid);
  for (const here of slots.values()) { // the links, now that every slot is known
    const { seat, index } = here[0].use;
    const before = slots.get(JSON.stringify([seat, index - 1]));
    const links = new Set((before ?? []).map((other) => other.link));
    for (const entry of here) {
      const prev = entry.use.prev ?? null;
      if ((index === 0 && prev !== null) || (index > 0 && before !== undefined && !links.has(prev))) {
        invalid.set(entry.card, "link");
      }
    }
  }
  valid = valid.filter((entry) => !invalid.has(entry.card));
  slots = slotsOf(valid);
  const order = new Map(seats.map((seat, number) => [seat, number]));
  const sortedSlots = [...slots.values()].sort((a, b) =>
    order.get(a[0].use.seat) - order.get(b[0].use.seat) || a[0].use.index - b[0].use.index);
  const duplicates = [];
  const unshown = [];
  for (const here of sortedSlots) {
    const { seat, index } = here[0].use;
    const links = new Set(here.map((entry) => entry.link));
    const forms = new Set(here.map((entry) => `${entry.link}\u0000${entry.form}`));
    if (links.size > 1 || forms.size < here.length) {
      duplicates.push({ seat, index, cards: here.map((entry) => entry.card).sort((a, b) => a - b),
        repeat: links.size === 1 });
    }
    if (here.some((entry) => entry.hidden) && !here.some((entry) => entry.form === "full")) {
      unshown.push({ seat, index });
    }
  }
  const claimed = new Set(entries.map((entry) => JSON.stringify([entry.use.seat, entry.use.index])));
  const gaps = [];
  for (const seat of seats) {
    const highest = Math.max(-1, ...valid.filter((entry) => entry.use.seat === seat).map((entry) => entry.use.index));
    for (let index = 0; index < highest; index += 1) {
      if (!claimed.has(JSON.stringify([seat, index]))) gaps.push({ seat, index });
    }
  }
  const invalidList = [...invalid.entries()].sort(([a], [b]) => a - b).map(([card, reason]) => ({ card, reason }));
  afterReveal.sort((a, b) => a - b);
  return {
    complete: !(gaps.length || duplicates.length || invalidList.length || afterReveal.length || unshown.length),
    gaps,
    duplicates,
    invalid: invalidList,
    after_reveal: afterReveal,
    unshown,
  };
}
