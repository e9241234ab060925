// What a host does at startup, before its first run (the "first+warmUp" rows of bench/peers.bench.mjs): it imports
// the library it runs on, and warms what that library would otherwise load on the first request. Runs before the
// clock starts, in the measuring worker. The floor's library is the vendor client; Heddle's is `@heddle/agents`
// (a host imports it statically anyway) plus `gateway.warmUp`, which loads the wire family and the vendor client.
const VENDOR = { chat: "openai", anthropic: "@anthropic-ai/sdk", gemini: "@google/genai" };
const PROVIDERS = { chat: "openai-chat", anthropic: "anthropic", gemini: "gemini" };

export const warmUps = {
  /** The floor's host imports the vendor client. */
  floor: (family) => import(VENDOR[family]),
  /** Heddle's host imports `@heddle/agents` and calls the documented `gateway.warmUp`. */
  heddle: async (family) => {
    await import("@heddle/agents");
    const { createGateway } = await import("@heddle/llms");
    await createGateway().warmUp(PROVIDERS[family]);
  },
};
