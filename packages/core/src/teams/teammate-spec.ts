/**
 * The rule this file keeps: a roster teammate is built on its worker from its recorded spec, and what the spec
 * says wins over the worker's defaults; what the worker's `buildTeammate` returns wins over both. A spec names
 * tools by name: a name the worker does not have is an error, never silently dropped.
 */
import type { AgentTool } from "@heddle/shared";
import type { SessionTools } from "../sessions/index.js";
import { TeamError } from "./errors.js";
import type { TeammateSpec, TeamRosterEntry } from "./roster.js";
import type { TeammateOptions } from "./teammate-types.js";

/** A worker's own part of building a roster teammate: the options (a model, tools, hooks...) its spec cannot hold. */
export type BuildTeammate = (
  entry: TeamRosterEntry,
) => Partial<Omit<TeammateOptions, "agentId">> | Promise<Partial<Omit<TeammateOptions, "agentId">>>;

/** The options a spec sets over the worker's defaults (`workerTools` are the worker's `tools`). */
export function specOptions(spec: TeammateSpec, workerTools: SessionTools | undefined): Partial<TeammateOptions> {
  const { agentId, toolNames, providerId, modelId, metadata: _metadata, ...plain } = spec;
  const options: Partial<TeammateOptions> = { agentId };
  for (const [key, value] of Object.entries(plain)) if (value !== undefined) Object.assign(options, { [key]: value });
  // The spec's model replaces the worker's (the session takes one or the other, not both).
  if (providerId !== undefined && modelId !== undefined)
    Object.assign(options, { model: undefined, providerId, modelId });
  if (toolNames !== undefined) options.tools = narrowTools(agentId, workerTools, toolNames);
  return options;
}

function narrowTools(agentId: string, tools: SessionTools | undefined, names: string[]): SessionTools {
  const pick = (list: AgentTool[]): AgentTool[] => {
    const missing = names.filter((name) => !list.some((tool) => tool.name === name));
    if (missing.length > 0)
      throw new TeamError(
        "team_invalid_input",
        `Teammate "${agentId}" asks for tools this worker does not have: ${missing.join(", ")} ` +
          `(it has ${list.map((tool) => tool.name).join(", ") || "none"}).`,
      );
    return list.filter((tool) => names.includes(tool.name));
  };
  if (typeof tools === "function") return async (ctx) => pick(await tools(ctx));
  return pick(tools ?? []);
}
