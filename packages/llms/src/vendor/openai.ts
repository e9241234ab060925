// What the two OpenAI families take from the vendor's client. The build bundles this module, the client with it,
// into dist/vendor/openai.node.js (tsup.config.ts); tests and the type checker see the package itself.
export { APIConnectionError, APIError, APIUserAbortError, OpenAI } from "openai";
