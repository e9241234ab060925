import { describe, expect, it } from "vitest";
import { formatShutdownApproved, formatShutdownRequest, parseTeamControlMessage } from "../../src/index.js";

describe("team control protocol", () => {
  it("formats the two controls exactly", () => {
    expect(formatShutdownRequest("lead", "task done")).toBe('<shutdown_request from="lead" reason="task done"/>');
    expect(formatShutdownRequest("lead")).toBe('<shutdown_request from="lead"/>');
    expect(formatShutdownApproved("worker-1")).toBe('<shutdown_approved from="worker-1"/>');
  });

  it("parses what it formats, escaping attributes both ways", () => {
    const reason = `done & dusted: "all" <tests> pass, it's fine`;
    const text = formatShutdownRequest('lead "boss"', reason);
    expect(text).not.toContain('"all"');
    expect(parseTeamControlMessage(text)).toEqual({ kind: "shutdown_request", from: 'lead "boss"', reason });
    expect(parseTeamControlMessage(formatShutdownApproved("w<1>"))).toEqual({
      kind: "shutdown_approved",
      from: "w<1>",
    });
  });

  it("finds a control inside other text and ignores non-controls", () => {
    expect(
      parseTeamControlMessage(`Thanks, that is all.\n<shutdown_request from="lead" reason="wrap up"/>\nBye.`),
    ).toEqual({ kind: "shutdown_request", from: "lead", reason: "wrap up" });
    expect(parseTeamControlMessage("please shut down when you can")).toBeUndefined();
    expect(parseTeamControlMessage('<shutdown_request reason="no sender"/>')).toBeUndefined();
    expect(parseTeamControlMessage('<task from="lead"/>')).toBeUndefined();
  });
});
