// Reads {"jwks": ..., "documents": [...]} on stdin and prints the JavaScript client's verdict for
// each document as a JSON array (tests/web/test_client_js.py compares them with Python's).
import { verifyReceipt } from "../../client-js/src/index.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { jwks, documents } = JSON.parse(input);
const verdicts = [];
for (const document of documents) verdicts.push(await verifyReceipt(document, jwks));
process.stdout.write(JSON.stringify(verdicts));
