// verifySession(cards, reveal, jwks, {seeds}): a session's log checked offline, every die recomputed
// here; makeSeed() and seedCommit(seed) make a seat's seed and the commitment the game master puts in
// the session (keep the seed to yourself until the session has ended). The verdict is the one
// POST /v1/sessions/report and the Python SDK's wurfwerk.verify_session answer
// (tests/platform/dice/vectors.json, with its hostile corpus, holds the three to it); the service's README
// ("Sessions: a provably fair evening") explains each member. Nothing is taken from the service but the JWKS:
// signatures are checked like receipts (receipts.js), HKDF-Expand comes from @noble/hashes, ChaCha20
// from @noble/ciphers (vendored byte copies, as the others), and the rejection sampling is the README's.
import canonicalize from "./vendor/canonicalize.js";
import { chacha20 } from "./vendor/noble-ciphers/chacha.js";
import { expand } from "./vendor/noble-hashes/hkdf.js";
import { sha256 } from "./vendor/noble-hashes/sha2.js";
import { signatureMatches, verifyReceipt } from "./receipts.js";

const STREAM_INFO = "wurfwerk/randomness/stream/v1\u0000";
const SALT_INFO = "wurfwerk/session/commitment-salt/v1\u0000";
const SEAT_KEY_INFO = "wurfwerk/session/seat-key/v2\u0000";
const HEADER_MEMBERS = ["version", "id", "seats", "seat_commits", "open_seats", "context", "opened_at",
  "expires_at", "commit", "kid", "signature"];
const MAX_DEPTH = 32;
const MAX_INDEX = 10000;
const MAX_BAG_MARBLES = 1000;
const SEED_BYTES = [16, 64];
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

/** The bytes `text` spells in canonical base64url (the one spelling the service writes), when there
 * are `least` to `most` of them; null otherwise (an alias spelling of the same bytes included). */
function canonicalBytes(text, least, most) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) return null;
  let bytes;
  try {
    bytes = base64urlBytes(text);
  } catch {
    return null;
  }
  if (base64url(bytes) !== text || bytes.length < least || bytes.length > most) return null;
  return bytes;
}

function isSignature(text) {
  return canonicalBytes(text, 64, 64) !== null;
}

