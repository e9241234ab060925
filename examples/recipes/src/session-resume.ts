// A session on SQLite survives the process: create, send, close; later open it by id and go on.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSession, openSession, SqliteSessionStore } from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentModel, getMessageText } from "@heddle/shared";

export async function main(
  model: AgentModel = createScriptedModel([{ text: "Nice to meet you, Ada." }, { text: "Your name is Ada." }]),
) {
  const path = join(mkdtempSync(join(tmpdir(), "heddle-resume-")), "sessions.db");

  let store = new SqliteSessionStore({ path });
  const first = await createSession({ store, model, title: "resume demo" });
  await first.send("Hi, I'm Ada.");
  const id = first.id;
  await first.close();
  await store.close(); // the process could exit here

  store = new SqliteSessionStore({ path });
  const again = await openSession({ store, id, model });
  const result = await again.send("What's my name?");
  const history = await again.history();
  console.log(history.map((m) => `${m.role}: ${getMessageText(m)}`).join("\n"));
  await again.close();
  await store.close();
  return { result, history };
}
