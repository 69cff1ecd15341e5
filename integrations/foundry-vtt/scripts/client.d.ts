// What the module uses of the JavaScript client (client-js/src/index.js), declared here so that
// `tsc --checkJs` checks the module against it without type-checking client-js's own sources.
// The node tests run the real client against a live service, so this cannot drift unnoticed.

export interface Operation {
  id: string;
  method: string;
  path: string;
  system: string | null;
  body: boolean;
}

export interface ReceiptCheck {
  valid: boolean;
  kid: string | null;
  reason: string;
}

export class Client {
  constructor(options: { baseUrl?: string; apiKey?: string; lang?: "de" | "en"; timeoutMs?: number; fetch?: typeof fetch });
  static readonly operations: readonly Operation[];
  readonly baseUrl: string;
  call(operationId: string, body?: unknown): Promise<Record<string, any>>;
  verify(response: unknown): Promise<ReceiptCheck>;
}

export class WurfwerkError extends Error {
  status: number;
  problem: Record<string, any> | null;
  errors: Record<string, string[]>;
  operation: string | null;
}

export function verifyReceipt(response: unknown, jwks: unknown): Promise<ReceiptCheck>;