/** Whether `value` nests objects and arrays deeper than MAX_DEPTH levels (a scalar: 0 levels). */
function tooDeep(value, depth = 0) {
  if (value === null || typeof value !== "object") return false;
  if (depth >= MAX_DEPTH) return true;
  return Object.values(value).some((item) => tooDeep(item, depth + 1));
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

function rollStream(secret, operation, seat, seed, index) {
  const label = canonical({ domain: "session", operation, seat, seed, index });
  return new Stream(expand(sha256, secret, concat(encoder.encode(STREAM_INFO), label), 32));
}

function seatKey(secret, seat) {
  return base64url(expand(sha256, secret, concat(encoder.encode(SEAT_KEY_INFO), encoder.encode(seat)), 32));
}

function sortedKeys(object) {
  return Object.keys(object).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether `events` are exactly the dice the secret gives this roll (their kinds, counts and bags). */
function diceMatch(secret, operation, seat, seed, index, events) {
  const stream = rollStream(secret, operation, seat, seed, index);
  for (const event of events) {
    if (!isObject(event) || !Array.isArray(event.values)) return false;
    const { kind, values } = event;
    let expected;
    if (kind === "dF") {
      expected = values.map(() => stream.below(3) - 1);
    } else if (typeof kind === "string" && /^d[0-9]{1,4}$/.test(kind) && Number(kind.slice(1)) > 0
        && Number(kind.slice(1)) <= 1000) {
      const sides = Number(kind.slice(1));
      expected = values.map(() => stream.below(sides) + 1);
    } else if (kind === "draw" && isObject(event.bag)) {
      const marbles = drawBag(event.bag);
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

/** The marbles of a draw's recorded bag, sorted; throws Malformed for a bag no draw has. */
function drawBag(bag) {
  const counts = Object.values(bag);
  if (!counts.every((count) => Number.isInteger(count) && count >= 0)
      || counts.reduce((total, count) => total + count, 0) > MAX_BAG_MARBLES) {
    throw new Malformed("a bag no draw has");
  }
  const marbles = [];
  for (const colour of sortedKeys(bag)) {
    for (let n = 0; n < bag[colour]; n += 1) marbles.push(colour);
  }
  return marbles;
}

function commitment(secret, operation, seat, index, result, events) {
  const label = canonical({ operation, seat, index });
  const salt = base64url(expand(sha256, secret, concat(encoder.encode(SALT_INFO), label), 32));
  return base64url(sha256(canonical({ events, result, salt })));
}

// -- the verdict ------------------------------------------------------------------------------------

async function checkReveal(reveal, jwks) {
  if (!isObject(reveal) || tooDeep(reveal) || !hasExactly(reveal, REVEAL_MEMBERS)
      || !["secret", "revealed_at", "kid"].every((name) => typeof reveal[name] === "string")
      || !isSignature(reveal.signature)) throw new RevealError("malformed");
  const header = reveal.session;
  if (!isObject(header) || !hasExactly(header, HEADER_MEMBERS) || header.version !== 2
      || typeof header.kid !== "string" || !isSignature(header.signature) || !Array.isArray(header.seats)
      || !isObject(header.seat_commits) || !Array.isArray(header.open_seats) || time(header.opened_at) === null
      || time(header.expires_at) === null || reveal.revealed_at !== header.expires_at) {
    throw new RevealError("malformed");
  }
  if (!await signatureMatches(jwks, reveal.kid, canonical(unsigned(reveal)), reveal.signature)) {
    throw new RevealError("signature");
  }
  if (!await signatureMatches(jwks, header.kid, canonical(unsigned(header)), header.signature)) {
    throw new RevealError("session");
  }
  const secret = canonicalBytes(reveal.secret, 32, 32);
  if (secret === null || base64url(sha256(secret)) !== header.commit) throw new RevealError("secret");
  return { header, secret };
}

/** The seed of every seat whose dice can be recomputed: an open seat's from the secret, any other's
 * as given, when its SHA-256 is the seat's commitment. */
function provenSeeds(header, secret, seeds) {
  const proven = new Map();
  for (const seat of header.seats) {
    const seed = header.open_seats.includes(seat) ? seatKey(secret, seat)
      : (isObject(seeds) && Object.hasOwn(seeds, seat) ? seeds[seat] : undefined);
    const bytes = canonicalBytes(seed, ...SEED_BYTES);
    if (bytes !== null && Object.hasOwn(header.seat_commits, seat)
        && base64url(sha256(bytes)) === header.seat_commits[seat]) proven.set(seat, seed);
  }
  return proven;
}

function isPublic(part) {
  return isObject(part) && hasExactly(part, PUBLIC_MEMBERS) && isObject(part.session)
    && typeof part.operation === "string"
    && ["commitment", "issued_at", "kid"].every((name) => typeof part[name] === "string")
    && isSignature(part.signature);
}

/** A card's form (full or public), its session member, link signature and time; null when neither. */
function readCard(card, maxIndex) {
  if (!isObject(card) || tooDeep(card)) return null;
  let use; let hidden; let link; let issuedAt; let form;
  if (Object.hasOwn(card, "receipt")) {
    const { request, receipt, randomness } = card;
    if (!isObject(request) || !isObject(receipt) || !isObject(request.session) || !isObject(randomness)
        || !Array.isArray(randomness.events) || typeof card.operation !== "string"
        || !isSignature(receipt.signature)) return null;
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
  const prev = use.prev ?? null;
  if (issuedAt === null || (prev !== null && !isSignature(prev)) || (isIndex(use.index) && use.index > maxIndex)) {
    return null;
  }
  return { form, cardObject: card, use, hidden, link, issuedAt };
}

async function cardReason(entry, header, secret, seeds, openedAt, expiresAt, jwks) {
  const { cardObject: card, use } = entry;
  const part = entry.form === "public" ? card : card.public;
  if (entry.form === "full" && !(await verifyReceipt(card, jwks)).valid) return "signature";
  if (entry.hidden && !await signatureMatches(jwks, part.kid, canonical(unsigned(part)), part.signature)) {
    return "signature";
  }
  if (!same(use.header, header) || !entry.slotted || use.seed_commit !== header.seat_commits[use.seat]) {
    return "session";
  }
  if (entry.hidden && entry.form === "full" && (!same(part.session, use) || part.operation !== card.operation)) {
    return "session";
  }
  if (!(openedAt <= entry.issuedAt && entry.issuedAt < expiresAt)) return "time";
  if (entry.form === "full") {
    const { events } = card.randomness;
    const seed = seeds.get(use.seat);
    if (seed !== undefined && !diceMatch(secret, card.operation, use.seat, seed, use.index, events)) return "dice";
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

/** Per seat, the runs of indices below its highest valid card that no card claims. */
function gapsOf(entries, valid, seats) {
  const gaps = [];
  for (const seat of seats) {
    const highest = Math.max(-1, ...valid.filter((entry) => entry.use.seat === seat).map((entry) => entry.use.index));
    const claimed = [...new Set(entries.filter((entry) => entry.use.seat === seat && entry.use.index < highest)
      .map((entry) => entry.use.index))].sort((a, b) => a - b);
    let expected = 0;
    for (const index of [...claimed, highest]) {
      if (index > expected) gaps.push({ seat, from: expected, to: index - 1 });
      expected = index + 1;
    }
  }
  return gaps;
}

/**
 * The verdict `{complete, gaps, duplicates, invalid, after_reveal, unshown, unverified}` on a
 * session's log (signed cards and public parts of hidden ones, in any order), from the reveal (or
 * `{reveal}` as the service answered it), the JWKS (`GET /v1/keys`) and the seats' seeds
 * (`{seeds: {seat: seed}}`; a seat without one is `unverified`). Rejects with a `RevealError` when
 * the reveal itself does not verify.
 */
export async function verifySession(cards, reveal, jwks, { seeds = {}, maxIndex = MAX_INDEX } = {}) {
  if (isObject(reveal) && hasExactly(reveal, ["reveal"])) reveal = reveal.reveal;
  const { header, secret } = await checkReveal(reveal, jwks);
  const revealedAt = time(header.expires_at);
  const openedAt = time(header.opened_at);
  const expiresAt = time(header.expires_at);
  const seats = [...header.seats];
  const knownSeeds = provenSeeds(header, secret, seeds);
  const invalid = new Map();
  const afterReveal = [];
  const entries = [];
  for (const [position, card] of cards.entries()) {
    let entry;
    try {
      entry = readCard(card, maxIndex);
    } catch {
      entry = null;
    }
    if (entry === null) {
      invalid.set(position, "malformed");
      continue;
    }
    entry.card = position;
    entry.slotted = seats.includes(entry.use.seat) && isIndex(entry.use.index);
    if (entry.slotted) entries.push(entry);
    let reason;
    try {
      reason = await cardReason(entry, header, secret, knownSeeds, openedAt, expiresAt, jwks);
    } catch {
      reason = "malformed"; // no JSON a signature could cover, or a bag no draw has
    }
    if (reason !== null) invalid.set(position, reason);
    else if (entry.issuedAt > revealedAt) afterReveal.push(position);
  }
  let valid = entries.filter((entry) => !invalid.has(entry.card) && !afterReveal.includes(entry.card));
  const slots = slotsOf(valid);
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
  const order = new Map(seats.map((seat, number) => [seat, number]));
  const sortedSlots = [...slotsOf(valid).values()].sort((a, b) =>
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
  const invalidList = [...invalid.entries()].sort(([a], [b]) => a - b).map(([card, reason]) => ({ card, reason }));
  const unverified = seats.filter((seat) => !knownSeeds.has(seat)
    && valid.some((entry) => entry.use.seat === seat && entry.form === "full"));
  const gaps = gapsOf(entries, valid, seats);
  afterReveal.sort((a, b) => a - b);
  return {
    complete: !(gaps.length || duplicates.length || invalidList.length || afterReveal.length || unshown.length
      || unverified.length),
    gaps,
    duplicates,
    invalid: invalidList,
    after_reveal: afterReveal,
    unshown,
    unverified,
  };
}

/** A new seat seed: 32 random bytes in base64url. Keep it; send only `seedCommit(seed)` to the game
 * master, and the seed itself in every roll of your seat (the service never echoes it). */
export function makeSeed() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** What the session header holds for a seat: base64url(SHA-256(seed bytes)). */
export function seedCommit(seed) {
  const bytes = canonicalBytes(seed, ...SEED_BYTES);
  if (bytes === null) throw new TypeError("a seed is 16 to 64 bytes in canonical base64url (makeSeed() makes one)");
  return base64url(sha256(bytes));
}
