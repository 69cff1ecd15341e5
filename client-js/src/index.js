// wurfwerk: the JavaScript client. An ES module without a build step: browsers import this file
// by URL or relative path, Node 20+ by the package name.
export { Client, methodName } from "./client.js";
export { WurfwerkError } from "./errors.js";
export { receiptVerdict, verifyReceipt, signingPayload, signatureMatches } from "./receipts.js";
export { RevealError, makeSeed, seedCommit, verifySession } from "./sessions.js";
export { OPERATIONS } from "./operations.js";
