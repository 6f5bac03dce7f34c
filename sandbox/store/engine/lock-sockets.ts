/**
 * The Unix sockets of a data directory's lock (./directory-lock.ts) and of its reset channel
 * (./lock-channel.ts): connecting, listening and closing, and reaching a path longer than a socket's.
 */
import { closeSync, openSync } from "node:fs";
import { createConnection, type Server, type Socket } from "node:net";
import { basename, dirname, relative } from "node:path";

/** Connects to the socket at `file`. */
export function connectTo(file: string): Promise<Socket> {
  return viaShortPath(
    file,
    (address) =>
      new Promise<Socket>((resolve, reject) => {
        const connection = createConnection(address);
        connection.once("connect", () => {
          connection.off("error", reject);
          connection.on("error", () => undefined);
          resolve(connection);
        });
        connection.once("error", reject);
      }),
  );
}

export function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(address, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Closes a server and the connections it still has. */
export function closeServer(server: Server, connections: ReadonlySet<Socket>): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const connection of connections) connection.destroy();
  });
}

/** The longest socket path the system takes (sun_path, less its terminating NUL). */
const MAX_SOCKET_PATH = process.platform === "linux" ? 107 : 103;

/**
 * Runs `use` with a path to `file` short enough for a socket: the path itself, else relative to
 * the working directory, else (Linux) through a descriptor of its folder, held open meanwhile.
 * Node does not check the length and the system would cut a longer path, binding another name.
 */
export async function viaShortPath<T>(file: string, use: (address: string) => Promise<T>): Promise<T> {
  const fits = (path: string): boolean => Buffer.byteLength(path) <= MAX_SOCKET_PATH;
  if (fits(file)) return use(file);
  const near = relative(process.cwd(), file);
  if (fits(near)) return use(near);
  if (process.platform === "linux") {
    const folder = openSync(dirname(file), "r");
    try {
      const viaFolder = `/proc/self/fd/${folder}/${basename(file)}`;
      if (fits(viaFolder)) return await use(viaFolder);
    } finally {
      closeSync(folder);
    }
  }
  throw new Error(
    `the lock ${file} has a path of ${Buffer.byteLength(file)} bytes, and a Unix socket's is limited to ${MAX_SOCKET_PATH}: choose a DATA_DIR with a shorter path`,
  );
}

export function codeOf(error: unknown): string {
  return String((error as NodeJS.ErrnoException | undefined)?.code ?? error);
}

export function ignoreMissing(error: unknown): void {
  if (codeOf(error) !== "ENOENT") throw error;
}
