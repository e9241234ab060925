export type { CheckpointStore, FileCheckpoint } from "./checkpoint-store.js";
export {
  DEFAULT_FILE_TOOL_PATHS,
  FileCheckpointError,
  FileCheckpointer,
  type FileCheckpointerOptions,
  type FileCheckpointStore,
  type FileRestoreChange,
  type FileRestoreOptions,
  type FileToolPaths,
  previewFileRestore,
  restoreFileCheckpoints,
} from "./file-checkpointer.js";
