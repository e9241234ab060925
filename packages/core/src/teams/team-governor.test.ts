import { describe, expect, it } from "vitest";
import { TeamError, TeamLimitError } from "./errors.js";
import { DEFAULT_TEAM_LIMITS, TeamGovernor, type TeamLimits } from "./team-governor.js";

function refusal(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("TeamGovernor", () => {
  it("refuses a limit that is not a number at or above its floor, naming it", () => {
    const bad: Array<[TeamLimits, string]> = [
      [{ maxTeammates: 0 }, "limits.maxTeammates must be an integer >= 1"],
      [{ maxTeammates: 1.5 }, "limits.maxTeammates must be an integer >= 1"],
      [{ maxTurns: -1 }, "limits.maxTurns must be an integer >= 0"],
      [{ maxTurns: Number.NaN }, "limits.maxTurns must be an integer >= 0"],
      [{ maxBudgetUsd: -0.01 }, "limits.maxBudgetUsd must be a number >= 0"],
      [{ maxMessageBytes: 0 }, "limits.maxMessageBytes must be an integer >= 1"],
      [{ maxReplyChain: -1 }, "limits.maxReplyChain must be an integer >= 0"],
      [{ maxReplyChain: "8" as unknown as number }, "limits.maxReplyChain must be an integer >= 0"],
    ];
    for (const [limits, text] of bad) {
      const error = refusal(() => new TeamGovernor(limits));
      expect(error, JSON.stringify(limits)).toBeInstanceOf(TeamError);
      expect((error as TeamError).code).toBe("team_invalid_input");
      expect((error as Error).message).toBe(`AgentTeamManager: ${text}`);
    }
    expect((refusal(() => new TeamGovernor(null as never)) as Error).message).toBe(
      "AgentTeamManager: limits must be an object",
    );
    expect(refusal(() => new TeamGovernor("x" as never))).toBeInstanceOf(TeamError);
  });

  it("accepts each limit at its floor, fractions of a dollar, and Infinity for a count", () => {
    const governor = new TeamGovernor({
      maxTeammates: 1,
      maxTurns: 0,
      maxBudgetUsd: 0.5,
      maxMessageBytes: 1,
      maxReplyChain: Number.POSITIVE_INFINITY,
    });
    expect(governor.limits).toEqual({
      maxTeammates: 1,
      maxTurns: 0,
      maxBudgetUsd: 0.5,
      maxMessageBytes: 1,
      maxReplyChain: Number.POSITIVE_INFINITY,
    });
    expect(new TeamGovernor({ maxTurns: undefined }).limits).toEqual(DEFAULT_TEAM_LIMITS);
  });

  it("admits teammates up to maxTeammates", () => {
    const governor = new TeamGovernor({ maxTeammates: 2 });
    expect(() => governor.admitTeammate(1, "b")).not.toThrow();
    const error = refusal(() => governor.admitTeammate(2, "c")) as TeamLimitError;
    expect(error).toBeInstanceOf(TeamLimitError);
    expect(error.limit).toBe("maxTeammates");
    expect(error.message).toBe(
      'The team already has 2 running teammates (limits.maxTeammates is 2): "c" was not created. Stop one first.',
    );
  });

  it("admits a message of exactly maxMessageBytes UTF-8 bytes and refuses one byte more", () => {
    const governor = new TeamGovernor({ maxMessageBytes: 10 });
    expect(() => governor.admitMessage("a".repeat(10))).not.toThrow();
    expect(() => governor.admitMessage("é".repeat(5))).not.toThrow();
    const error = refusal(() => governor.admitMessage(`${"é".repeat(5)}a`)) as TeamLimitError;
    expect(error).toBeInstanceOf(TeamLimitError);
    expect(error.limit).toBe("maxMessageBytes");
    expect(error.message).toBe(
      "The message is 11 bytes; a team message may have at most 10 (limits.maxMessageBytes). " +
        "Send a shorter one, or a path to a file.",
    );
  });

  it("cuts a report to maxMessageBytes with a note, and leaves one that fits as it is", () => {
    const governor = new TeamGovernor({ maxMessageBytes: 100 });
    const note = "\n[... cut: the report was longer than the team's maxMessageBytes]";
    const fits = "é".repeat(50);
    expect(governor.fitMessage(fits)).toBe(fits);
    expect(governor.fitMessage("a".repeat(100))).toBe("a".repeat(100));
    const cut = governor.fitMessage("a".repeat(101));
    expect(cut).toBe("a".repeat(100 - Buffer.byteLength(note)) + note);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(100);
    // A cut never leaves half a character behind.
    const accents = governor.fitMessage("é".repeat(60));
    expect(accents).not.toContain("\ufffd");
    expect(Buffer.byteLength(accents)).toBeLessThanOrEqual(100);
    expect(Buffer.byteLength(accents)).toBeGreaterThanOrEqual(99);
    // A limit smaller than the note keeps the note alone.
    expect(new TeamGovernor({ maxMessageBytes: 5 }).fitMessage("abcdefgh")).toBe(note);
  });

  it("refuses a turn once the team ran maxTurns, and once it spent maxBudgetUsd", () => {
    const turns = new TeamGovernor({ maxTurns: 2 });
    turns.countTurn();
    expect(turns.turnRefusal()).toBeUndefined();
    turns.countTurn();
    expect(turns.turnRefusal()).toEqual({
      limit: "maxTurns",
      detail: "the team ran its limit of 2 turns (limits.maxTurns)",
    });

    const budget = new TeamGovernor({ maxBudgetUsd: 1 });
    budget.scope.addSpend(0.99);
    expect(budget.turnRefusal()).toBeUndefined();
    budget.scope.addSpend(0.01);
    expect(budget.turnRefusal()).toEqual({
      limit: "maxBudgetUsd",
      detail: "the team reached its budget of $1 (limits.maxBudgetUsd)",
    });
    expect(new TeamGovernor().turnRefusal()).toBeUndefined();
  });

  it("counts a reply chain across branches, stops it past maxReplyChain and tells the lead once", () => {
    const governor = new TeamGovernor({ maxReplyChain: 2 });
    // The lead's message starts a chain; nothing is recorded for it.
    governor.recordMessage("lead-1", undefined);
    const start = governor.takeLink("lead-1");
    expect(start).toEqual({ chain: "lead-1", links: 0 });
    governor.recordMessage("r1", start);
    governor.recordMessage("r1b", start); // a branch: still one more link of the same chain
    const second = governor.takeLink("r1b");
    expect(second).toEqual({ chain: "lead-1", links: 2 });
    expect(governor.chainRefusal(second)).toBeUndefined();
    governor.recordMessage("r2", second);
    const third = governor.takeLink("r2");
    expect(third.links).toBe(3);
    expect(governor.chainRefusal(third)).toEqual({ first: true });
    // The other branch (link 1) of a stopped chain is stopped too, without telling the lead again.
    expect(governor.chainRefusal(governor.takeLink("r1"))).toEqual({ first: false });
    // A link is taken once.
    expect(governor.takeLink("r2")).toEqual({ chain: "r2", links: 0 });
  });

  it("forgets the oldest links past 10 000, so memory stays bounded", () => {
    const governor = new TeamGovernor();
    const start = { chain: "c", links: 0 };
    for (let i = 0; i <= 10_000; i++) governor.recordMessage(`m${i}`, start);
    expect(governor.takeLink("m0")).toEqual({ chain: "m0", links: 0 });
    expect(governor.takeLink("m1")).toEqual({ chain: "c", links: 2 });
    expect(governor.takeLink("m10000")).toEqual({ chain: "c", links: 10_001 });
  });
});
