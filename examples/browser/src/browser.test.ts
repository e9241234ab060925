import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, expect, it } from "vitest";

// Debian's Chromium, installed by .ci/run. Flags: root needs --no-sandbox; the rest keep it off the network.
const CHROMIUM = process.env.HEDDLE_CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

let server: Server;
let browser: Browser;
let url: string;

beforeAll(async () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const outDir = mkdtempSync(join(tmpdir(), "heddle-browser-"));
  await build({ root, logLevel: "silent", build: { outDir, emptyOutDir: true } });
  server = createServer((req, res) => {
    const path = normalize(
      join(outDir, (req.url ?? "/").split("?")[0] === "/" ? "index.html" : (req.url ?? "").split("?")[0]!),
    );
    try {
      if (!path.startsWith(outDir) || !statSync(path).isFile()) throw new Error("not found");
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      res.end(readFileSync(path));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

it("runs an agent turn with a tool inside a real browser page", async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(url);
  await page.click("#run");
  await page.waitForSelector('#result[data-status="completed"]', { timeout: 30_000 });
  expect(await page.textContent("#result")).toBe('completed: This page is called "Heddle in the browser".');
  expect(await page.textContent("#log")).toContain("[page_title → Heddle in the browser]");
  expect(errors).toEqual([]);
});

it("`pnpm dev` (vite) prints the URL to open", async () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const vite = join(root, "node_modules", ".bin", "vite");
  // Port 0 is not allowed by Vite's CLI; a high port it may move off if taken.
  const child = spawn(vite, ["--port", "41739", "--host", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let output = "";
  try {
    const printed = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 20 s; output: ${output}`)), 20_000);
      child.stdout.on("data", (chunk) => {
        output += chunk;
        const found = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      child.on("exit", (code) => reject(new Error(`vite exited ${code}: ${output}`)));
    });
    expect((await fetch(printed)).status).toBe(200);
  } finally {
    child.kill("SIGTERM");
  }
}, 30_000);
