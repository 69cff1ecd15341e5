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
  }

  interface FlagConfig {
    ChatMessage: {
      wurfwerk: {
        /** The operation id, e.g. paws.test. */
        operation: string;
        /** The request body as typed, as JSON text. */
        body: string;
        /** The complete signed response, as JSON text. */
        response: string;
      };
    };
  }

  interface ModuleConfig {
    wurfwerk: {
      api: {
        roll(operationId: string, body?: Record<string, any>): Promise<Record<string, any> | null>;
        verifyMessage(messageId: string, verdict: Element): Promise<void>;
      };
    };
  }
}

export type { ReceiptCheck };
