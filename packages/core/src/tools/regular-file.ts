import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { ToolInputError } from "../workspace/index.js";

/**
 * Opening a FIFO, socket or device blocks a libuv pool thread until someone writes to it; four such calls and
 * every file operation of the process hangs. File tools only ever open regular files, and open them with
 * O_NONBLOCK (a FIFO swapped in after the stat then opens at once, and fstat refuses it).
 */
export function assertRegularFile(info: Stats, shown: string): void {
  if (info.isFile()) return;
  throw new ToolInputError(
    "not_regular_file",
    `${shown} is ${fileKind(info)}; file tools only read and write regular files.`,
  );
}

/** What a non-regular file is, for messages: "a FIFO (named pipe)", "a socket", "a device", ... */
export function fileKind(info: Stats): string {
  if (info.isFile()) return "a regular file";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return info.isDirectory() ? "a folder" : "not a regular file";
}

/**
 * Reads a regular file without ever blocking on a special one: opened non-blocking, checked with fstat, then read
 * up to `maxBytes`.
 */
export async function readRegularFile(
  realPath: string,
  shown: string,
  maxBytes = Number.MAX_SAFE_INTEGER,
): Promise<Buffer> {
  const handle = await open(realPath, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    assertRegularFile(info, shown);
    const size = Math.min(info.size, maxBytes);
    const buffer = Buffer.alloc(size);
    let offset = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(buffer, offset, size - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset);
  } finally {
    await handle.close();
  }
}

/**
 * `readRegularFile` for callers that must stay synchronous (settings and trust, read once at start): never blocks
 * on a FIFO, socket or device, which it refuses with `ToolInputError` code `not_regular_file`. A missing file
 * throws the usual ENOENT error.
 */
export function readRegularFileSync(file: string, shown: string = file, maxBytes = Number.MAX_SAFE_INTEGER): Buffer {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    assertRegularFile(info, shown);
    const size = Math.min(info.size, maxBytes);
    const buffer = Buffer.alloc(size);
    let offset = 0;
    while (offset < size) {
      const bytesRead = readSync(fd, buffer, offset, size - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset);
  } finally {
    closeSync(fd);
  }
}
