// The checker's view of ./client.js: the JavaScript client's own declarations (client-js/index.d.ts,
// generated from openapi.yaml), so `tsc --checkJs` checks the module against them without
// type-checking client-js's sources.
export { Client, WurfwerkError, makeSeed, seedCommit, verifyReceipt, verifySession } from "../../../client-js/index.js";
export type { OperationId, Verification as ReceiptCheck } from "../../../client-js/index.js";
