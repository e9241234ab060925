// Redaction of an API key in the forms a server may echo it: as is, URL-encoded, or inside base64.
import { describe, expect, it } from "vitest";
import { redact, secretsOf } from "./sanitize.js";

const KEY = "sk-live/SECRET+abc=0123456789";
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/** Every base64-looking run in `text`, decoded (each of its 4 alignments), joined: where a key could still hide. */
function decodedRuns(text: string): string {
  const runs = text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [];
  return runs
    .flatMap((run) =>
      [0, 1, 2, 3].map((skip) => {
        const body = run.slice(skip).replace(/-/g, "+").replace(/_/g, "/");
        try {
          return atob(body.slice(0, body.length - (body.length % 4)));
        } catch {
          return "";
        }
      }),
    )
    .join("\n");
}

describe("redact", () => {
  it("hides the key URL-encoded, in upper or lower case hex", () => {
    const secrets = secretsOf(KEY);
    const encoded = encodeURIComponent(KEY);
    expect(redact(`GET /v1/models?key=${encoded}`, secrets)).toBe("GET /v1/models?key=[redacted]");
    const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
    expect(lowerHex).not.toBe(encoded);
    expect(redact(`body: api_key=${lowerHex}&x=1`, secrets)).toBe("body: api_key=[redacted]&x=1");
  });

  it("hides the key inside any base64 text, whatever comes before it (Basic user:key, key:, a token)", () => {
    const secrets = secretsOf(KEY);
    for (const user of ["", "u", "us", "user", "api", "someone@example.com"]) {
      for (const text of [`${user}:${KEY}`, `${KEY}:${user}`, `{"k":"${KEY}","u":"${user}"}`]) {
        for (const form of [base64(text), base64(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")]) {
          const out = redact(`Authorization: Basic ${form} was refused`, secrets);
          expect(out, text).toContain("[redacted]");
          expect(decodedRuns(out), text).not.toContain("SECRET+abc");
          expect(decodedRuns(out), text).not.toContain("0123456789");
        }
      }
    }
  });

  it("leaves text without the key alone, and does not look for a very short key inside base64", () => {
    const secrets = secretsOf(KEY);
    const text = `Basic ${base64("user:other-key-entirely")} and %2F plain`;
    expect(redact(text, secrets)).toBe(text);
    expect(secretsOf("abc")).toEqual(["abc"]);
  });
});
