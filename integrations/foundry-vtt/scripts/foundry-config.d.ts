// Type-level configuration of fvtt-types for this module (declaration merging, no runtime effect):
// the module's settings, its chat message flags, its macro API, and that its code runs after `ready`
// (the settings are registered in `init`, when game.settings exists already).
import type { ReceiptCheck } from "./client.js";

declare module "fvtt-types/configuration" {
  interface AssumeHookRan {
    ready: never;
  }

  interface SettingConfig {
    "wurfwerk.serviceUrl": string;
    "wurfwerk.apiKey": string;
    "wurfwerk.language": "auto" | "de" | "en";
    "wurfwerk.physicalDice": boolean;
    /** The world's session (issue 41), as JSON text: `{header, reveal}`; empty: none. */
    "wurfwerk.session": string;
    /** This browser's seat seeds (sessions v2), as JSON text `{userId: seed}`. */
    "wurfwerk.seeds": string;
    /** The open seats' keys of the sessions this browser opened, as JSON text `{sessionId: {seat: key}}`. */
    "wurfwerk.seatKeys": string;
  }

  interface FlagConfig {
    User: {
      wurfwerk: {
        /** base64url(SHA-256(seed)) of the user's seat seed, which stays in the user's browser. */
        seedCommit: string;
      };
    };
    ChatMessage: {
      wurfwerk: {
        /** The operation id, e.g. paws.test. */
        operation: string;
        /** The request body as typed, as JSON text. */
        body: string;
        /** The complete signed response, as JSON text (a hidden roll's: only on the GM's whisper). */
        response?: string;
        /** A hidden roll's public part in a session, as JSON text: what the table sees. */
        public?: string;
      };
    };
  }

  interface ModuleConfig {
    wurfwerk: {
      api: {
        roll(operationId: string, body?: Record<string, any>): Promise<Record<string, any> | null>;
        verifyMessage(messageId: string, verdict: Element): Promise<void>;
        publishSeedCommit(): Promise<string>;
        openSession(seats?: string[], hours?: number): Promise<Record<string, any> | null>;
        revealSession(): Promise<Record<string, any> | null>;
        exportSessionLog(): Record<string, any> | null;
        checkSessionLog(log?: string | Record<string, any>): Promise<Record<string, any> | null>;
      };
    };
  }
}

export type { ReceiptCheck };
