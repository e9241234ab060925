/** A path given to a workspace tool resolves outside the workspace root (after following symlinks). */
export class WorkspaceEscapeError extends Error {
  override name = "WorkspaceEscapeError";
  constructor(
    /** The path as it was given. */
    readonly path: string,
    /** The workspace root (real path). */
    readonly root: string,
    detail?: string,
  ) {
    super(
      `Path ${JSON.stringify(path)} is outside the workspace ${root}${detail ? ` (${detail})` : ""}. ` +
        "Use a path inside the workspace.",
    );
  }
}

/** Codes of `ToolInputError`, so hosts can tell failures apart without parsing text. */
export type ToolInputErrorCode =
  | "invalid_path"
  | "not_found"
  | "is_directory"
  | "not_a_directory"
  | "binary_file"
  | "too_large"
  | "no_match"
  | "not_unique"
  | "no_change"
  | "invalid_pattern"
  | "unknown_skill"
  | "no_user"
  | "timeout";

/**
 * A workspace tool could not do what the model asked; the message says what was wrong and what to do instead.
 * Thrown from `execute`, so the loop hands it to the model as an error result.
 */
export class ToolInputError extends Error {
  override name = "ToolInputError";
  constructor(
    readonly code: ToolInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** `createDefaultTools` or another factory got options it cannot use. */
export class ToolConfigError extends Error {
  override name = "ToolConfigError";
}
