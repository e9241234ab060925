import {
  type AgentMessage,
  assistantMessage,
  type ContentPart,
  textPart,
  toolResultMessage,
  userMessage,
} from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { danglingToolCalls, pairToolMessages, repairMessage } from "./repair.js";

const call = (id: string): ContentPart => ({ type: "tool-call", toolCallId: id, toolName: "t", input: {} });
const result = (id: string) => ({ type: "tool-result" as const, toolCallId: id, toolName: "t", output: "ok" });
const ids = (messages: AgentMessage[]) => messages.map((m) => m.id);

describe("danglingToolCalls (a crash mid-turn)", () => {
  it("are the last assistant message's calls with no result after it, in call order", () => {
    const history = [
      userMessage("go"),
      assistantMessage([textPart("working"), call("a"), call("b"), call("c")]),
      toolResultMessage([result("b")]),
    ];
    expect(danglingToolCalls(history).map((c) => c.toolCallId)).toEqual(["a", "c"]);
  });

  it("look only at the last assistant message: older calls were closed when their turn ended", () => {
    const history = [
      assistantMessage([call("old")]),
      toolResultMessage([result("old")]),
      assistantMessage([call("new")]),
      userMessage("after"),
    ];
    expect(danglingToolCalls(history).map((c) => c.toolCallId)).toEqual(["new"]);
    expect(danglingToolCalls([assistantMessage([call("x")]), assistantMessage("done")])).toEqual([]);
  });

  it("are none in a history without an assistant message, or whose last turn was answered", () => {
    expect(danglingToolCalls([])).toEqual([]);
    expect(danglingToolCalls([userMessage("hi")])).toEqual([]);
    expect(danglingToolCalls([assistantMessage([call("a")]), toolResultMessage([result("a")])])).toEqual([]);
  });
});

describe("repairMessage", () => {
  it("answers every dangling call with an error result saying it may or may not have taken effect", () => {
    const message = repairMessage([call("a"), call("b")] as never);
    expect(message.role).toBe("tool");
    expect(message.metadata).toEqual({ heddle: { kind: "repair" } });
    expect(message.content).toEqual([
      expect.objectContaining({ type: "tool-result", toolCallId: "a", toolName: "t", isError: true }),
      expect.objectContaining({ type: "tool-result", toolCallId: "b", toolName: "t", isError: true }),
    ]);
    for (const part of message.content) {
      expect(part).toMatchObject({ output: expect.stringMatching(/^Interrupted: .*may or may not have taken effect/) });
    }
  });
});

describe("pairToolMessages (rows missing from a damaged store)", () => {
  it("keeps a well-paired history as it is", () => {
    const history = [
      userMessage("go"),
      assistantMessage([call("a"), call("b")]),
      toolResultMessage([result("a"), result("b")]),
      assistantMessage("done"),
    ];
    expect(pairToolMessages(history)).toEqual(history);
  });

  it("drops a tool result whose call is gone, and the tool message when nothing is left in it", () => {
    const user = userMessage("go");
    const orphan = toolResultMessage([result("gone")]);
    const assistant = assistantMessage([call("a")]);
    const mixed = toolResultMessage([result("a"), result("gone")]);
    const paired = pairToolMessages([user, orphan, assistant, mixed]);
    expect(ids(paired)).toEqual([user.id, assistant.id, mixed.id]);
    expect(paired[2]!.content).toEqual([result("a")]);
    // The rows before it are gone too: a history that starts with a tool message.
    expect(ids(pairToolMessages([orphan, user]))).toEqual([user.id]);
  });

  it("drops a call whose result is gone (not in the last message), keeping the rest of that message and its id", () => {
    const assistant = assistantMessage([textPart("let me look"), call("a"), call("b")]);
    const tool = toolResultMessage([result("b")]);
    const paired = pairToolMessages([userMessage("go"), assistant, tool, assistantMessage("done")]);
    expect(paired[1]!.id).toBe(assistant.id);
    expect(paired[1]!.content).toEqual([textPart("let me look"), call("b")]);
    expect(paired[2]).toEqual(tool);
  });

  it("drops an assistant message left empty, and its calls' results with it", () => {
    const user = userMessage("go");
    const lonely = assistantMessage([call("a")]);
    const last = assistantMessage("done");
    // The tool message with `a`'s result was lost; the next message is an assistant's.
    expect(ids(pairToolMessages([user, lonely, last]))).toEqual([user.id, last.id]);
    // A tool message that does not follow the assistant message is no answer to it.
    const stray = toolResultMessage([result("a")]);
    expect(ids(pairToolMessages([user, lonely, userMessage("?"), stray]))).toHaveLength(2);
  });

  it("leaves the last message's calls alone: they are the dangling calls a reopen repairs", () => {
    const last = assistantMessage([call("a")]);
    expect(pairToolMessages([userMessage("go"), last]).at(-1)).toBe(last);
  });
});
