// A child process for the multi-process store tests, bundled with esbuild by the test.
// `append <path> <session> <text>`: reports the head it read, waits for "go" on stdin, then appends on that head.
// `write <path>`: opens the store and creates a session, reporting what the store said (code and path).
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { isHeddleError, userMessage } from "@heddle/shared";
import { SqliteSessionStore } from "../src/index.js";

const [mode, path, sessionId, text] = process.argv.slice(2) as [string, string, string, string];
const say = (line: string) => writeSync(1, `${line}\n`);
const failure = (error: unknown) =>
  isHeddleError(error)
    ? `FAILED ${error.code} ${JSON.stringify({ path: (error as { path?: string }).path, message: error.message })}`
    : `FAILED ${String(error)}`;

if (mode === "write") {
  try {
    const store = new SqliteSessionStore({ path });
    await store.createSession();
    await store.close();
    say("OK");
  } catch (error) {
    say(failure(error));
  }
} else {
  const store = new SqliteSessionStore({ path });
  const head = (await store.getSession(sessionId))?.headMessageId ?? null;
  say(`HEAD ${head}`);
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line !== "go") continue;
    try {
      const message = userMessage(text);
      await store.appendMessage(sessionId, message, { parentId: head });
      say(`OK ${message.id}`);
    } catch (error) {
      say(failure(error));
    }
    break;
  }
  lines.close();
  await store.close();
}
