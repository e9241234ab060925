import type { AgentHooks } from "@heddle/shared";
import { formatSkillsForPrompt, listSkills } from "../tools/index.js";

/**
 * Lists the skills of `skillsDirs` (name and description of each `SKILL.md`) in the system prompt, so the model
 * knows what `load_skill` can load. Read once per run; a run whose folders hold no skill sends the prompt unchanged.
 */
export function createSkillsPromptHooks(options: { skillsDirs: readonly string[]; baseDir: string }): AgentHooks {
  let listing: Promise<string> | undefined;
  return {
    beforeModel: async ({ request }) => {
      listing ??= listSkills(options.skillsDirs, options.baseDir).then(formatSkillsForPrompt);
      const skills = await listing;
      if (!skills) return;
      return { systemPrompt: request.systemPrompt ? `${request.systemPrompt}\n\n${skills}` : skills };
    },
  };
}
