import { customAlphabet } from "nanoid";

// Lowercase alphanumerics keep ids safe in file names, URLs and every vendor's tool-call id rules.
const randomPart = customAlphabet("0123456789abcdefghijklmnopqrstuvwxyz", 16);

/** A new unique id with a readable prefix, e.g. `createId("msg")` → `msg_0f3k…`. */
export function createId(prefix: string): string {
  return `${prefix}_${randomPart()}`;
}
