import { ConfigError, HeddleError } from "@heddle/shared";

/** A path given to a workspace tool resolves outside the workspace root (after following symlinks). Code `workspace_escape`. */
export class WorkspaceEscapeError extends HeddleError {
  constructor(
    /** The path as it was given. */
    readonly path: string,
    /** The workspace root (real path). */
    readonly root: string,
    detail?: string,
  ) {
    super(
      "workspace_escape",
      `Path ${JSON.stringify(path)} is outside the workspace ${root}${detail ? ` (${detail})` : ""}. ` +
        "Use a path inside the workspace.",
    );
    this.name = "WorkspaceEscapeError";
  }
}

/**
 * write_file/edit_file were asked to change the agent's own folder (`.heddle/`) or a path the host protects.
 * Code `protected_path`. Reading is still allowed.
 */
export class ProtectedPathError extends HeddleError {
  constructor(
    /** The path as it was given. */
    readonly path: string,
    /** The protected path (real) it falls under. */
    readonly protectedPath: string,
  ) {
    super(
      "protected_path",
      `Path ${JSON.stringify(path)} is in ${protectedPath}, which file tools may not change (the agent's own ` +
        "settings, hooks and sessions live there, or the host protects it). Leave it alone.",
    );
    this.name = "ProtectedPathError";
  }
}

/** Codes of `ToolInputError`, so hosts can tell failures apart without parsing text. */
export type ToolInputErrorCode =
  | "invalid_path"
  | "not_found"
  | "is_directory"
  | "not_a_directory"
  | "not_regular_file"
  | "binary_file"
  | "too_large"
  | "no_match"
  | "not_unique"
  | "no_change"
  | "invalid_pattern"
  | "invalid_todos"
  | "unknown_skill"
  | "no_user"
  | "timeout";

/**
 * A workspace tool could not do what the model asked; the message says what was wrong and what to do instead.
 * Thrown from `execute`, so the loop hands it to the model as an error result.
 */
export class ToolInputError extends HeddleError {
  declare readonly code: ToolInputErrorCode;
  constructor(code: ToolInputErrorCode, message: string) {
    super(code, message);
    this.name = "ToolInputError";
  }
}

/** `createDefaultTools` or another factory got options it cannot use. Code `config_invalid`. */
export class ToolConfigError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = "ToolConfigError";
  }
}
