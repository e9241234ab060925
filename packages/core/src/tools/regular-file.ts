import { constants, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { ToolInputError } from "../workspace/index.js";

/**
 * Opening a FIFO, socket or device blocks a libuv pool thread until someone writes to it; four such calls and
 * every file operation of the process hangs. File tools only ever open regular files, and open them with
 * O_NONBLOCK (a FIFO swapped in after the stat then opens at once, and fstat refuses it).
 */
export function assertRegularFile(info: Stats, shown: string): void {
  if (info.isFile()) return;
  const kind = info.isFIFO()
    ? "a FIFO (named pipe)"
    : info.isSocket()
      ? "a socket"
      : info.isCharacterDevice() || info.isBlockDevice()
        ? "a device"
        : "not a regular file";
  throw new ToolInputError("not_regular_file", `${shown} is ${kind}; file tools only read and write regular files.`);
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
