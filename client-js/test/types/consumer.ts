// A program that uses the client as an installed package would: by its name, through package.json's
// "exports". tests/web/test_client_js.py compiles it with each tsconfig.*.json here; a resolution that
// loses the generated types turns the methods into `any`, and then the @ts-expect-error lines fail.
import { Client, WurfwerkError, verifyReceipt } from "wurfwerk";
import type { RequestBody, ResponseBody } from "wurfwerk";

const client = new Client({ baseUrl: "http://localhost:8000", lang: "de", timeoutMs: 500 });

export async function roll(): Promise<number> {
  const response = await client.paws.test({ rank: 3, name: null, seed: 1 });
  const odds = await client.paws.testOdds({ rank: 3 });
  const applied = await client.beutelschneider.healingApply({ draw: {} as never, replacements: ["red"] });
  const verdict = await verifyReceipt(response, await client.keys());
  try {
    await client.call("malmsturm.ladder");
  } catch (error) {
    if (error instanceof WurfwerkError) return error.status;
  }
  return response.result.successes + odds.odds.outcomes.length + (verdict.valid ? 1 : 0)
    + Object.keys(applied.result.bag_after).length;
}

export const body: RequestBody<"paws.test"> = { rank: 2 };
export function successes(answer: ResponseBody<"paws.test">): number {
  return answer.result.successes;
}

// @ts-expect-error: rank is required
client.paws.test({});
// @ts-expect-error: no such method
client.paws.noSuchMethod();
// @ts-expect-error: a summary is text, not a number
export const summary: number = (await client.paws.test({ rank: 1 })).summary;
