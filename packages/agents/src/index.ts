export const AGENTS_PACKAGE = "@heddle/agents";
