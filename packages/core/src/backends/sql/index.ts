// Helpers the SQL backends share; no backend's driver or files are reached from here.
export { type SessionRow, sessionRow, toRecord } from "./session-row.js";
