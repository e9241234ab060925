// A child process for the conflict test: it opens a session's SQLite file, reports the head it read, waits for
// "go" on stdin, then appends a message on top of that head and reports what the store said.
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { isHeddleError, userMessage } from "@heddle/shared";
import { SqliteSessionStore } from "../src/index.js";

const [path, sessionId, text] = process.argv.slice(2) as [string, string, string];
const say = (line: string) => writeSync(1, `${line}\n`);

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
    say(`FAILED ${isHeddleError(error) ? error.code : String(error)}`);
  }
  break;
}
lines.close();
await store.close();
