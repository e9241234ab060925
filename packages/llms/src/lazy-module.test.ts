import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isHeddleError } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import { GatewayError } from "./gateway-errors.js";
import { lazyModule, MissingVendorSdkError, VENDOR_SDKS } from "./lazy-module.js";

const empty = mkdtempSync(join(tmpdir(), "heddle-no-sdk-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

/** The error Node itself gives `import(name)` from a folder where the package is not installed. */
function nodeImportError(name: string): Error {
  const script = `try { await import(${JSON.stringify(name)}); } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: empty, encoding: "utf8" });
  const { code, message } = JSON.parse(run.stdout) as { code: string; message: string };
  return Object.assign(new Error(message), { code });
}

describe("lazyModule", () => {
  it("a vendor SDK that is not installed rejects with vendor_sdk_missing naming the npm i command", async () => {
    const cause = nodeImportError("@google/genai");
    expect(cause.message).toMatch(/Cannot find package '@google\/genai'/);
    let attempts = 0;
    const load = lazyModule(async () => {
      attempts += 1;
      throw cause;
    });
    const error = await load().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingVendorSdkError);
    expect(error).toBeInstanceOf(GatewayError);
    expect(isHeddleError(error, "vendor_sdk_missing")).toBe(true);
    const missing = error as MissingVendorSdkError;
    expect(missing.packageName).toBe("@google/genai");
    expect(missing.installCommand).toBe("npm i @google/genai@^2.32.0");
    expect(missing.message).toContain("npm i @google/genai@^2.32.0");
    expect(missing.cause).toBe(cause);
    // Forgotten, so the next request tries again (the user may have installed it meanwhile).
    await expect(load()).rejects.toBeInstanceOf(MissingVendorSdkError);
    expect(attempts).toBe(2);
  });

  it("only @google/genai is a peer to install: the Anthropic and OpenAI clients ship bundled", () => {
    expect(Object.keys(VENDOR_SDKS)).toEqual(["@google/genai"]);
  });

  it("any other failure is passed on unchanged: a missing package that is not a vendor SDK, a broken module", async () => {
    const other = nodeImportError("form-data-encoder"); // a vendor SDK's own dependency, say
    await expect(lazyModule(() => Promise.reject(other))()).rejects.toBe(other);
    // The bundled clients' packages are no peers: their absence is no install command to give.
    for (const name of ["openai", "@anthropic-ai/sdk"]) {
      const missing = nodeImportError(name);
      await expect(lazyModule(() => Promise.reject(missing))()).rejects.toBe(missing);
    }
    const broken = new SyntaxError("Unexpected token");
    await expect(lazyModule(() => Promise.reject(broken))()).rejects.toBe(broken);
  });

  it("one load is shared by concurrent callers, and a loaded module is kept", async () => {
    let loads = 0;
    const load = lazyModule(async () => ({ n: ++loads }));
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it("the ranges are @heddle/llms's optional peerDependencies, and the pinned devDependencies fall in them", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.peerDependencies).toEqual(VENDOR_SDKS);
    for (const name of Object.keys(VENDOR_SDKS)) {
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(manifest.dependencies[name]).toBeUndefined();
      expect(`^${manifest.devDependencies[name]}`).toBe(VENDOR_SDKS[name]);
    }
  });
});
