// The one place the module imports the JavaScript client (client-js/ at the repository's root, no build
// step). `make foundry` replaces this file in the release zip with one that imports the copy bundled
// under vendor/, because a Foundry install has no client-js/ next to the module.
export { Client, WurfwerkError, makeSeed, seedCommit, verifyReceipt, verifySession } from "../../../client-js/src/index.js";
