// What a host does at startup so the first run pays no vendor-client import (the "first+warmUp" rows of
// bench/peers.bench.mjs). Runs before the clock starts, in the measuring worker.
const VENDOR = { chat: "openai", anthropic: "@anthropic-ai/sdk", gemini: "@google/genai" };
const PROVIDERS = { chat: "openai-chat", anthropic: "anthropic", gemini: "gemini" };

export const warmUps = {
  /** The floor's host imports the vendor client. */
  floor: (family) => import(VENDOR[family]),
  /** Heddle's host calls the documented `gateway.warmUp`, which loads the wire family and the vendor client. */
  heddle: async (family) => {
    const { createGateway } = await import("@heddle/llms");
    await createGateway().warmUp(PROVIDERS[family]);
  },
};
