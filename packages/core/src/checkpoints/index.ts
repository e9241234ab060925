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
