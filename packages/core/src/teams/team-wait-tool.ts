import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";
import { renderForLead } from "./frames.js";
import type { TeamMailbox, TeamMailboxMessage } from "./mailbox.js";

/** `team_wait`'s longest wait, in seconds (an hour), and its default (five minutes). */
export const TEAM_WAIT_MAX_SECONDS = 3600;
export const TEAM_WAIT_DEFAULT_SECONDS = 300;

/**
 * `team_wait`: blocks until the calling agent's mailbox has a message (a teammate's report, a reply, an approval),
 * then takes every unread one, like `team_read_mailbox`. It ends on the first message, on its timeout (a plain
 * result that says nothing came), or when the run aborts (the mailbox's own wait: no polling in the tool).
 */
export function createTeamWaitTool(mailbox: TeamMailbox, caller: (ctx: { agentId: string }) => string): AgentTool {
  return createTool({
    name: "team_wait",
    description:
      "Wait until a teammate reports or writes to you, then read (and take) every new message in your mailbox. " +
      "Use it instead of reading the mailbox again and again while teammates work. It returns as soon as one " +
      `message arrives, or after timeout_seconds (default ${TEAM_WAIT_DEFAULT_SECONDS}) with nothing.`,
    input: z.object({
      timeout_seconds: z.number().positive().max(TEAM_WAIT_MAX_SECONDS).optional(),
    }),
    readOnly: false,
    // The loop's own timeout must not cut the wait short.
    timeoutMs: (TEAM_WAIT_MAX_SECONDS + 60) * 1000,
    execute: async (input, ctx) => {
      const self = caller(ctx);
      const seconds = input.timeout_seconds ?? TEAM_WAIT_DEFAULT_SECONDS;
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), seconds * 1000);
      const onAbort = () => timeout.abort(ctx.signal.reason);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      try {
        await mailbox.wait(self, timeout.signal);
      } catch (error) {
        // The run's abort ends the tool as aborted; the tool's own timeout is an answer.
        if (ctx.signal.aborted || !timeout.signal.aborted) throw error;
        return `No message arrived within ${seconds} s. Your teammates may still be working: wait again, or check team_status.`;
      } finally {
        clearTimeout(timer);
        ctx.signal.removeEventListener("abort", onAbort);
      }
      const taken: TeamMailboxMessage[] = [];
      for (let m = await mailbox.dequeue(self); m; m = await mailbox.dequeue(self)) taken.push(m);
      return renderForLead(taken);
    },
  });
}
