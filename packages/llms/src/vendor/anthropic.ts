// What the Anthropic family takes from the vendor's client. The build bundles this module, the client with it, into
// dist/vendor/anthropic.{node,browser}.js (tsup.config.ts); tests and the type checker see the package itself.
export { Anthropic, APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
