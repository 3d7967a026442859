/**
 * Kept-alive connections of the bulk transport, per origin (decision 0105). A file fetched after
 * another from the same CDN host reuses the open connection: no TCP or TLS handshake (one to three
 * round trips to the CDN) before its first byte. A connection comes back only after a response
 * framed by its content-length was read exactly (bulk-transport.ts decides); idle ones are closed
 * after IDLE_MS, or at once when the site closes them or sends anything unasked.
 */
import type net from 'node:net';

export interface ReadHandler {
  buffer(): Uint8Array;
  callback(n: number, buf: Uint8Array): boolean;
}

export interface PooledConnection {
  readonly key: string;
  socket: net.Socket;
  /** Where the socket's reads go now: the request using it, or the idle guard. */
  handler: ReadHandler;
}

type Kept = PooledConnection & { timer?: NodeJS.Timeout };

const IDLE_MS = 4_000; // below the common 5 s keep-alive of web servers, so we close first
const MAX_IDLE_PER_ORIGIN = 8;

export function createBulkPool() {
  const idle = new Map<string, Kept[]>();
  const scratch = Buffer.allocUnsafe(1024);

  const remove = (c: Kept) => {
    clearTimeout(c.timer);
    const list = idle.get(c.key);
    const i = list?.indexOf(c) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
    if (list && list.length === 0) idle.delete(c.key);
  };

  return {
    /** A new connection whose reads follow `handler` (set it per request). */
    open(key: string, connect: (onread: ReadHandler) => net.Socket, handler: ReadHandler): PooledConnection {
      const conn = { key, handler } as Kept;
      conn.socket = connect({
        buffer: () => conn.handler.buffer(),
        callback: (n, buf) => conn.handler.callback(n, buf),
      });
      conn.socket.once('close', () => remove(conn));
      return conn;
    },

    /** The most recently used idle connection to `key`, if one is still open. */
    take(key: string): PooledConnection | null {
      const list = idle.get(key);
      for (let c = list?.pop(); c; c = list?.pop()) {
        clearTimeout(c.timer);
        if (!c.socket.destroyed && c.socket.readyState === 'open') {
          if (list?.length === 0) idle.delete(key);
          c.socket.ref();
          return c;
        }
      }
      idle.delete(key);
      return null;
    },

    /** Keeps a connection whose last response was read whole; it must carry no request now. */
    put(c: Kept): void {
      const list = idle.get(c.key) ?? [];
      if (list.length >= MAX_IDLE_PER_ORIGIN) return void c.socket.destroy();
      c.handler = {
        buffer: () => scratch,
        callback: () => {
          c.socket.destroy(); // bytes nobody asked for: the connection is out of step
          return false;
        },
      };
      c.socket.setTimeout(0);
      c.socket.unref(); // an idle connection never keeps the process alive
      c.timer = setTimeout(() => c.socket.destroy(), IDLE_MS).unref();
      list.push(c);
      idle.set(c.key, list);
      // Keep reading while idle, so a close from the site is seen now rather than at reuse.
      setImmediate(() => !c.socket.destroyed && c.socket._read(0));
    },

    /** Closes every idle connection (shutdown, tests). */
    close(): void {
      for (const list of [...idle.values()]) for (const c of [...list]) c.socket.destroy();
      idle.clear();
    },

    idleCount(): number {
      return [...idle.values()].reduce((n, l) => n + l.length, 0);
    },
  };
}

export type BulkPool = ReturnType<typeof createBulkPool>;
