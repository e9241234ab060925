export type { CheckpointStore, FileCheckpoint } from "./checkpoint-store.js";
export {
  FileCheckpointError,
  FileCheckpointer,
  type FileCheckpointerOptions,
  type FileCheckpointStore,
  type FileRestoreChange,
  type FileRestoreOptions,
  previewFileRestore,
  restoreFileCheckpoints,
} from "./file-checkpointer.js";
